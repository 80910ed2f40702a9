"""Kingdom Builder board: geometry on 400-hex bitsets and assembled boards (section data and
terrain ids come from :mod:`..loader` and are re-exported here).

Geometry (rules digest §2, boards.json ``coordinate_convention``): the assembled board is a
20×20 odd-r hex grid; hex index ``i = R * 20 + C`` (row ``R`` 0 on top, odd rows shifted half a
hex to the right). A set of hexes is an ``int`` with bit ``i`` set for hex ``i``.

Sections (data/sections.json, transcribed from the reference boards.json) are 10×10 and go into
quadrants 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right: ``R = r + 10 * (q // 2)``,
``C = c + 10 * (q % 2)``. A 180° rotation maps section ``(r, c)`` to ``(9 - r, 9 - c)``.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain
from typing import Any, Callable, Mapping, Sequence

from citybuilders.core.errors import FormatError
from citybuilders.core.grid import bits, hex_neighbor_masks, hex_neighbor_table

from ..actions import hex_index, hex_name, parse_hex
from ..loader import (
    CANYON,
    CARD_TERRAINS,
    CASTLE,
    DESERT,
    FLOWER_FIELD,
    FOREST,
    GRASS,
    LOCATION,
    MOUNTAIN,
    TERRAIN_CODES,
    TERRAINS,
    WATER,
    SectionCatalog,
    SectionData,
    all_section_ids,
    base_section_ids,
    section_data,
)
from ....core.i18n import N_

__all__ = [
    "SIZE",
    "NUM_HEXES",
    "FULL",
    "TERRAINS",
    "CARD_TERRAINS",
    "GRASS",
    "CANYON",
    "DESERT",
    "FLOWER_FIELD",
    "FOREST",
    "WATER",
    "MOUNTAIN",
    "CASTLE",
    "LOCATION",
    "TERRAIN_CODES",
    "NEIGHBORS",
    "NEIGHBOR_TABLE",
    "EDGE",
    "ROW_MASKS",
    "DIRECTIONS",
    "SectionData",
    "Board",
    "section_data",
    "base_section_ids",
    "all_section_ids",
    "make_board",
    "dilate",
    "shift",
    "SHIFTS",
    "beyond_lines_of_three",
    "two_steps",
    "hex_index",
    "hex_rc",
    "hex_name",
    "parse_hex",
    "bits",
]

SIZE = 20
NUM_HEXES = SIZE * SIZE
FULL = (1 << NUM_HEXES) - 1

_CODE_OF = {v: k for k, v in TERRAIN_CODES.items()}

NEIGHBORS: tuple[int, ...] = hex_neighbor_masks(SIZE, SIZE)
"""``NEIGHBORS[i]``: bitset of the on-board neighbours of hex ``i``."""
NEIGHBOR_TABLE: tuple[tuple[int, ...], ...] = hex_neighbor_table(SIZE, SIZE)


def _row_mask(r: int) -> int:
    return ((1 << SIZE) - 1) << (r * SIZE)


def _col_mask(c: int) -> int:
    return sum(1 << (r * SIZE + c) for r in range(SIZE))


ROW_MASKS: tuple[int, ...] = tuple(_row_mask(r) for r in range(SIZE))
"""``ROW_MASKS[R]``: the 20 hexes of global row ``R`` (a "horizontal line", Knights/Discoverers)."""
_COL0 = _col_mask(0)
_COL19 = _col_mask(SIZE - 1)
EDGE = ROW_MASKS[0] | ROW_MASKS[SIZE - 1] | _COL0 | _COL19
"""The 76 board-edge hexes (R or C is 0 or 19; Tower, digest §2)."""
_EVEN = sum(ROW_MASKS[r] for r in range(0, SIZE, 2))
_ODD = sum(ROW_MASKS[r] for r in range(1, SIZE, 2))
_NOT_L = FULL & ~_COL0
_NOT_R = FULL & ~_COL19
_EVEN_NOT_L = _EVEN & _NOT_L
_ODD_NOT_R = _ODD & _NOT_R

DIRECTIONS: tuple[str, ...] = ("E", "W", "NE", "NW", "SE", "SW")
"""The 6 straight-line directions (boards.json ``straight_line_directions``)."""


def dilate(mask: int) -> int:
    """Bitset of every hex adjacent to some hex of ``mask`` (odd-r; digest §2).

    Equals the union of ``NEIGHBORS[i]`` over the set bits ``i`` (a hex of ``mask`` is included
    only if it neighbours another hex of ``mask``).
    """
    out = ((mask & _NOT_R) << 1) | ((mask & _NOT_L) >> 1) | (mask << 20) | (mask >> 20)
    e = mask & _EVEN_NOT_L
    o = mask & _ODD_NOT_R
    out |= (e >> 21) | (e << 19) | (o >> 19) | (o << 21)
    return out & FULL


def _shift_e(mask: int) -> int:
    return (mask & _NOT_R) << 1


def _shift_w(mask: int) -> int:
    return (mask & _NOT_L) >> 1


def _shift_ne(mask: int) -> int:
    return ((mask & _EVEN) >> 20) | ((mask & _ODD & _NOT_R) >> 19)


def _shift_nw(mask: int) -> int:
    return ((mask & _EVEN & _NOT_L) >> 21) | ((mask & _ODD) >> 20)


def _shift_se(mask: int) -> int:
    return (((mask & _EVEN) << 20) | ((mask & _ODD & _NOT_R) << 21)) & FULL


def _shift_sw(mask: int) -> int:
    return (((mask & _EVEN & _NOT_L) << 19) | ((mask & _ODD) << 20)) & FULL


SHIFTS: dict[str, Callable[[int], int]] = {
    "E": _shift_e, "W": _shift_w, "NE": _shift_ne, "NW": _shift_nw, "SE": _shift_se,
    "SW": _shift_sw,
}
"""``SHIFTS[d](mask) == shift(mask, d)``: one function per direction, for the loops over the six
directions on hot paths (Tavern lines, the >= 1 / >= 2 neighbour masks), which then skip
:func:`shift`'s comparison chain."""


