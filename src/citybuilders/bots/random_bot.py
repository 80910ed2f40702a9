"""Uniform random bot."""

from __future__ import annotations

from ..core.game import State
from .base import Bot

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks uniformly among ``state.legal_actions(player)``."""

    name = "random"

    def step(self, state: State, player: int) -> int:
        """A uniformly random legal action of ``player``."""
        legal = state.legal_actions(player)
        return legal[self.rng.randrange(len(legal))]
