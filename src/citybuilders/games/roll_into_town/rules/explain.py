"""Roll into Town: why an action is illegal, in one line (``State.explain_illegal``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import BUILD, COLLECT, DISCOVER, MAINTAIN, PHASE_NAMES, VAR_TERRAIN, action_text, \
    decode, rc
from ..loader import BUILDINGS, FACE_ANY, K_WATERMILL, KIND_BUILDING, KIND_COST, KIND_UNIQUE, \
    RESOURCES, RIVER, TERRAIN_IDS

if TYPE_CHECKING:  # pragma: no cover
    from .state import RollIntoTownState

__all__ = ["explain", "placement_text"]


def placement_text(kind: int, watermill_front: bool) -> str:
    """Where build kind ``kind`` may stand, in words (data ``placement``; the watermill adds the
    rulebook's "not in front of the river" unless option ``watermill_rule=non_flow_side``)."""
    text = str(BUILDINGS[KIND_BUILDING[kind]]["placement"])
    if kind == K_WATERMILL and not watermill_front:
        text += "; not the square the river's open end points at"
    return text


def explain(state: RollIntoTownState, action: int, player: int) -> str:
    """One-line reason why ``action`` is not legal for ``player`` now."""
    g = state.game
    try:
        kind, f = decode(g.space, action)
        text = action_text(g.space, action)
    except ValueError as exc:
        return str(exc)
    phase = state.phase
    need = {"draw": DISCOVER, "adjust": DISCOVER, "fountain": DISCOVER, "sides": DISCOVER,
            "build": BUILD,
            "trade": BUILD, "cut": COLLECT, "grow": MAINTAIN}
    if kind in need and phase != need[kind]:
        return f"'{text}': only in the {PHASE_NAMES[need[kind]]} phase (now {PHASE_NAMES[phase]})"
    sheet = state.sheets[player]
    if state.pending_coast[player] >= 0 and phase == DISCOVER:
        if kind == "sides":
            return f"'{text}': option coast_two_side_shape=corner_only allows only corners"
        return f"'{text}': first choose the water sides of your new coast ('sides NE')"
    if kind == "sides":
        return f"'{text}': draw a coast first"
    if kind == "draw":
        die, var, cell = f
        dice = state.dice[player]
        if die >= len(dice):
            return f"'{text}': only {len(dice)} dice this round"
        if state.used[player] >> die & 1:
            return f"'{text}': d{die + 1} is already used this round"
        if state.to_draw[player] <= 0:
            return f"'{text}': no icons left to draw this round (build a fountain for more)"
        icon = VAR_TERRAIN[var]
        if dice[die] != FACE_ANY and dice[die] != icon:
            return (f"'{text}': d{die + 1} shows {dice[die]} "
                    f"({TERRAIN_IDS[dice[die]] if dice[die] < FACE_ANY else 'any'})")
        if not sheet.is_empty(cell):
            return f"'{text}': {rc(g.space, cell)} is not empty"
        if icon == RIVER:
            return f"'{text}': the river must start at the map edge and then continue the river"
        return f"'{text}' is not a legal draw now"
    if kind == "adjust":
        die, step = f
        if sheet.hall_uses <= 0:
            return f"'{text}': the town hall has no uses left"
        if die >= len(state.dice[player]) or state.adjusted[player] >> die & 1:
            return f"'{text}': each die can be adjusted once (and only an existing, unused die)"
        return f"'{text}': the result must be 1-5 (never a 6)"
    if kind == "fountain":
        return f"'{text}': needs a built fountain, uses left and an unused die beyond your icons"
    if kind == "build":
        k, anchor = f
        if KIND_UNIQUE[k] & sheet.unique_built:
            return f"'{text}': the {KIND_BUILDING[k]} can be built only once"
        if not sheet.affordable(k):
            cost = ", ".join(f"{v} {r}" for r, v in zip(RESOURCES, KIND_COST[k]) if v)
            return f"'{text}': costs {cost}"
        return f"'{text}': cannot be placed there ({placement_text(k, sheet.watermill_front)})"
    if kind == "trade":
        return f"'{text}': needs a market, 2 {RESOURCES[f[0]]}, and room under the cap of 9"
    if kind == "cut":
        return f"'{text}': needs your lumberjack there with a tree next to it"
    if kind == "grow":
        return f"'{text}': a new tree must go on an empty cell beside a growing forest"
    if kind == "done":
        if phase == DISCOVER:
            return "'done': you must draw your icons while a legal placement exists"
        if phase == MAINTAIN:
            return "'done': every forest must grow while there is room"
        return "'done': finish paying (build) after a market trade first"
    return f"'{text}' is not a legal action now"
