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

from typing import Callable, Mapping, Protocol

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
    "BOARD_SIZE",
    "NUM_HEXES",
    "CARD_NAMES_IN_ORDER",
    "hex_index",
    "hex_name",
    "parse_hex",
    "TileNotation",
    "action_to_string",
    "parse_action",
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


# --------------------------------------------------------------------------- notation
BOARD_SIZE = 20
"""Rows and columns of the assembled board (hex ``R*20+C``)."""
NUM_HEXES = BOARD_SIZE * BOARD_SIZE
CARD_NAMES_IN_ORDER: tuple[str, ...] = ("grass", "canyon", "desert", "flower_field", "forest")
"""Terrain card ids in action order (``card grass`` = action 0 ...); the loader's CARD_TERRAINS."""


def hex_index(r: int, c: int) -> int:
    """Index of global hex ``(r, c)``. Raises ValueError off the 20×20 board."""
    if not (0 <= r < BOARD_SIZE and 0 <= c < BOARD_SIZE):
        raise ValueError(f"hex {r},{c} is off the board (rows and columns are 0..19)")
    return r * BOARD_SIZE + c


def hex_name(i: int) -> str:
    """Notation ``"R,C"`` of hex index ``i`` (e.g. ``"7,12"``)."""
    r, c = divmod(i, BOARD_SIZE)
    return f"{r},{c}"


def parse_hex(text: str) -> int:
    """Parse ``"R,C"`` into a hex index. Raises ValueError with a readable reason."""
    parts = text.strip().split(",")
    if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
        raise ValueError(f"'{text.strip()}' is not a hex; write row,col like 7,12")
    return hex_index(int(parts[0]), int(parts[1]))


class TileNotation(Protocol):
    """What the notation needs of a location tile kind (rules/tiles.py TileKind)."""

    def to_string(self, action: int) -> str: ...

    def parse(self, args: str) -> int: ...


def action_to_string(action: int, kind_of_action: Callable[[int], TileNotation | None]) -> str:
    """``card grass`` (chance), ``end``, ``build 7,12``, ``farm 7,12``, ``paddock 7,12>9,12``.

    ``kind_of_action``: the tile kind owning an action id, or None (the rules' registry).
    Raises ValueError for an id that is no Kingdom Builder action.
    """
    if CARD_BASE <= action < CARD_BASE + len(CARD_NAMES_IN_ORDER):
        return f"card {CARD_NAMES_IN_ORDER[action - CARD_BASE]}"
    if action == END:
        return "end"
    if BUILD_BASE <= action < BUILD_BASE + NUM_HEXES:
        return f"build {hex_name(action - BUILD_BASE)}"
    kind = kind_of_action(action)
    if kind is None or action >= NUM_ACTIONS:
        raise ValueError(f"action {action} is not a Kingdom Builder action")
    return kind.to_string(action)


def parse_action(text: str, kinds: Mapping[str, TileNotation], verbs: tuple[str, ...]) -> int:
    """Action id of notation ``text`` whether legal or not.

    ``kinds``: tile kinds by id; ``verbs``: the tile verbs this setup knows (base, or base +
    Crossroads). Raises ValueError (message = the hint to show) for text that does not parse.
    """
    words = text.strip().lower().split(None, 1)
    if not words:
        raise ValueError("empty move; try 'build 7,12', a tile like 'farm 3,4' or "
                         "'paddock 7,12>9,12', or 'end'")
    verb = words[0]
    args = words[1] if len(words) > 1 else ""
    try:
        if verb in ("end", "pass", "done"):
            return END
        if verb in ("build", "b"):
            return BUILD_BASE + parse_hex(args)
        if verb == "card" and args.replace(" ", "_") in CARD_NAMES_IN_ORDER:
            return CARD_BASE + CARD_NAMES_IN_ORDER.index(args.replace(" ", "_"))
        if verb in verbs:
            return kinds[verb].parse(args)
    except ValueError as exc:
        raise ValueError(f"'{text.strip()}': {exc}") from None
    raise ValueError(f"unknown move '{verb}'; moves are: {', '.join(['build', 'end', *verbs])}")
