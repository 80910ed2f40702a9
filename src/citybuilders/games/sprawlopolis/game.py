"""Sprawlopolis (Button Shy Games, 2018): the :class:`SprawlopolisGame` wiring.

The rooms: rules (:mod:`.rules.state`, :mod:`.rules.city`, :mod:`.rules.options`), the action
encoding and notation (:mod:`.actions`), card data (:mod:`.loader`), scoring (:mod:`.scoring`),
the score-file format (:mod:`.scorefile`), presentation (:mod:`.render`, :mod:`.texts`) and the
greedy policy (:mod:`.strategy`).
"""

from __future__ import annotations

from typing import Any, Mapping

from ...core.game import Game, ScoreResult, State
from ...core.rng import make_rng
from .actions import NUM_ACTIONS
from .loader import CARD_NUMBERS
from .render import SprawlopolisView, SprawlScoreResult
from .rules.options import OPTION_SPECS
from .rules.state import SprawlopolisState
from .scorefile import score_city_file
from .scoring import Rules
from .strategy import SprawlopolisStrategy
from . import texts as _texts

__all__ = ["SprawlopolisGame"]


class SprawlopolisGame(Game):
    """Sprawlopolis: 1 player (solo) or 2–4 co-operative players.

    Options: see :data:`.rules.options.OPTION_SPECS` (``conditions`` plus named rules options).
    Raises OptionError for an unknown option or bad value.
    """

    view = SprawlopolisView()
    strategy = SprawlopolisStrategy()

    name = "sprawlopolis"
    title = "Sprawlopolis"
    texts = _texts
    """Player-facing names and rule texts (``texts.py``; ``texts.rules_text(state, lang)``)."""
    min_players = 1
    max_players = 4
    default_players = 1
    rules_version = "1"
    option_specs = OPTION_SPECS
    cooperative = True

    def _post_init(self) -> None:
        self.rules = Rules.from_options(self.options)

    def new_initial_state(self, num_players: int | None = None, seed: int = 0) -> SprawlopolisState:
        """A new game; ``seed`` draws the three conditions unless the option fixes them."""
        n = self.check_num_players(num_players)
        conds = self.options["conditions"]
        if conds is None:
            conds = make_rng(seed, "setup").sample(CARD_NUMBERS, 3)
        return SprawlopolisState(self, n, seed, tuple(conds))

    def num_distinct_actions(self) -> int:
        """18 cards × NCELL positions × 2 rotations, plus 18 chance outcomes."""
        return NUM_ACTIONS

    def score_file(self, data: Mapping[str, Any]) -> ScoreResult:
        """Score a city file (``cards`` in play order or a ``grid``; docs/formats.md).

        Raises FormatError naming the field (and the card) and the problem.
        """
        return SprawlScoreResult(score_city_file(self.name, self.options, data))

    def describe_setup(self, state: State) -> str:
        """``conditions 3-7-12 (target 22)``."""
        assert isinstance(state, SprawlopolisState)
        nums = "-".join(str(n) for n in sorted(state.conditions))
        return f"conditions {nums} (target {state.target})"
