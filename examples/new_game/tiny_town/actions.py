"""Tiny Town's action encoding and notation.

=========  =====================  =======================
ids        meaning                notation
=========  =====================  =======================
0          build (score a card)   ``build``
1          roll the die           ``roll``
2..2+C-1   chance: draw card c    ``card 1`` .. ``card C``
2+C..      chance: die face f     ``die 1`` .. ``die F``
=========  =====================  =======================
"""

from __future__ import annotations

from citybuilders.core.errors import IllegalActionError

from .loader import load_data

__all__ = ["BUILD", "ROLL", "CARD_BASE", "DIE_BASE", "NUM_ACTIONS", "to_string", "from_string"]

_DATA = load_data()
BUILD = 0
ROLL = 1
CARD_BASE = 2
DIE_BASE = CARD_BASE + len(_DATA.card_values)
NUM_ACTIONS = DIE_BASE + _DATA.die_faces


def to_string(action: int) -> str:
    """Notation of ``action``. Raises IllegalActionError for an id out of range."""
    if action == BUILD:
        return "build"
    if action == ROLL:
        return "roll"
    if CARD_BASE <= action < DIE_BASE:
        return f"card {action - CARD_BASE + 1}"
    if DIE_BASE <= action < NUM_ACTIONS:
        return f"die {action - DIE_BASE + 1}"
    raise IllegalActionError(f"{action} is not a Tiny Town action")


def from_string(text: str) -> int:
    """Inverse of :func:`to_string`. Raises IllegalActionError naming the allowed forms."""
    for a in range(NUM_ACTIONS):
        if to_string(a) == " ".join(text.lower().split()):
            return a
    raise IllegalActionError(f"'{text}' is not a Tiny Town move; allowed: build, roll")
