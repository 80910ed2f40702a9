"""Tiny Town's evaluation for the greedy bot: the score, plus the card in hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citybuilders.core.view import Strategy

if TYPE_CHECKING:  # pragma: no cover - types only
    from .rules import TinyTownState

__all__ = ["TinyTownStrategy"]


class TinyTownStrategy(Strategy):
    """Greedy value: points, with a small bonus for a card still to build."""

    def evaluate(self, state: "TinyTownState", player: int) -> float:
        return state.scores()[player].total + 0.1 * state.hands[player]