def shift(mask: int, direction: str) -> int:
    """Move every hex of ``mask`` one step in ``direction`` (one of :data:`DIRECTIONS`);
    hexes that would leave the board are dropped (ValueError for another direction).

    From an even row NW=(-1,-1), NE=(-1,0), SW=(+1,-1), SE=(+1,0); from an odd row NW=(-1,0),
    NE=(-1,+1), SW=(+1,0), SE=(+1,+1) (boards.json ``straight_line_directions``).
    """
    f = SHIFTS.get(direction)
    if f is None:
        raise ValueError(f"unknown direction {direction!r}")
    return f(mask)


_NOT_L2 = _NOT_L & ~_col_mask(1)
_NOT_R2 = _NOT_R & ~_col_mask(SIZE - 2)


def two_steps(mask: int) -> tuple[int, int, int, int, int, int]:
    """``mask`` moved 2 steps in a straight line, per direction in :data:`DIRECTIONS` order
    (E, W, NE, NW, SE, SW), hexes leaving the board dropped: ``shift(shift(mask, d), d)`` as one
    shift each (two diagonal steps are 2 rows and 1 column whatever the row's parity)."""
    r, l = mask & _NOT_R, mask & _NOT_L
    return ((mask & _NOT_R2) << 2, (mask & _NOT_L2) >> 2, r >> 39, l >> 41,
            (r << 41) & FULL, (l << 39) & FULL)


def beyond_lines_of_three(mask: int) -> int:
    """The hexes directly beyond either end of a straight line of >= 3 consecutive hexes of
    ``mask`` along any of the 3 axes, on the board (Tavern, digest §6).

    Equal to the six-direction walk ``step(step(mask) & mask) & mask`` then one more ``step``
    (tests/kingdom_builder/test_fast_masks.py) with fewer big-int operations: two steps along
    a diagonal are a plain shift whatever the row's parity (NE twice = 2 rows up and 1 column
    right), a line's far end is its near end shifted three steps back (two plain steps and one
    parity step, the masks shifted instead of the ends), one row up is a plain shift whose row
    parity flips, and the NE and NW ends' steps one row up share their plain shift."""
    nr = mask & _NOT_R
    # E/W: b = hexes with their 2 west neighbours in mask (the east end of a line; a has no
    # hex in column 0, so ``a << 1`` needs no wrap mask)
    a = mask & (nr << 1)
    b = a & (a << 1)
    out = ((b & _NOT_R) << 1) | ((b & _NOT_L_2) >> 3)
    up = mask >> 20  # each hex's neighbour straight below (same column, next row), moved up
    # NE/SW: ne = hexes with the 2 hexes SW of them in mask (the NE end); SW twice = (+2, -1)
    ne = mask & ((up & _ODD) | ((mask & _ODD_NOT_R) >> 19)) & (nr >> 39)
    # NW/SE: nw = hexes with the 2 hexes SE of them in mask (the NW end); SE twice = (+2, +1)
    nw = mask & (((mask & _EVEN_NOT_L) >> 21) | (up & _EVEN)) & ((mask & _NOT_L) >> 41)
    out |= ((((ne & _EVEN) | (nw & _ODD)) >> 20) | ((ne & _ODD_NOT_R) >> 19)
            | ((nw & _EVEN_NOT_L) >> 21)
            | ((ne & _SW3_EVEN) << 58) | ((ne & _SW3_ODD) << 59)  # 3 steps SW of the NE end
            | ((nw & _SE3_EVEN) << 61) | ((nw & _SE3_ODD) << 62))  # 3 steps SE of the NW end
    return out & FULL


