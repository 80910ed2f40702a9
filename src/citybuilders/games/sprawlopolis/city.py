"""The block grid of a Sprawlopolis city and the placement rules.

Geometry (digest rules.md §1, §4): the city is a map from integer grid cells (row, col; rows grow
downward) to block codes (see :mod:`.cards`). A card placed with its top-left block at (R, C) fills
cells R..R+1 × C..C+1; the newest card is on top, covered blocks vanish (zone and road).

Internally a cell is one flat index ``(row + OFFSET) * WIDTH + (col + OFFSET)`` on a fixed
``WIDTH × WIDTH`` board. The first card of a game sits at user coordinates (0, 0); 14 further plays
extend the city by at most 2 blocks each, so user rows/cols stay in -28..29, well inside the board
(cells 3..60 of 0..63), and every neighbour index of an occupied cell is on the board.

Placement rule (rulebook "Regras de Colocação"; digest §4): a new card must share at least one
block edge with a block of the city or cover at least one block; touching only at a corner or
floating free is illegal. Equivalently, its top-left cell is one of the *candidate positions*
``q - d`` for an occupied cell ``q`` and ``d`` in :data:`CAND_OFFSETS`; :class:`City` keeps that set
up to date as cells get occupied (cells never become empty again).
"""

from __future__ import annotations

from .cards import card_blocks_fast

__all__ = [
    "WIDTH",
    "OFFSET",
    "NCELL",
    "RECT",
    "CAND_OFFSETS",
    "index_of",
    "rc_of",
    "City",
    "placement_problem",
]

WIDTH = 64
OFFSET = 31
NCELL = WIDTH * WIDTH
MIN_USER = 1 - OFFSET
MAX_USER = WIDTH - 3 - OFFSET
"""Range of user coordinates a card's top-left block may take (the card must fit on the board)."""

RECT = (0, 1, WIDTH, WIDTH + 1)
"""Flat offsets of a card's TL, TR, BL, BR blocks from its top-left cell."""
_EDGE_NEIGHBOURS = (-WIDTH, -WIDTH + 1, -1, WIDTH - 1, 2, WIDTH + 2, 2 * WIDTH, 2 * WIDTH + 1)
_CORNERS = (-WIDTH - 1, -WIDTH + 2, 2 * WIDTH - 1, 2 * WIDTH + 2)
CAND_OFFSETS = RECT + _EDGE_NEIGHBOURS
"""Offsets d such that a card at top-left p overlaps or edge-touches cell p + d."""


def index_of(row: int, col: int) -> int:
    """Flat cell index of user coordinates (row, col)."""
    return (row + OFFSET) * WIDTH + col + OFFSET


def rc_of(index: int) -> tuple[int, int]:
    """User coordinates (row, col) of a flat cell index."""
    r, c = divmod(index, WIDTH)
    return r - OFFSET, c - OFFSET


def placement_problem(cells: list[int], pos: int) -> str | None:
    """Why a card with top-left cell ``pos`` may not join the city in ``cells`` (None = legal).

    Returns ``"touches the city only at a corner"`` or ``"does not touch the city (it must share a
    block edge with it or cover a block)"``. An empty city accepts any position.
    """
    if not any(cells[pos + d] for d in CAND_OFFSETS):
        if any(cells):
            if any(cells[pos + d] for d in _CORNERS):
                return "touches the city only at a corner"
            return "does not touch the city (it must share a block edge with it or cover a block)"
    return None


class City:
    """A city under construction: cells, which placement owns each cell, the candidate positions.

    Attributes:
        cells: flat list of block codes (0 = empty), length :data:`NCELL`.
        owner: flat list: index in ``placements`` of the card visible at each cell (-1 = empty).
        occ: occupied cell indices in the order they were first filled.
        cand: set of legal top-left positions for the next card (see module docstring).
        placements: ``(card, pos, rot_index)`` in play order (rot_index 0 = 0°, 1 = 180°).
    """

    __slots__ = ("cells", "owner", "occ", "cand", "placements")

    def __init__(self) -> None:
        self.cells: list[int] = [0] * NCELL
        self.owner: list[int] = [-1] * NCELL
        self.occ: list[int] = []
        self.cand: set[int] = set()
        self.placements: list[tuple[int, int, int]] = []

    def copy(self) -> "City":
        """An independent copy (lists copied, no deepcopy)."""
        c = City.__new__(City)
        c.cells = self.cells.copy()
        c.owner = self.owner.copy()
        c.occ = self.occ.copy()
        c.cand = self.cand.copy()
        c.placements = self.placements.copy()
        return c

    def place(self, card: int, pos: int, rot_index: int) -> None:
        """Put ``card`` on top with its top-left block at ``pos`` (no legality check)."""
        k = len(self.placements)
        self.placements.append((card, pos, rot_index))
        cells, owner, cand = self.cells, self.owner, self.cand
        for d, code in zip(RECT, card_blocks_fast(card, rot_index)):
            i = pos + d
            if not cells[i]:
                self.occ.append(i)
                for e in CAND_OFFSETS:
                    cand.add(i - e)
            cells[i] = code
            owner[i] = k

    def buries_a_card(self, pos: int) -> bool:
        """True if a card at ``pos`` would hide every still-visible block of some earlier card.

        Used by the rules option ``cover_whole_card = "forbidden"`` (digest §8 A1).
        """
        owner = self.owner
        covered: dict[int, int] = {}
        for d in RECT:
            k = owner[pos + d]
            if k >= 0:
                covered[k] = covered.get(k, 0) + 1
        if not covered:
            return False
        visible: dict[int, int] = dict.fromkeys(covered, 0)
        for i in self.occ:
            k = owner[i]
            if k in visible:
                visible[k] += 1
        return any(visible[k] == n for k, n in covered.items())

    def bounds(self) -> tuple[int, int, int, int]:
        """(min_row, min_col, max_row, max_col) of the occupied cells in user coordinates."""
        rows = [i // WIDTH for i in self.occ]
        cols = [i % WIDTH for i in self.occ]
        return (min(rows) - OFFSET, min(cols) - OFFSET, max(rows) - OFFSET, max(cols) - OFFSET)
