"""Roll Builder effects: what an innovation, a special ability or a bonus does to a player's sheet.

The effect vocabulary is the sheet format's (loader.EFFECT_TYPES; docs/formats.md); innovation
effects apply when the innovation is discovered, special-ability effects from the start.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..loader import Sheet
from .player_sheet import PlayerSheet

__all__ = ["apply_effect", "gain", "grant_bonus", "add_gains"]


def add_gains(a: tuple[int, ...] | None, b: tuple[int, ...]) -> tuple[int, ...]:
    """``a + b`` per resource (``a`` None = nothing yet)."""
    return b if a is None else tuple(x + y for x, y in zip(a, b))


def apply_effect(sh: Sheet, p: PlayerSheet, e: Mapping[str, Any]) -> None:
    """Apply innovation/special effect ``e`` (a validated effect dict) to ``p`` (sheet ``sh``)."""
    t = e["type"]
    if t == "roads_allowed_on_river_edges":
        p.blocked &= ~sh.river_block
    elif t == "roads_allowed_on_ridges":
        p.blocked &= ~sh.ridge_edges
    elif t == "extra_roads_on_first_road_action_each_turn":
        p.first_road_extra += e.get("amount", 1)
    elif t == "on_mark_space_adjacent_to_water_space":
        p.gain_on_water_mark = add_gains(p.gain_on_water_mark, e["gain"])
    elif t == "on_mark_mountain_space":
        p.gain_on_mountain_mark = add_gains(p.gain_on_mountain_mark, e["gain"])
    elif t == "on_build_action":
        p.gain_on_build = add_gains(p.gain_on_build, e["gain"])
    elif t == "on_wonder_box_filled":
        p.gain_on_box = add_gains(p.gain_on_box, e["gain"])
    elif t == "road_toll":
        p.road_toll = add_gains(p.road_toll, e["gain"])
    elif t == "convert_stored_wealth":
        p.wealth_conversion = (e.get("cost", 2), tuple(e.get("choices", ("favor", "strength"))))
    elif t == "unlock_wonder_boxes":
        for b in e["boxes"]:
            p.unlocked |= 1 << sh.box_index[b]


def gain(p: PlayerSheet, units: tuple[int, ...]) -> None:
    """Add ``units`` (resource counts, order loader.RESOURCES) to ``p``'s pending units."""
    nonzero = _NONZERO.get(units) if type(units) is tuple else None
    if nonzero is None:
        nonzero = tuple((k, n) for k, n in enumerate(units) if n)
        if type(units) is tuple:
            if len(_NONZERO) >= 4096:
                _NONZERO.clear()
            _NONZERO[units] = nonzero
    pres = p.pending_resources
    for k, n in nonzero:
        pres[k] += n


_NONZERO: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}
"""Resource counts -> their non-zero ``(kind, count)`` pairs (the sheet's few gains, memoised)."""


def grant_bonus(p: PlayerSheet, bonus_action: str | None, innovation_bonus: int) -> None:
    """Queue a building's or wonder box's bonus Build/Wonder action and innovation bonus
    (resolved by the player at once; rulebook 'Ações bônus')."""
    if bonus_action == "build":
        p.pending_builds.append(0)
    elif bonus_action == "wonder":
        p.pending_wonders.append(0)
    p.pending_innovation_bonus += innovation_bonus
