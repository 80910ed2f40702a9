"""Bot protocol and registry. Bots are game-agnostic: they use only the core State protocol."""

from __future__ import annotations

import random
from typing import Callable

from ..core.errors import OptionError
from ..core.game import State

__all__ = ["Bot", "make_bot", "bot_names", "register_bot"]


class Bot:
    """Base class: ``step(state, player) -> action`` picks a legal action for ``player``.

    ``seed`` makes the bot deterministic (its own RNG, independent of the chance RNG).
    """

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def step(self, state: State, player: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError


_BOTS: dict[str, Callable[[int], Bot]] = {}


def register_bot(name: str, factory: Callable[[int], Bot]) -> None:
    """Register a bot factory ``factory(seed) -> Bot`` under ``name``."""
    _BOTS[name] = factory


def bot_names() -> list[str]:
    """Registered bot names."""
    from . import greedy, ismcts, random_bot  # noqa: F401 - registration side effects

    return sorted(_BOTS)


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name (``random``, ``greedy``, ...). Raises OptionError listing the bots."""
    names = bot_names()
    if name not in _BOTS:
        raise OptionError(f"unknown bot {name!r}; allowed: {', '.join(names)}")
    return _BOTS[name](seed)
