"""Bot protocol and registry. Bots are game-agnostic: they use only the core State protocol.

The registry is a table (bot name -> ``"module:Class"``), imported on first use, like the game
registry (``core/registry.py``): this module never imports the bots that subclass :class:`Bot`.
"""

from __future__ import annotations

import importlib
import random
from typing import Callable

from ..core.errors import OptionError
from ..core.game import State
from ..core.i18n import N_

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


# bot name -> "module:ClassName" (one line per shipped bot)
_BUILTIN: dict[str, str] = {
    "random": "citybuilders.bots.random_bot:RandomBot",
    "greedy": "citybuilders.bots.greedy:GreedyBot",
    "ismcts": "citybuilders.bots.ismcts:ISMCTSBot",
    "easy": "citybuilders.bots.levels:easy",
    "normal": "citybuilders.bots.levels:normal",
    "hard": "citybuilders.bots.levels:hard",
    "expert": "citybuilders.bots.levels:expert",
}
_BOTS: dict[str, Callable[[int], Bot]] = {}
"""Bots registered at run time (tests, plugins) and shipped bots once imported."""


def register_bot(name: str, factory: Callable[[int], Bot]) -> None:
    """Register a bot factory ``factory(seed) -> Bot`` under ``name``."""
    _BOTS[name] = factory


def bot_names() -> list[str]:
    """Registered bot names."""
    return sorted(set(_BUILTIN) | set(_BOTS))


def _factory(name: str) -> Callable[[int], Bot] | None:
    factory = _BOTS.get(name)
    if factory is None and name in _BUILTIN:
        module_name, _, cls_name = _BUILTIN[name].partition(":")
        factory = getattr(importlib.import_module(module_name), cls_name)
        _BOTS[name] = factory
    return factory


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name (``random``, ``greedy``, ...). Raises OptionError listing the bots."""
    factory = _factory(name) if isinstance(name, str) else None
    if factory is None:
        raise OptionError(N_("unknown bot {name!r}; allowed: {allowed}",
                             name=name, allowed=', '.join(bot_names())))
    return factory(seed)
