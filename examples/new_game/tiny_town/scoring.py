"""Tiny Town scoring: one small unit per category (category -> points of one player)."""

from __future__ import annotations

from typing import Callable, Sequence

__all__ = ["CATEGORIES", "score_player"]


def buildings(built: Sequence[int], sixes: int, bonus: bool) -> int:
    """Each built card scores its value."""
    return sum(built)


def dice(built: Sequence[int], sixes: int, bonus: bool) -> int:
    """Each roll of the scoring face scores 1 (2 with the ``bonus`` option)."""
    return sixes * (2 if bonus else 1)


CATEGORIES: dict[str, Callable[[Sequence[int], int, bool], int]] = {
    "buildings": buildings,
    "dice": dice,
}


def score_player(built: Sequence[int], sixes: int, bonus: bool) -> dict[str, int]:
    """Category -> points."""
    return {name: fn(built, sixes, bonus) for name, fn in CATEGORIES.items()}
