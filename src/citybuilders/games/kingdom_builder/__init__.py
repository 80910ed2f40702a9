"""Kingdom Builder (base game; Crossroads plugs in via the tile-kind table)."""

from __future__ import annotations

from .game import KingdomBuilderGame

__all__ = ["KingdomBuilderGame"]
