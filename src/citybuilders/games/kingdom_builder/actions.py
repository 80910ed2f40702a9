"""The fixed Kingdom Builder action space.

=====================  ==============================================================
id range               meaning
=====================  ==============================================================
0..4                   chance: a terrain card (grass, canyon, desert, flower_field, forest)
5..15                  reserved (more chance kinds)
16                     ``end`` (end the turn: discard the card, draw a new one)
17..31                 reserved (expansion singleton actions, e.g. choosing a hand card)
32..431                ``build R,C``: a settlement of the mandatory action on hex R*20+C
432 + 400*s + h        one-hex tile action of hex-slot ``s`` (0..23) on hex ``h``
PAIR_BASE + 160000*s   two-hex tile action of pair-slot ``s`` (0..5):
  + 400*from + to      (e.g. ``paddock 7,12>9,12``)
=====================  ==============================================================

Base slots: hex slots 0 oracle, 1 farm, 2 oasis, 3 tower, 4 tavern; pair slots 0 barn,
1 harbor, 2 paddock. The other slots are reserved for expansions (Crossroads), so the space
(``NUM_ACTIONS``) is the same for every setup.
"""

from __future__ import annotations

__all__ = [
    "CARD_BASE",
    "END",
    "BUILD_BASE",
    "HEX_BASE",
    "HEX_SLOTS",
    "PAIR_BASE",
    "PAIR_SLOTS",
    "NUM_ACTIONS",
    "hex_slot_base",
    "pair_slot_base",
]

CARD_BASE = 0
END = 16
BUILD_BASE = 32
HEX_BASE = 432
HEX_SLOTS = 24
PAIR_BASE = HEX_BASE + 400 * HEX_SLOTS
PAIR_SLOTS = 6
NUM_ACTIONS = PAIR_BASE + 160000 * PAIR_SLOTS


def hex_slot_base(slot: int) -> int:
    """First action id of one-hex tile slot ``slot``."""
    if not 0 <= slot < HEX_SLOTS:
        raise ValueError(f"hex slot {slot} out of range 0..{HEX_SLOTS - 1}")
    return HEX_BASE + 400 * slot


def pair_slot_base(slot: int) -> int:
    """First action id of two-hex tile slot ``slot``."""
    if not 0 <= slot < PAIR_SLOTS:
        raise ValueError(f"pair slot {slot} out of range 0..{PAIR_SLOTS - 1}")
    return PAIR_BASE + 160000 * slot