_NOT_L_2 = _NOT_L << 2
"""Hexes whose column minus 2 is not 0 (for ``b >> 2`` then ``& _NOT_L`` as one mask)."""
_SW3_EVEN, _SW3_ODD = _EVEN_NOT_L >> 39, _ODD >> 39
"""The SW step's masks moved back two SW steps (applied to a NE end before the 3-step shift)."""
_SE3_EVEN, _SE3_ODD = _EVEN >> 41, _ODD_NOT_R >> 41
"""The SE step's masks moved back two SE steps."""


def step(i: int, direction: str) -> int | None:
    """The hex one step from hex ``i`` in ``direction``, or None off the board."""
    m = shift(1 << i, direction)
    return m.bit_length() - 1 if m else None


def hex_rc(i: int) -> tuple[int, int]:
    """``(row, col)`` of hex index ``i``."""
    return divmod(i, SIZE)


# --------------------------------------------------------------------------- assembled board
class Board:
    """An assembled 20×20 board (immutable; shared by every state of a game).

    Attributes:
        sections: ((section_id, rotation), ...) for quadrants TL, TR, BL, BR.
        terrain: tuple of 400 terrain ids.
        tmask: bitset per terrain id (``tmask[GRASS]`` ...).
        buildable: the 5 buildable terrains.
        special: castle and location hexes.
        locations: ((hex, kind), ...) location hexes in index order; ``loc_nbr[k]`` their
            neighbour bitsets; ``hex_locs[i]`` the location ids adjacent to hex ``i``.
        castles: castle hex indices; ``castle_nbr`` their neighbour bitsets.
        sector_masks: the 4 quadrants (Lords/Farmers "sectors").
    """

    __slots__ = (
        "sections", "terrain", "tmask", "buildable", "special", "locations", "loc_nbr",
        "hex_locs", "castles", "castle_nbr", "sector_masks", "tiles_per_location",
        "location_mask", "castle_mask", "catalog", "key",
    )

    def __init__(self, sections: Sequence[tuple[str, int]],
                 catalog: SectionCatalog | None = None) -> None:
        data: Mapping[str, SectionData] = section_data() if catalog is None else catalog
        tmask = [0] * len(TERRAINS)
        locs: list[tuple[int, str]] = []
        castles: list[int] = []
        tiles_per: list[int] = []
        quadrant_rows = []
        for q, (sid, rot) in enumerate(sections):
            # the shipped sections' quadrants are cached (a new game's board is mostly a new
            # combination of them); a custom catalog's are placed afresh
            part = (_shipped_quadrant(sid, rot, q) if catalog is None
                    else _place_quadrant(data[sid], _rotate(data[sid].terrain, rot), rot, q))
            rows, masks, q_locs, q_castles = part
            quadrant_rows.append(rows)
            for t, m in enumerate(masks):
                tmask[t] |= m
            locs += q_locs
            tiles_per += [data[sid].tiles_per_location] * len(q_locs)
            castles += q_castles
        # board row r = row r of the left quadrant + row r of the right one (TL|TR, then BL|BR)
        flat = chain.from_iterable
        terrain = tuple(chain(flat(flat(zip(quadrant_rows[0], quadrant_rows[1]))),
                              flat(flat(zip(quadrant_rows[2], quadrant_rows[3])))))
        order = sorted(range(len(locs)), key=lambda k: locs[k][0])
        self.sections = tuple((s, int(r)) for s, r in sections)
        self.catalog = catalog
        self.key: Any = self.sections if catalog is None else (self.sections, catalog.key)
        self.terrain = terrain
        self.tmask = tmask
        self.buildable = sum(self.tmask[t] for t in range(5))
        self.special = self.tmask[CASTLE] | self.tmask[LOCATION]
        self.location_mask = self.tmask[LOCATION]
        self.castle_mask = self.tmask[CASTLE]
        self.locations = tuple(locs[k] for k in order)
        self.tiles_per_location = tuple(tiles_per[k] for k in order)
        self.loc_nbr = tuple(NEIGHBORS[h] for h, _ in self.locations)
        hex_locs: list[tuple[int, ...]] = [()] * NUM_HEXES
        for k, (h, _) in enumerate(self.locations):
            for i in NEIGHBOR_LISTS[h]:  # = bits(self.loc_nbr[k])
                hex_locs[i] = hex_locs[i] + (k,)
        self.hex_locs = tuple(hex_locs)
        self.castles = tuple(sorted(castles))
        self.castle_nbr = tuple(NEIGHBORS[h] for h in self.castles)
        self.sector_masks = _SECTORS

    def terrain_name(self, i: int) -> str:
        """Terrain name of hex ``i`` (``"grass"`` ... ``"location"``)."""
        return TERRAINS[self.terrain[i]]

    def location_kind_at(self, i: int) -> str | None:
        """Kind id of the location on hex ``i``, or None."""
        for h, kind in self.locations:
            if h == i:
                return kind
        return None

    def code_rows(self) -> list[str]:
        """The 20 rows as terrain-code strings (G C D F T W M K L)."""
        return [
            "".join(_CODE_OF[self.terrain[r * SIZE + c]] for c in range(SIZE))
            for r in range(SIZE)
        ]


