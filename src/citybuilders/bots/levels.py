"""Levels for people: ``easy``, ``normal``, ``hard``, ``expert`` — each a bot and a budget.

======== =================================================================================
level    bot
======== =================================================================================
easy     greedy, but one move in two is a random legal move
normal   greedy (the game's one-ply heuristic)
hard     ISMCTS, 0.25 s a move: random rollouts to the end of the game (``sample_action``),
         backups half the result (win 1, tie 0.5, loss 0) and half the final score margin,
         progressive widening by greedy priors at the root only, exploration 0.5, tree reuse
expert   the same search with no widening, 400 iterations a move (a game may set its own:
         Kingdom Builder with Crossroads 300), at most 1 s of CPU time on the benchmark
         machine; 1 s of CPU time as a safety net
======== =================================================================================

Why these searches (Kingdom Builder 2p against greedy with iteration budgets, docs/bots.md): a
leaf valued by ``evaluate`` (the gold the board holds now) searches the same myopic value greedy
maximises and was even with it; random rollouts to the end see what a position can still become
(room to build next to one's settlements, tiles), and with the margin in the backup (less noisy
than the win alone) and tree reuse they won most games at 300 iterations a move, where
win-share backups without reuse were even. Widening the root by greedy's order helps a search
cut short (30 iterations: 0.45 against 0.17 without) — ``hard``, which also serves the hints —
but held the search back at 300 iterations, so ``expert`` searches every root move.

A game whose strategy's ``leaf_search(game)`` is true plays ``hard`` with the leaf-valued
search (``search_settings(seconds, "leaf")``) instead: Kingdom Builder with Crossroads does.
``expert`` plays the rollout search there too: with iteration budgets on paired seeds it beat
the leaf search (docs/bots.md, "Levels: Kingdom Builder").

A game whose strategy says search does not help it (``Strategy.search_helps = False``: its
greedy heuristic plans better than a search over its ``evaluate``) plays ``hard`` and
``expert`` with its greedy policy (Sprawlopolis does). A game whose strategy has a planner
(``Strategy.planned_action`` returns a move) plays ``hard`` and ``expert`` with it, with the
level's seconds. Measured strength per game: docs/bots.md.
"""

from __future__ import annotations

from typing import Any, Callable

from ..core.game import Game, State
from .base import Bot
from .greedy import GreedyBot
from .ismcts import ISMCTSBot

__all__ = ["LEVELS", "LevelBot", "easy", "normal", "hard", "expert", "search_settings",
           "level_seconds", "level_settings", "EXPERT_ITERATIONS"]

LEVELS = ("easy", "normal", "hard", "expert")


def search_settings(seconds: float, level: str = "leaf") -> dict[str, Any]:
    """The ISMCTS settings of the search levels ``hard`` and ``expert``, with ``seconds`` a
    move (the module docstring says how they differ). The default ``level="leaf"`` is the earlier leaf-valued search (no
    rollouts: ``evaluate`` at the leaf, widening at every node), kept for comparisons
    (``benchmarks/bench_search.py``'s ``level`` figure).

    Raises ValueError for another ``level``."""
    if level == "expert":
        return dict(iterations=None, max_seconds=seconds, exploration=0.5, backup="margin",
                    rollout_depth=None, widening=None, reuse=True, rank_weight=0.5)
    if level == "hard":
        return dict(iterations=None, max_seconds=seconds, exploration=0.5, backup="margin",
                    rollout_depth=None, widening=(1.0, 0.5), root_widening=True, reuse=True,
                    rank_weight=0.5)
    if level == "leaf":
        return dict(iterations=None, max_seconds=seconds, exploration=0.3, backup="margin",
                    rollout_depth=0, widening=(1.0, 0.4), reuse=True, rank_weight=0.0)
    raise ValueError(f"level: expected hard, expert or leaf, got {level!r}")


_SECONDS = {"hard": 0.25, "expert": 1.0}

EXPERT_ITERATIONS = {"expert": 400}
"""Iterations a move of the ``expert`` search, by search style (``level_settings``): chosen so
that its slowest move takes at most 1 s of CPU time on the project's benchmark machine
(docs/bots.md, "Levels: Kingdom Builder"). The level's seconds are then a safety net in CPU time
(``clock="cpu"``) that this budget does not reach, so ``expert`` plays the same moves for the same
seed however loaded the machine is."""


def level_settings(level: str, style: str | None = None,
                   iterations: int | None = None) -> dict[str, Any]:
    """The ISMCTS settings a search level plays: ``search_settings(seconds, style)`` (``style``
    defaults to ``level``), and for ``expert`` an iteration budget (``iterations``, else
    ``EXPERT_ITERATIONS[style]``; a game's strategy may give its own with
    ``expert_iterations(game)``) with its 1 s as a CPU-time safety net (``clock="cpu"``).
    ``hard`` keeps its 0.25 s of wall time (the hints: an answer within a wall-time bound).

    Raises ValueError for a level other than ``hard``/``expert`` or an unknown style."""
    if level not in _SECONDS:
        raise ValueError(f"level: expected hard or expert, got {level!r}")
    style = style or level
    settings = search_settings(_SECONDS[level], style)
    if level == "expert":
        settings.update(iterations=EXPERT_ITERATIONS.get(style, settings["iterations"]),
                        clock="cpu")
        if iterations is not None:
            settings["iterations"] = iterations
    return settings


def level_seconds(name: str) -> float:
    """Seconds a move the level ``name`` searches (0.0 for ``easy``, ``normal`` and any other
    bot name)."""
    return _SECONDS.get(name, 0.0)


class LevelBot(Bot):
    """The bot of one level; the inner bot is chosen for the game on the first move."""

    def __init__(self, level: str, seed: int = 0) -> None:
        if level not in LEVELS:
            raise ValueError(f"level: expected one of {', '.join(LEVELS)}, got {level!r}")
        super().__init__(seed)
        self.name = level
        self.seed = seed
        self._game: Game | None = None
        self._inner: Bot | None = None

    def inner_for(self, game: Game) -> Bot:
        """The bot this level plays ``game`` with."""
        if self.name == "easy":
            return GreedyBot(self.seed, epsilon=0.5)
        if self.name == "normal" or not getattr(game.strategy, "search_helps", True):
            return GreedyBot(self.seed)
        leaf = getattr(game.strategy, "leaf_search", None)
        # expert plays the rollout search in every game (with Crossroads too: it beat the leaf
        # search there once it had an iteration budget, docs/bots.md); hard keeps the leaf
        # search where the game asks for it
        leafy = self.name == "hard" and leaf is not None and leaf(game)
        style = "leaf" if leafy else self.name
        count = getattr(game.strategy, "expert_iterations", None)
        budget = count(game) if count is not None and self.name == "expert" else None
        return ISMCTSBot(self.seed, **level_settings(self.name, style, budget))

    def step(self, state: State, player: int) -> int:
        """The level's move for ``player``."""
        if self._inner is None or state.game is not self._game:
            self._game = state.game
            self._inner = self.inner_for(state.game)
        if self.name in _SECONDS:
            planned = state.game.strategy.planned_action(state, player, self.rng,
                                                         _SECONDS[self.name])
            if planned is not None:
                return planned
        return self._inner.step(state, player)


def _level(name: str) -> Callable[[int], Bot]:
    def make(seed: int = 0) -> Bot:
        return LevelBot(name, seed)

    make.__name__ = name
    make.__doc__ = f"The {name!r} level (see the module docstring)."
    return make


easy = _level("easy")
normal = _level("normal")
hard = _level("hard")
expert = _level("expert")
