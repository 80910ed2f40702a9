"""Uniform random bot."""

from __future__ import annotations

from ..core.game import State
from .base import Bot

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks uniformly among ``state.legal_actions(player)`` (``state.sample_action``: the
    game's fast path where it has one, the same moves either way)."""

    name = "random"

    def step(self, state: State, player: int) -> int:
        """A uniformly random legal action of ``player``."""
        return state.sample_action(self.rng, player)
