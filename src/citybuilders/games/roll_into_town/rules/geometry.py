"""Roll into Town map geometry: neighbour tables of a square map, and bitset helpers.

Coordinates: a square map of ``rows`` x ``cols`` cells, ``(row, col)`` with row 0 at the top
(rules_proposal ``map.grid``); cell index ``i = row * cols + col``. Sides are numbered
0 = N, 1 = E, 2 = S, 3 = W (bit masks in ``loader``: N=1, E=2, S=4, W=8). Cell sets are int
bitsets (bit ``i`` = cell ``i``).
"""

from __future__ import annotations

from functools import lru_cache

from ..loader import BUILD_KINDS, RIVER_SHAPES

__all__ = ["Geometry", "geometry", "bits"]


class Geometry:
    """Neighbour tables of a ``rows`` x ``cols`` square map.

    ``side_nb[i][s]``: neighbour index on side s, or -1 off the map. ``nb4[i]``/``nb8[i]``:
    tuples of on-map neighbours (sides / sides and corners); ``m4``/``m8``: the same as bitsets.
    """

    __slots__ = ("rows", "cols", "n", "side_nb", "nb4", "nb8", "m4", "m8", "border", "hall",
                 "all_mask", "river_starts", "not_first_col", "not_last_col", "anchor_ok",
                 "river_start_mask")

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols, self.n = rows, cols, rows * cols
        steps = ((-1, 0), (0, 1), (1, 0), (0, -1))
        side_nb = []
        nb8 = []
        for i in range(self.n):
            r, c = divmod(i, cols)
            side_nb.append(tuple(
                (r + dr) * cols + c + dc if 0 <= r + dr < rows and 0 <= c + dc < cols else -1
                for dr, dc in steps))
            nb8.append(tuple(
                (r + dr) * cols + c + dc
                for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols))
        self.side_nb = tuple(side_nb)
        self.nb4 = tuple(tuple(j for j in t if j >= 0) for t in side_nb)
        self.nb8 = tuple(nb8)
        self.m4 = tuple(sum(1 << j for j in t) for t in self.nb4)
        self.m8 = tuple(sum(1 << j for j in t) for t in self.nb8)
        self.border = sum(1 << i for i in range(self.n) if -1 in side_nb[i])
        self.hall = (rows // 2) * cols + cols // 2
        self.all_mask = (1 << self.n) - 1
        # column masks for whole-map shifts (see :meth:`spread4`)
        self.not_first_col = sum(1 << i for i in range(self.n) if i % cols)
        self.not_last_col = sum(1 << i for i in range(self.n) if i % cols != cols - 1)
        # anchor_ok[kind]: anchors whose whole shape lies on the map (bitset)
        anchor_ok = []
        for _, shape in BUILD_KINDS:
            h = max(dr for dr, _, _ in shape) + 1
            w = max(dc for _, dc, _ in shape) + 1
            anchor_ok.append(sum(1 << i for i in range(self.n)
                                 if i // cols + h <= rows and i % cols + w <= cols))
        self.anchor_ok = tuple(anchor_ok)
        # river_start_mask[k]: cells where RIVER_SHAPES[k] may be the first river piece
        self.river_start_mask = tuple(
            sum(1 << i for i in range(self.n)
                if any(shape >> s & 1 and side_nb[i][s] < 0 for s in range(4)))
            for shape in RIVER_SHAPES)
        # first river pieces: (cell, shape) with a flow side off the map, shape-major order
        self.river_starts = tuple(
            (i, shape) for shape in RIVER_SHAPES for i in range(self.n)
            if any(shape >> s & 1 and side_nb[i][s] < 0 for s in range(4)))

    def spread4(self, mask: int) -> int:
        """Cells sharing a side with a cell of ``mask`` (bitset in, bitset out; may include
        cells of ``mask`` itself). Whole-map shifts, no per-cell loop."""
        cols = self.cols
        return (((mask << 1) & self.not_first_col) | ((mask >> 1) & self.not_last_col)
                | (mask << cols) | (mask >> cols)) & self.all_mask


@lru_cache(maxsize=None)
def geometry(rows: int, cols: int) -> Geometry:
    """Cached :class:`Geometry` of a map size."""
    return Geometry(rows, cols)


_BYTE_BITS = tuple(tuple(o for o in range(8) if b >> o & 1) for b in range(256))
_BIT_TABLE: list[tuple[tuple[int, ...], ...]] = []


def bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, ascending: lowest bit by lowest bit when there are
    few (a cell's neighbours, the ocean check's work list), else by byte-table lookup."""
    out: list[int] = []
    if mask.bit_count() <= 4:
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    table = _BIT_TABLE
    k = 0
    while mask:
        b = mask & 0xFF
        if b:
            while k >= len(table):
                base = len(table) * 8
                table.append(tuple(tuple(base + o for o in t) for t in _BYTE_BITS))
            out += table[k][b]
        mask >>= 8
        k += 1
    return out


def nth_bit(mask: int, r: int) -> int:
    """``bits(mask)[r]`` (``0 <= r < mask.bit_count()``) without building the list: whole
    32-bit words are skipped by their bit counts, then a half word and a byte are chosen the
    same way and the bit read from the byte table (random play picks one cell of a part:
    ``rules/playout.py``, :meth:`sample_action` of the state)."""
    k = 0
    while True:
        w = mask & 0xFFFFFFFF
        c = w.bit_count()
        if r < c:
            break
        r -= c
        mask >>= 32
        k += 32
    h = w & 0xFFFF
    c = h.bit_count()
    if r >= c:
        r -= c
        h = w >> 16
        k += 16
    b = h & 0xFF
    c = b.bit_count()
    if r < c:
        return k + _BYTE_BITS[b][r]
    return k + 8 + _BYTE_BITS[h >> 8][r - c]
