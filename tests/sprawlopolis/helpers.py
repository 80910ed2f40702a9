"""Shared helpers for the Sprawlopolis tests."""

from __future__ import annotations

from citybuilders.games.sprawlopolis.scorefile import grid_cells
from citybuilders.games.sprawlopolis.scoring import CONDITIONS, Analysis, Breakdown, Rules, score_city


def analysis(rows: list[str], rules: Rules | None = None) -> Analysis:
    """Analysis of a grid given as block-token rows."""
    cells, occ = grid_cells(rows)
    return Analysis(cells, occ, rules or Rules())


def cond(n: int, rows: list[str], rules: Rules | None = None) -> int:
    """Points of condition ``n`` for the grid ``rows``."""
    return CONDITIONS[n][1](analysis(rows, rules))


def score(rows: list[str], conditions: tuple[int, ...] = (1, 2, 3), rules: Rules | None = None) -> Breakdown:
    """Full breakdown of a grid."""
    cells, occ = grid_cells(rows)
    return score_city(cells, occ, conditions, rules or Rules())
