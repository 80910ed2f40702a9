"""One-ply greedy bot: best immediate ``State.evaluate`` after each legal action, random tie-break."""

from __future__ import annotations

from typing import Sequence

from ..core.game import State
from .base import Bot

__all__ = ["GreedyBot", "one_ply_values"]


def one_ply_values(state: State, player: int, moves: Sequence[int]) -> list[float]:
    """``evaluate(player)`` after each of ``moves`` (legal for ``player``), on clones; a game may
    do it faster with the same values: its strategy's ``one_ply_values(state, player, moves)``
    (e.g. only what a build changes), else ``state.successor(action, player)`` (a copy that skips
    the history)."""
    fast = getattr(state.game.strategy, "one_ply_values", None)
    if fast is not None:
        return fast(state, player, moves)
    successor = getattr(state, "successor", None)
    if successor is not None:
        return [successor(a, player).evaluate(player) for a in moves]
    out = []
    for a in moves:
        s = state.clone()
        s.apply_legal(a, player)
        out.append(s.evaluate(player))
    return out


class GreedyBot(Bot):
    """Uses the game's ``greedy_action`` if it has one, else a one-ply search.

    One-ply: for every legal action ``a``, clone, apply ``a`` and score with
    ``evaluate(player)``; the best value wins, ties broken at random (seeded).
    """

    name = "greedy"

    def __init__(self, seed: int = 0, epsilon: float = 0.0) -> None:
        super().__init__(seed)
        self.epsilon = epsilon
        """Chance of a uniformly random legal action instead (0: always greedy)."""

    def step(self, state: State, player: int) -> int:
        """The greedy action of ``player`` (a random one with probability ``epsilon``)."""
        if self.epsilon and self.rng.random() < self.epsilon:
            return state.sample_action(self.rng, player)
        fast = state.greedy_action(player, self.rng)
        if fast is not None:
            return fast
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        best: list[int] = []
        best_value = float("-inf")
        for a, v in zip(legal, one_ply_values(state, player, legal)):
            if v > best_value + 1e-9:
                best_value = v
                best = [a]
            elif v > best_value - 1e-9:
                best.append(a)
        return best[self.rng.randrange(len(best))]
