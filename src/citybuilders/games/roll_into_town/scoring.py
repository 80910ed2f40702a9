"""Roll into Town scoring (rulebook scoring): one small function per scoring category, in the
table :data:`CATEGORIES` (category -> ``f(sheet, river_rule) -> points``), and the solo rank.

``sheet`` is a ``rules.Sheet`` (terrain and building code lists, the river in flow order);
``river_rule`` is the ``river_connect_rule`` option. The table order is the order of the
score breakdown (``PlayerScore.parts``, the score calculator's rows).
"""

from __future__ import annotations

from typing import Any, Callable

from .loader import (B_CATHEDRAL, B_HOUSE, B_LIGHT_TOP, B_TAVERN, CATHEDRAL_POINTS, COAST,
                     HOUSE_POINTS, OCEAN, SOLO_RANKS)

__all__ = ["CATEGORIES", "score_parts", "solo_rank", "houses", "taverns", "river", "coast",
           "lighthouse", "cathedral"]


def houses(sheet: Any, river_rule: str) -> int:
    """House: 2 points each."""
    return HOUSE_POINTS * sheet.bld.count(B_HOUSE)


def taverns(sheet: Any, river_rule: str) -> int:
    """Tavern: 1 point per house in the 8-neighbourhood of at least one tavern (at most 8 per
    tavern; that cap equals the neighbour count, so counting houses beside any tavern is the
    best assignment of houses to taverns)."""
    bld = sheet.bld
    if B_TAVERN not in bld:
        return 0
    nb8 = sheet.geo.nb8
    pts = 0
    for i, b in enumerate(bld):
        if b == B_HOUSE and any(bld[j] == B_TAVERN for j in nb8[i]):
            pts += 1
    return pts


def river(sheet: Any, river_rule: str) -> int:
    """River: 1 point per square, 2 once the river joins opposite map edges."""
    return len(sheet.river) * (2 if sheet.river_connects(river_rule) else 1)


def coast(sheet: Any, river_rule: str) -> int:
    """Coast: 1 point per coast square."""
    return sheet.terrain.count(COAST)


def lighthouse(sheet: Any, river_rule: str) -> int:
    """Lighthouse: 1 point per coast and ocean square of the map."""
    terrain = sheet.terrain
    return terrain.count(COAST) + terrain.count(OCEAN) if B_LIGHT_TOP in sheet.bld else 0


def cathedral(sheet: Any, river_rule: str) -> int:
    """Cathedral: 10 points."""
    return CATHEDRAL_POINTS if B_CATHEDRAL in sheet.bld else 0


CATEGORIES: dict[str, Callable[[Any, str], int]] = {
    "houses": houses,
    "taverns": taverns,
    "river": river,
    "coast": coast,
    "lighthouse": lighthouse,
    "cathedral": cathedral,
}


_ITEMS = tuple(CATEGORIES.items())


def score_parts(sheet: Any, river_rule: str) -> dict[str, int]:
    """Points by category (the keys and order of :data:`CATEGORIES`)."""
    out = {}
    for name, f in _ITEMS:
        out[name] = f(sheet, river_rule)
    return out


def solo_rank(total: int) -> str:
    """The rulebook's solo rank id for a score (``"failed mayor"`` ... ``"legendary mayor"``)."""
    for lo, hi, rank in SOLO_RANKS:
        if lo <= total <= hi:
            return rank
    raise AssertionError("solo ranks do not cover every score")  # pragma: no cover
