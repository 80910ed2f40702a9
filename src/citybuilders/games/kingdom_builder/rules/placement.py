"""Where each piece may stand: the placement invariants the engine keeps in play, shared by the
engine's move generators and the score calculator's checks of a final position (scorefile.py).

Sources: rulebook seed 003 (settlements on the 5 buildable terrains; Harbor moves one onto water;
never on a castle or location hex; one piece per hex; 40 settlements each) and Crossroads seed 004
(wagon: buildable or mountain, option ``wagon_on_mountains``; ship: water; warriors and city hall:
buildable; 1 wagon, 1 ship, 2 warriors, 1 city hall of 7 hexes; nobody builds, places or moves
onto a hex next to a warrior, so two warriors are never neighbours).
"""

from __future__ import annotations

from .board import MOUNTAIN, WATER, Board
from .crossroads import PIECES_PER_PLAYER, city_hall_footprint, erode

__all__ = [
    "SETTLEMENT_SUPPLY",
    "PIECE_LIMIT",
    "PIECE_TILES",
    "piece_terrain",
    "terrain_words",
    "city_hall_centre",
]

SETTLEMENT_SUPPLY = 40
"""Settlements per player (rulebook Preparação)."""
PIECE_LIMIT: dict[str, int] = {"settlement": SETTLEMENT_SUPPLY, **PIECES_PER_PLAYER}
"""How many pieces of each kind a player has."""
PIECE_TILES: dict[str, str] = {
    "wagon": "wagon", "ship": "lighthouse", "warrior": "barracks", "city_hall": "city_hall",
}
"""The location tile without which a Crossroads piece never reaches the board."""


def piece_terrain(board: Board, piece: str, wagon_on_mountains: bool = True) -> int:
    """Bitset of the hexes of ``board`` whose terrain may hold ``piece`` (``settlement``,
    ``wagon``, ``ship``, ``warrior``, ``city_hall``); castle and location hexes never do.
    Raises KeyError for another piece name."""
    if piece == "settlement":
        return board.buildable | board.tmask[WATER]  # built on land; Harbor moves onto water
    if piece == "wagon":
        return board.buildable | (board.tmask[MOUNTAIN] if wagon_on_mountains else 0)
    if piece == "ship":
        return board.tmask[WATER]
    if piece in ("warrior", "city_hall"):
        return board.buildable
    raise KeyError(piece)


def terrain_words(piece: str, wagon_on_mountains: bool = True) -> str:
    """What :func:`piece_terrain` allows, in words (``"a buildable or water hex"``)."""
    if piece == "settlement":
        return "a buildable or water hex"
    if piece == "wagon":
        return "a buildable or mountain hex" if wagon_on_mountains else "a buildable hex"
    if piece == "ship":
        return "a water hex"
    return "a buildable hex"


def city_hall_centre(mask: int) -> int | None:
    """The centre hex of a city hall covering exactly ``mask`` (a hex and its 6 neighbours,
    :func:`~.crossroads.city_hall_footprint`), or None if ``mask`` is no such shape."""
    centre = erode(mask)
    if centre.bit_count() != 1:
        return None
    h = centre.bit_length() - 1
    return h if city_hall_footprint(h) == mask else None

