"""Game-agnostic bots over the core State protocol: ``random``, ``greedy``, ``ismcts``."""

from __future__ import annotations

from .base import Bot, bot_names, make_bot, register_bot
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .random_bot import RandomBot

__all__ = ["Bot", "GreedyBot", "ISMCTSBot", "RandomBot", "bot_names", "make_bot", "register_bot"]
