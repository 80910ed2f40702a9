"""Kingdom Builder evaluation and the greedy bot's policy (base game and Crossroads).

The value of a position for player ``p`` (used by the one-ply greedy search): gold so far (the 3
Kingdom Builder cards and castles), + 0.5 per location tile held (tiles are extra actions), + 0.01
per settlement on the board (prefer building when the gold is equal); with Crossroads also the task
gold and + 0.01 per hex of a Crossroads piece.
"""

from __future__ import annotations

import random
from typing import Any

from citybuilders.core.view import Strategy

from .actions import END
from .rules.crossroads_state import CrossroadsState
from .rules.state import HELD, KingdomBuilderState
from .scoring import score_player

__all__ = ["KingdomBuilderStrategy", "base_value", "crossroads_value"]


def base_value(st: KingdomBuilderState, player: int) -> float:
    """Greedy value of ``st`` for ``player`` in the base game (module docstring)."""
    held = 0
    base = player * st.nloc
    hold = st.hold
    for k in range(st.nloc):
        if hold[base + k] in HELD:
            held += 1
    return (
        score_player(st.board, st.cards, st.occ, player, st.opts)
        + 0.5 * held
        + 0.01 * st.stl[player].bit_count()
    )


def crossroads_value(st: CrossroadsState, player: int) -> float:
    """:func:`base_value` + task gold + 0.01 per Crossroads piece hex of ``player``."""
    return (
        base_value(st, player)
        + sum(st.task_gold(player).values())
        + 0.01 * st.pieces_of(player).bit_count()
    )


class KingdomBuilderStrategy(Strategy):
    """The greedy bot of Kingdom Builder (see ``core/view.py``)."""

    def evaluate(self, state: Any, player: int) -> float:
        """Value of ``state`` for ``player`` (:func:`base_value` / :func:`crossroads_value`)."""
        if isinstance(state, CrossroadsState):
            return crossroads_value(state, player)
        return base_value(state, player)

    def greedy_action(self, state: Any, player: int, rng: random.Random) -> int | None:
        """One-ply greedy: the legal action with the best value afterwards; ties broken at
        random with ``rng``; ``end`` only when nothing improves the value (tiles get used)."""
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        value = crossroads_value if isinstance(state, CrossroadsState) else base_value
        best: list[int] = []
        best_v = float("-inf")
        for a in legal:
            if a == END:
                v = value(state, player) - 1e-6
            else:
                v = value(state.successor(a, player), player)
            if v > best_v + 1e-9:
                best_v, best = v, [a]
            elif v > best_v - 1e-9:
                best.append(a)
        return best[rng.randrange(len(best))]
