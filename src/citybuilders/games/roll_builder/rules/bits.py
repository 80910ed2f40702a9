"""Bitset helpers of the Roll Builder engine (bitsets are Python ints over spaces, edges, circles)."""

from __future__ import annotations

__all__ = ["bit_indices", "nth_bit"]

_BYTE_BITS = tuple(tuple(k for k in range(8) if b >> k & 1) for b in range(256))
_BYTE_TABLE: list[tuple[tuple[int, ...], ...]] = []


def bit_indices(mask: int, nbytes: int) -> list[int]:
    """Ascending indices of the set bits of ``mask`` (``0 <= mask < 256**nbytes``), one table
    look-up per non-zero byte (faster than peeling bits off a long int one by one)."""
    table = _BYTE_TABLE
    while len(table) < nbytes:
        j = len(table)
        table.append(tuple(tuple(8 * j + k for k in bits) for bits in _BYTE_BITS))
    out: list[int] = []
    j = 0
    for byte in mask.to_bytes(nbytes, "little"):
        if byte:
            out.extend(table[j][byte])
        j += 1
    return out



def nth_bit(mask: int, r: int, count: int) -> int:
    """Index of the ``r``-th lowest set bit of ``mask`` (``bit_indices(...)[r]``), ``count`` =
    ``mask.bit_count()`` and ``0 <= r < count``: the bits below (or above) it are cleared one by
    one from the nearer end (a random pick among a player's roads clears ~1/4 of them)."""
    if r + r < count:
        for _ in range(r):
            mask &= mask - 1
        return (mask & -mask).bit_length() - 1
    for _ in range(count - 1 - r):
        mask ^= 1 << (mask.bit_length() - 1)
    return mask.bit_length() - 1
