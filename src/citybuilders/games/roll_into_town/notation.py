"""Roll into Town notation: action text, parsing, web click paths and map cell tokens.

Cell tokens (used by the observation, the text view and the sheet file, docs/formats.md):
``.`` empty, ``TH`` town hall, ``fa`` farm, ``mo`` mountain, ``tr`` tree, ``r:NS`` river with
its two flow sides, ``c:NE`` coast with its water sides, ``oc`` ocean; buildings in capitals:
``HO`` house, ``QU`` quarry, ``LJ`` lumberjack, ``HA`` harbor, ``WM`` watermill, ``TA`` tavern,
``FO`` fountain, ``MA`` market, ``LT``/``LB`` lighthouse top/bottom, ``CA`` cathedral. A building
on a coast or ocean is written ``terrain+BUILDING``, e.g. ``c:N+HA``, ``oc+LT``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import rules as R

if TYPE_CHECKING:  # pragma: no cover
    from .game import RollIntoTownGame, RollIntoTownState

__all__ = ["cell_token", "BUILDING_CODES", "TERRAIN_TOKENS", "action_text", "parse_action",
           "action_path", "explain"]

BUILDING_CODES = {R.B_HOUSE: "HO", R.B_QUARRY: "QU", R.B_LUMBERJACK: "LJ", R.B_HARBOR: "HA",
                  R.B_WATERMILL: "WM", R.B_TAVERN: "TA", R.B_FOUNTAIN: "FO", R.B_MARKET: "MA",
                  R.B_LIGHT_TOP: "LT", R.B_LIGHT_BOTTOM: "LB", R.B_CATHEDRAL: "CA"}
TERRAIN_TOKENS = {R.EMPTY: ".", R.FARM: "fa", R.MOUNTAIN: "mo", R.TREE: "tr", R.OCEAN: "oc",
                  R.TOWN_HALL: "TH"}
ICON_WORDS = ("farm", "mountain", "tree")


def cell_token(sheet: R.Sheet, i: int) -> str:
    """The token of cell ``i`` of ``sheet`` (see module docstring)."""
    t = sheet.terrain[i]
    if t == R.RIVER:
        base = "r:" + R.mask_text(sheet.sides[i])
    elif t == R.COAST:
        base = "c:" + R.mask_text(sheet.sides[i])
    else:
        base = TERRAIN_TOKENS[t]
    b = sheet.bld[i]
    if not b:
        return base
    code = BUILDING_CODES[b]
    return code if t == R.EMPTY else f"{base}+{code}"


def _rc(game: "RollIntoTownGame", cell: int) -> str:
    r, c = divmod(cell, game.options["cols"])
    return f"{r},{c}"


def decode(game: "RollIntoTownGame", action: int) -> tuple[str, tuple[int, ...]]:
    """``(kind, fields)``: ``("draw", (die, variant, cell))``, ``("adjust", (die, +1|-1))``,
    ``("sides", (water mask,))``,
    ``("fountain", ())``, ``("build", (kind, anchor))``, ``("trade", (give, take))``,
    ``("cut", (cell,))``, ``("grow", (cell,))``, ``("done", ())``, ``("roll", (face,))``.

    Raises ValueError for an id outside the action space.
    """
    from .game import NVAR

    g = game
    n = g.n_cells
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < g.n_actions:
        raise ValueError(f"action id {action!r} is out of range 0-{g.n_actions - 1}")
    if action < g.A_ADJ:
        rest, cell = divmod(action, n)
        die, var = divmod(rest, NVAR)
        return "draw", (die, var, cell)
    if action < g.A_SIDES:
        k = action - g.A_ADJ
        return "adjust", (k >> 1, 1 if k & 1 else -1)
    if action < g.A_FOUNTAIN:
        return "sides", (R.COAST_MASKS[action - g.A_SIDES],)
    if action == g.A_FOUNTAIN:
        return "fountain", ()
    if action < g.A_TRADE:
        kind, anchor = divmod(action - g.A_BUILD, n)
        return "build", (kind, anchor)
    if action < g.A_CUT:
        give, take = divmod(action - g.A_TRADE, 3)
        return "trade", (give, take)
    if action < g.A_GROW:
        return "cut", (action - g.A_CUT,)
    if action < g.A_DONE:
        return "grow", (action - g.A_GROW,)
    if action == g.A_DONE:
        return "done", ()
    return "roll", (action - g.A_DIE + 1,)


def _icon_text(var: int) -> str:
    from .game import V_COAST, V_RIVER, VAR_MASK

    if var < V_RIVER:
        return ICON_WORDS[var]
    if var < V_COAST:
        return "river " + R.mask_text(VAR_MASK[var])
    return "coast"


def action_text(game: "RollIntoTownGame", action: int) -> str:
    """Readable notation of ``action`` (see ``RollIntoTownState.action_to_string``)."""
    kind, f = decode(game, action)
    if kind == "draw":
        return f"d{f[0] + 1} {_icon_text(f[1])} {_rc(game, f[2])}"
    if kind == "adjust":
        return f"adjust d{f[0] + 1} {'+1' if f[1] > 0 else '-1'}"
    if kind == "sides":
        return f"sides {R.mask_text(f[0])}"
    if kind == "build":
        return f"build {R.BUILD_KINDS[f[0]][0]} {_rc(game, f[1])}"
    if kind == "trade":
        return f"trade 2 {R.RESOURCES[f[0]]} for {R.RESOURCES[f[1]]}"
    if kind in ("cut", "grow"):
        return f"{kind} {_rc(game, f[0])}"
    if kind == "roll":
        return f"roll {f[0]}"
    return kind


_CELL = r"(\d+)\s*,\s*(\d+)"


def _cell(game: "RollIntoTownGame", r: str, c: str) -> int:
    rows, cols = game.options["rows"], game.options["cols"]
    ri, ci = int(r), int(c)
    if not (0 <= ri < rows and 0 <= ci < cols):
        raise ValueError(f"cell {ri},{ci} is off the map (rows 0-{rows - 1}, cols 0-{cols - 1})")
    return ri * cols + ci


def parse_action(game: "RollIntoTownGame", text: str) -> int:
    """Parse notation into an action id (legality not checked). Raises ValueError saying which
    forms are accepted."""
    from .game import COAST_INDEX, NVAR, RIVER_VAR, V_COAST

    t = " ".join(text.strip().lower().split())
    n = game.n_cells
    m = re.fullmatch(r"d(\d)\s+(farm|mountain|tree|river|coast)\s*([nesw]*)\s+" + _CELL, t)
    if m:
        die = int(m.group(1)) - 1
        if not 0 <= die < R.MAX_DICE:
            raise ValueError(f"die must be d1-d{R.MAX_DICE}")
        icon, sides = m.group(2), m.group(3)
        cell = _cell(game, m.group(4), m.group(5))
        if icon in ICON_WORDS:
            if sides:
                raise ValueError(f"a {icon} has no sides")
            var = ICON_WORDS.index(icon)
        elif icon == "coast":
            if sides:
                raise ValueError("draw the coast first ('d1 coast 3,4'), then choose its "
                                 "water sides ('sides NE')")
            var = V_COAST
        else:
            if not sides:
                raise ValueError("a river needs its two flow sides, e.g. 'd1 river NS 0,4'")
            mask = R.parse_mask(sides)
            if mask not in RIVER_VAR:
                raise ValueError("a river takes two sides: NS, EW, NE, ES, SW or NW")
            var = RIVER_VAR[mask]
        return (die * NVAR + var) * n + cell
    m = re.fullmatch(r"sides\s+([nesw]+)", t)
    if m:
        mask = R.parse_mask(m.group(1))
        if mask not in COAST_INDEX:
            raise ValueError("a coast has water on 1, 2 or 3 sides")
        return game.A_SIDES + COAST_INDEX[mask]
    m = re.fullmatch(r"adjust\s+d(\d)\s*([+-]1)", t)
    if m:
        die = int(m.group(1)) - 1
        if not 0 <= die < R.MAX_DICE:
            raise ValueError(f"die must be d1-d{R.MAX_DICE}")
        return game.A_ADJ + 2 * die + (1 if m.group(2) == "+1" else 0)
    if t == "fountain":
        return game.A_FOUNTAIN
    if t == "done":
        return game.A_DONE
    m = re.fullmatch(r"build\s+([a-z-]+)\s+" + _CELL, t)
    if m:
        names = [k[0] for k in R.BUILD_KINDS]
        if m.group(1) not in names:
            raise ValueError(f"unknown building {m.group(1)!r}; allowed: {', '.join(names)}")
        return game.A_BUILD + names.index(m.group(1)) * n + _cell(game, m.group(2), m.group(3))
    m = re.fullmatch(r"trade\s+(?:2\s+)?(food|stone|wood)\s+(?:for\s+)?(food|stone|wood)", t)
    if m:
        return game.A_TRADE + R.RESOURCES.index(m.group(1)) * 3 + R.RESOURCES.index(m.group(2))
    m = re.fullmatch(r"(cut|grow)\s+" + _CELL, t)
    if m:
        base = game.A_CUT if m.group(1) == "cut" else game.A_GROW
        return base + _cell(game, m.group(2), m.group(3))
    m = re.fullmatch(r"roll\s+([1-6])", t)
    if m:
        return game.A_DIE + int(m.group(1)) - 1
    raise ValueError(
        "not a move; forms: 'd1 farm 3,4', 'd2 river NS 0,4', 'd3 coast 2,2' then 'sides NE', "
        "'adjust d1 +1', 'fountain', 'build house 3,4', 'trade 2 wood for food', "
        "'cut 3,4', 'grow 3,4', 'done'")


def action_path(game: "RollIntoTownGame", action: int) -> tuple[str, ...]:
    """Web click path of ``action`` (keys of ``render_svg`` elements or buttons)."""
    kind, f = decode(game, action)
    if kind == "draw":
        from .game import V_COAST, V_RIVER, VAR_MASK

        die, var, cell = f
        sq = "sq:" + _rc(game, cell)
        if var < V_RIVER:
            return (f"die:{die}", f"icon:{ICON_WORDS[var]}", sq)
        if var < V_COAST:
            return (f"die:{die}", "icon:river", f"flow:{R.mask_text(VAR_MASK[var])}", sq)
        return (f"die:{die}", "icon:coast", sq)
    if kind == "sides":
        return (f"sides:{R.mask_text(f[0])}",)
    if kind == "adjust":
        return (f"die:{f[0]}", "adj:+1" if f[1] > 0 else "adj:-1")
    if kind == "fountain":
        return ("fountain:use",)
    if kind == "build":
        return (f"build:{R.BUILD_KINDS[f[0]][0]}", "sq:" + _rc(game, f[1]))
    if kind == "trade":
        return (f"give:{R.RESOURCES[f[0]]}", f"take:{R.RESOURCES[f[1]]}")
    if kind in ("cut", "grow"):
        return ("sq:" + _rc(game, f[0]),)
    if kind == "done":
        return ("done",)
    return (f"roll:{f[0]}",)


def explain(state: "RollIntoTownState", action: int, player: int) -> str:
    """One-line reason why ``action`` is not legal for ``player`` now."""
    from .game import BUILD, COLLECT, DISCOVER, MAINTAIN, PHASE_NAMES

    g = state.game
    try:
        kind, f = decode(g, action)
        text = action_text(g, action)
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
        from .game import VAR_TERRAIN

        icon = VAR_TERRAIN[var]
        if dice[die] != 6 and dice[die] != icon:
            return (f"'{text}': d{die + 1} shows {dice[die]} "
                    f"({R.TERRAIN_NAMES[dice[die]] if dice[die] < 6 else 'any'})")
        if not sheet.is_empty(cell):
            return f"'{text}': {_rc(g, cell)} is not empty"
        if icon == R.RIVER:
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
        if R.KIND_UNIQUE[k] & sheet.unique_built:
            return f"'{text}': the {R.KIND_BUILDING[k]} can be built only once"
        if not sheet.affordable(k):
            cost = ", ".join(f"{v} {r}" for r, v in zip(R.RESOURCES, R.KIND_COST[k]) if v)
            return f"'{text}': costs {cost}"
        return f"'{text}': cannot be placed there ({R.BUILDINGS[R.KIND_BUILDING[k]]['placement']})"
    if kind == "trade":
        return f"'{text}': needs a market, 2 {R.RESOURCES[f[0]]}, and room under the cap of 9"
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
