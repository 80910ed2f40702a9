"""The block grid of a Sprawlopolis city and the placement rules.

Geometry (digest rules.md §1, §4): the city is a map from integer grid cells (row, col; rows grow
downward) to block codes (see :mod:`..loader`). A card placed with its top-left block at (R, C)
fills cells R..R+1 × C..C+1; the newest card is on top, covered blocks vanish (zone and road).
A cell is one flat index (:func:`..actions.index_of`, the cell numbering of the action ids).

Placement rule (rulebook "Regras de Colocação"; digest §4): a new card must share at least one
block edge with a block of the city or cover at least one block; touching only at a corner or
floating free is illegal. Equivalently, its top-left cell is one of the *candidate positions*
``q - d`` for an occupied cell ``q`` and ``d`` in :data:`CAND_OFFSETS`; :class:`City` keeps that set
up to date as cells get occupied (cells never become empty again).
"""

from __future__ import annotations

from array import array
from enum import IntEnum

from ....core.i18n import N_
from ..actions import NCELL, OFFSET, WIDTH
from ..loader import card_blocks_fast

__all__ = [
    "CITY_SIZE",
    "RECT",
    "CAND_OFFSETS",
    "Placement",
    "PLACEMENT_TEXT",
    "City",
    "placement_problem",
]

CITY_SIZE = 15
"""Cards in a finished city (the first card + 14 plays)."""

RECT = (0, 1, WIDTH, WIDTH + 1)
"""Flat offsets of a card's TL, TR, BL, BR blocks from its top-left cell."""
_EDGE_NEIGHBOURS = (-WIDTH, -WIDTH + 1, -1, WIDTH - 1, 2, WIDTH + 2, 2 * WIDTH, 2 * WIDTH + 1)
_CORNERS = (-WIDTH - 1, -WIDTH + 2, 2 * WIDTH - 1, 2 * WIDTH + 2)
CAND_OFFSETS = RECT + _EDGE_NEIGHBOURS
"""Offsets d such that a card at top-left p overlaps or edge-touches cell p + d."""
CANDIDATES_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(i - d for d in CAND_OFFSETS) for i in range(NCELL))
"""``CANDIDATES_OF[i]``: the top-left positions ``i - d`` (``d`` in :data:`CAND_OFFSETS`) that an
occupied cell ``i`` makes legal, in offset order (one ``set.update`` per new cell in
:meth:`City.place` instead of twelve ``set.add`` calls)."""


class Placement(IntEnum):
    """Verdict of :func:`placement_problem` on a card position."""

    LEGAL = 0
    CORNER_ONLY = 1
    """Touches the city only at a corner (rulebook: illegal; digest ``L03_corner_only``)."""
    DETACHED = 2
    """Neither shares a block edge with the city nor covers a block (digest ``L06_detached``)."""
    BURIES_A_CARD = 3
    """Hides every still-visible block of an earlier card, under ``cover_whole_card=forbidden``."""


PLACEMENT_TEXT = {
    Placement.CORNER_ONLY: N_("touches the city only at a corner"),
    Placement.DETACHED: N_("does not touch the city (it must share a block edge with it or "
                           "cover a block)"),
    Placement.BURIES_A_CARD: N_("covers every visible block of an earlier card "
                                "(cover_whole_card=forbidden)"),
}
"""How error messages state each problem (after "card N ..." / "illegal placement, ...")."""


def placement_problem(city: "City", pos: int, cover_whole_card: str = "allowed") -> Placement:
    """Whether a card with top-left cell ``pos`` may join ``city`` under the rules option
    ``cover_whole_card`` (``"allowed"`` / ``"forbidden"``); the one placement check shared by the
    game (explanations of illegal moves) and the score calculator.

    An empty city accepts any position. The game's move generator
    (:meth:`~.state.SprawlopolisState._positions`) is the fast form of the same rule
    (``city.cand``), checked against this function by a test.
    """
    cells = city.cells
    if not any(cells[pos + d] for d in CAND_OFFSETS):
        if any(cells):
            if any(cells[pos + d] for d in _CORNERS):
                return Placement.CORNER_ONLY
            return Placement.DETACHED
        return Placement.LEGAL
    if cover_whole_card == "forbidden" and city.buries_a_card(pos):
        return Placement.BURIES_A_CARD
    return Placement.LEGAL


_NO_OWNER = array("b", [-1]) * NCELL
"""A fresh city's ``owner`` (copied by ``array("b", _NO_OWNER)``)."""


class City:
    """A city under construction: cells, which placement owns each cell, the candidate positions.

    Attributes:
        cells: flat block codes (0 = empty), length :data:`NCELL`: a ``bytearray`` (every code is
            below 128), so the copy a search makes per determinization is one memory copy, not
            4096 references to count up and, when it is dropped, down again.
        owner: flat index in ``placements`` of the card visible at each cell (-1 = empty): an
            ``array("b")`` for the same reason (at most 15 cards).
        occ: occupied cell indices in the order they were first filled.
        cand: set of legal top-left positions for the next card (see module docstring).
        placements: ``(card, pos, rot_index)`` in play order (rot_index 0 = 0°, 1 = 180°).
    """

    __slots__ = ("cells", "owner", "occ", "cand", "placements")

    def __init__(self) -> None:
        self.cells: bytearray = bytearray(NCELL)
        self.owner: array[int] = array("b", _NO_OWNER)
        self.occ: list[int] = []
        self.cand: set[int] = set()
        self.placements: list[tuple[int, int, int]] = []

    def copy(self) -> "City":
        """An independent copy (lists copied, no deepcopy)."""
        c = City.__new__(City)
        c.cells = self.cells[:]
        c.owner = self.owner[:]
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
                cand.update(CANDIDATES_OF[i])
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