_QUADRANT_OFFSETS = tuple(10 * (q // 2) * SIZE + 10 * (q % 2) for q in range(4))
"""Flat index of each quadrant's top-left hex (TL, TR, BL, BR)."""
NEIGHBOR_LISTS: tuple[tuple[int, ...], ...] = tuple(tuple(bits(m)) for m in NEIGHBORS)
"""``NEIGHBOR_LISTS[i] == tuple(bits(NEIGHBORS[i]))``: hex ``i``'s neighbours, ascending."""

_Quadrant = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], list[tuple[int, str]], list[int]]


def _place_quadrant(sec: SectionData, rows: tuple[tuple[int, ...], ...], rot: int,
                    q: int) -> _Quadrant:
    """One section in quadrant ``q`` of the board: ``(rows, tmask, locations, castles)``: its
    rotated terrain rows, the bitset of each terrain id over the whole board (0 outside the
    quadrant), its ``(hex, kind)`` locations and castle hexes in the section's order."""
    off = _QUADRANT_OFFSETS[q]
    masks = [0] * len(TERRAINS)
    for r in range(10):
        base = off + r * SIZE
        for c, t in enumerate(rows[r]):
            masks[t] |= 1 << (base + c)
    locs = []
    for r, c, kind in sec.locations:
        gr, gc = (9 - r, 9 - c) if rot == 180 else (r, c)
        locs.append((off + gr * SIZE + gc, kind))
    castles = []
    for r, c in sec.castles:
        gr, gc = (9 - r, 9 - c) if rot == 180 else (r, c)
        castles.append(off + gr * SIZE + gc)
    return rows, tuple(masks), locs, castles


@lru_cache(maxsize=None)
def _shipped_quadrant(sid: str, rot: int, q: int) -> _Quadrant:
    """:func:`_place_quadrant` of a shipped section, cached (the caller copies the lists)."""
    return _place_quadrant(section_data()[sid], _rotated_rows(sid, rot), rot, q)


@lru_cache(maxsize=None)
def _rotated_rows(sid: str, rot: int) -> tuple[tuple[int, ...], ...]:
    return _rotate(section_data()[sid].terrain, rot)


def _rotate(rows: tuple[tuple[int, ...], ...], rot: int) -> tuple[tuple[int, ...], ...]:
    if rot == 180:
        return tuple(tuple(reversed(row)) for row in reversed(rows))
    return rows


_SECTORS: tuple[int, ...] = tuple(
    sum(1 << ((r + 10 * (q // 2)) * SIZE + c + 10 * (q % 2)) for r in range(10) for c in range(10))
    for q in range(4)
)


@lru_cache(maxsize=4096)
def make_board(sections: tuple[tuple[str, int], ...],
               catalog: SectionCatalog | None = None) -> Board:
    """The (cached) board assembled from 4 ``(section_id, rotation)`` pairs, taken from the
    shipped sections or from ``catalog`` (shipped + a custom sections document, option
    ``sections_doc``).

    Raises FormatError for an unknown section id or a rotation other than 0/180.
    """
    data: Mapping[str, SectionData] = section_data() if catalog is None else catalog
    if len(sections) != 4:
        raise FormatError(N_("sections: need exactly 4 sections, got {count}", count=len(sections)))
    for sid, rot in sections:
        if sid not in data:
            raise FormatError(N_("sections: unknown section {sid!r}; allowed: {allowed}",
                                 sid=sid, allowed=', '.join(data)))
        if rot not in (0, 180):
            raise FormatError(N_("sections: rotation of {sid} must be 0 or 180, got {rot!r}",
                                 sid=sid, rot=rot))
    return Board(sections, catalog)
