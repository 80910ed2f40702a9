"""Grid geometry shared by the games: odd-r offset hex grids and square grids.

Hex convention (Kingdom Builder, rules digest §2): rows ``r`` top to bottom, columns ``c``;
odd rows are shifted half a hex to the right. A cell's index in a ``width``-wide grid is
``r * width + c``; boards are integer bitsets over these indices.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = [
    "hex_neighbors",
    "hex_neighbor_table",
    "hex_neighbor_masks",
    "square_neighbors",
    "bits",
    "popcount",
    "components",
]

_EVEN = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0))
_ODD = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1))


def hex_neighbors(r: int, c: int, height: int, width: int) -> list[tuple[int, int]]:
    """On-board neighbours of hex ``(r, c)`` in an odd-r grid of ``height`` x ``width``."""
    out = []
    for dr, dc in (_ODD if r & 1 else _EVEN):
        rr, cc = r + dr, c + dc
        if 0 <= rr < height and 0 <= cc < width:
            out.append((rr, cc))
    return out


@lru_cache(maxsize=None)
def hex_neighbor_table(height: int, width: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index, the tuple of neighbour cell indices (odd-r)."""
    return tuple(
        tuple(rr * width + cc for rr, cc in hex_neighbors(i // width, i % width, height, width))
        for i in range(height * width)
    )


@lru_cache(maxsize=None)
def hex_neighbor_masks(height: int, width: int) -> tuple[int, ...]:
    """For each cell index, the bitset of its neighbours (odd-r)."""
    return tuple(sum(1 << j for j in nb) for nb in hex_neighbor_table(height, width))


def square_neighbors(
    r: int, c: int, height: int, width: int, diagonal: bool = False
) -> list[tuple[int, int]]:
    """On-board orthogonal (and optionally diagonal) neighbours of square ``(r, c)``."""
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if diagonal:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    return [
        (r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < height and 0 <= c + dc < width
    ]


def bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def popcount(mask: int) -> int:
    """Number of set bits."""
    return mask.bit_count()


def components(mask: int, neighbor_masks: tuple[int, ...]) -> list[int]:
    """Connected components of the cells in ``mask`` as bitsets (flood fill over bitsets)."""
    out = []
    while mask:
        seed = mask & -mask
        comp = seed
        frontier = seed
        while frontier:
            grow = 0
            f = frontier
            while f:
                low = f & -f
                grow |= neighbor_masks[low.bit_length() - 1]
                f ^= low
            frontier = grow & mask & ~comp
            comp |= frontier
        out.append(comp)
        mask &= ~comp
    return out
