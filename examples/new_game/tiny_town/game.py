"""Tiny Town's Game: options, the rooms wired together, the score calculator."""

from __future__ import annotations

from typing import Any, Mapping

from citybuilders.core.game import Game, PlayerScore, ScoreResult, State
from citybuilders.core.options import Option

from . import actions as A
from .render import TinyTownView
from .rules import TinyTownState
from .scorefile import parse_score_file, score_rows
from .strategy import TinyTownStrategy
from .texts import CATEGORY_NAMES, TITLE

__all__ = ["TinyTownGame"]


class TinyTownScore(ScoreResult):
    """Per-player breakdowns of a score file."""

    def __init__(self, parts: list[dict[str, int]]) -> None:
        self.scores = [PlayerScore(sum(p.values()), p) for p in parts]

    def to_json(self) -> dict[str, Any]:
        return {"players": [s.to_dict() for s in self.scores]}

    def to_text(self) -> str:
        return "\n".join(
            f"P{i + 1}: {s.total} (" + ", ".join(f"{CATEGORY_NAMES[k]} {v}"
                                              for k, v in s.parts.items()) + ")"
            for i, s in enumerate(self.scores))


class TinyTownGame(Game):
    """Tiny Town for 2-3 players (see rules.py)."""

    name = "tiny-town"
    title = TITLE
    min_players = 2
    max_players = 3
    default_players = 2
    rules_version = "1"
    option_specs = (
        Option("turns", 6, "number of player turns in the game", type=int, minimum=1,
               maximum=50, kind="setup"),
        Option("bonus", False, "a roll of the scoring face earns 2 points", type=bool),
    )
    view = TinyTownView()
    strategy = TinyTownStrategy()

    def new_initial_state(self, num_players: int | None = None, seed: int = 0) -> State:
        return TinyTownState(self, self.check_num_players(num_players), seed)

    def num_distinct_actions(self) -> int:
        return A.NUM_ACTIONS

    def score_file(self, data: Mapping[str, Any]) -> ScoreResult:
        """Score ``{"players": [{"built": [...], "sixes": n}]}``. Raises FormatError."""
        rows = parse_score_file(data, self.min_players, self.max_players)
        return TinyTownScore(score_rows(rows, self.options["bonus"]))
