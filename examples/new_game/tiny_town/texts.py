"""Every player-facing name and rule text of Tiny Town, keyed by stable ids."""

from __future__ import annotations

__all__ = ["TITLE", "CATEGORY_NAMES", "MOVE_RULES"]

TITLE = "Tiny Town"
CATEGORY_NAMES = {"buildings": "Buildings", "dice": "Lucky rolls"}
MOVE_RULES = {
    "build": "Build the card in your hand: it scores its value, then you draw a new card.",
    "roll": "Roll the die: the scoring face earns a point.",
}
