"""Roll into Town (registry id ``roll-into-town``): simultaneous roll-and-write city building."""

from __future__ import annotations

from .game import RollIntoTownGame, RollIntoTownState

__all__ = ["RollIntoTownGame", "RollIntoTownState"]
