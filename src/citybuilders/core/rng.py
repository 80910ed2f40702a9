"""Deterministic random number generators.

All randomness goes through :class:`random.Random` instances made here so that a seed gives the
same game on every machine (CPython's Mersenne Twister with integer/str seeding is stable).
"""

from __future__ import annotations

import hashlib
import random
import secrets

__all__ = ["make_rng", "derive_seed", "fresh_seed"]


def derive_seed(seed: int, *labels: object) -> int:
    """A 63-bit seed derived from ``seed`` and labels (e.g. ``derive_seed(7, "chance")``)."""
    text = ":".join([str(seed), *map(str, labels)]).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def make_rng(seed: int, *labels: object) -> random.Random:
    """A ``random.Random`` seeded from ``seed`` and labels."""
    return random.Random(derive_seed(seed, *labels) if labels else seed)


def fresh_seed() -> int:
    """An unpredictable seed (for live games whose future draws must stay secret)."""
    return secrets.randbits(62)
