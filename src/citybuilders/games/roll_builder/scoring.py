"""Roll Builder end-of-game scoring (rulebook "Fim de Jogo e Pontuação"): one unit per category.

:data:`CATEGORIES` maps each category to a small function of a finished sheet
``(sheet, drawn) -> points``, where ``drawn`` is a :class:`Drawn` (the scoring-relevant facts):

* ``buildings`` — 1 point per building mark written (several marks each score);
* ``roads`` — points printed on spaces connected to the roads (touching even a corner);
* ``innovations`` — printed points of discovered innovations;
* ``resources`` — stored wealth // 2 + the leftmost uncrossed number of the favor and strength
  tracks (digest: with ``c`` spaces crossed the number is ``track[c]``);
* ``wonder`` — 1 point per filled box;
* ``bonuses`` — wonder bonus points, wing-completion points, full-hexagon bonus points and
  end-of-game innovation bonuses (digest §4.1 rule 11).
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Sequence

from .loader import Sheet

__all__ = ["CATEGORIES", "Drawn", "score_sheet"]


class Drawn(NamedTuple):
    """What scores on a sheet: ``connected``/``discovered``/``filled`` bitsets over spaces /
    innovations / wonder boxes; ``bcount[n]`` marks of building ``n`` (index 1-6);
    ``wealth_stored``; ``favor``/``strength`` spaces crossed on each track; ``hex_uses`` full
    hexagons rewarded (at most the sheet's maximum)."""

    connected: int
    bcount: Sequence[int]
    discovered: int
    wealth_stored: int
    favor: int
    strength: int
    filled: int
    hex_uses: int


def _buildings(sheet: Sheet, d: Drawn) -> int:
    return sum(d.bcount)


def _roads(sheet: Sheet, d: Drawn) -> int:
    roads = 0
    m = d.connected
    pts = sheet.space_points
    while m:
        low = m & -m
        roads += pts[low.bit_length() - 1]
        m ^= low
    return roads


def _innovations(sheet: Sheet, d: Drawn) -> int:
    pts = 0
    discovered = d.discovered
    for i, inn in enumerate(sheet.innovations):
        if discovered >> i & 1:
            pts += inn.points
    return pts


def _resources(sheet: Sheet, d: Drawn) -> int:
    fav_t, str_t = sheet.tracks
    return d.wealth_stored // 2 + fav_t[min(d.favor, len(fav_t) - 1)] + str_t[
        min(d.strength, len(str_t) - 1)]


def _wonder(sheet: Sheet, d: Drawn) -> int:
    return d.filled.bit_count()


def _bonuses(sheet: Sheet, d: Drawn) -> int:
    bonus = d.hex_uses * sheet.hex_points
    discovered = d.discovered
    if discovered:
        for i, inn in enumerate(sheet.innovations):
            if discovered >> i & 1:
                for e in inn.effects:
                    if e["type"] == "end_bonus_points_per_building":
                        bonus += e.get("points", 1) * d.bcount[e["building"]]
    filled = d.filled
    if filled:
        for i, b in enumerate(sheet.boxes):
            if filled >> i & 1:
                bonus += b.bonus_points
    for mask in sheet.wings.values():
        if filled & mask == mask:
            bonus += sheet.wing_bonus
    return bonus


CATEGORIES: dict[str, Callable[[Sheet, Drawn], int]] = {
    "buildings": _buildings,
    "roads": _roads,
    "innovations": _innovations,
    "resources": _resources,
    "wonder": _wonder,
    "bonuses": _bonuses,
}
"""Score category -> its unit (in the order of the score breakdown)."""


def score_sheet(
    sheet: Sheet,
    connected: int,
    bcount: list[int] | tuple[int, ...],
    discovered: int,
    wealth_stored: int,
    favor: int,
    strength: int,
    filled: int,
    hex_uses: int,
) -> dict[str, int]:
    """Points per category (keys of :data:`CATEGORIES`, in order) of one sheet (fields of
    :class:`Drawn`)."""
    d = _new_drawn(Drawn, (connected, bcount, discovered, wealth_stored, favor, strength, filled,
                           hex_uses))  # = Drawn(...), without the generated __new__'s call
    return {name: unit(sheet, d) for name, unit in _UNITS}


_UNITS = tuple(CATEGORIES.items())
_new_drawn = tuple.__new__
