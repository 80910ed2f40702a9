"""Roll into Town bot heuristics: ``evaluate`` and a fast plan-following ``greedy_action``.

The greedy player follows a simple town plan (the shape of the research template in
roll_games_notes §5.3, not its tuned weights):

* a sea line: coasts on the anti-diagonal ``row + col == rows // 2`` of the top-left corner with
  water facing north and west, so the corner floods into ocean (coast + lighthouse points);
* the river along the bottom edge from west to east (2 points a square once it joins the edges);
* farms, mountains and trees elsewhere, then houses (next to taverns), quarries beside mountains,
  lumberjacks beside trees, watermills beside the river, a harbor, the lighthouse, the cathedral.

Every choice is a one-step look-ahead over the legal actions with a hand-written value in
expected final points (weights in :data:`W`); no state is cloned except to measure the ocean a
coast would create. The values follow the economy: new food or stone income is worth more for the
resource that limits the houses (3 food to 2 stone, :func:`_balance`); wood is dear while no
lumberjack has trees beside it (:func:`_wood_cost`), so the starting wood goes to quarries and a
lumberjack rather than a harbor, and mountains wait for wood to build a quarry; the lumberjack
keeps the last small forest growing unless wood is short; river squares on the plan path gain
urgency as the rounds run out, and the square that joins the opposite edges is worth the doubling.
Mean about 67 points solo (the first author's version: about 55).

The ``hard`` and ``expert`` levels play :func:`town_planned_action`, the planner
:func:`planned_action` with the town policy :data:`TOWN`: in the discover phase the policy's
draw is compared with the best draw of each other icon the dice show, by playing sampled
futures (dice drawn from the bot's own random generator, the same futures for every candidate)
out to the end with the same policy; the best mean final score wins. The town policy is the
greedy above with three changes (:class:`Policy`): the sea line one diagonal further out
(``row + col == rows // 2 + 1``: six coasts flood fifteen cells, 6 + 21 points with the
lighthouse, against 5 + 15), and the wood economy (:func:`_econ_build_value`,
:func:`_econ_trade`): the market early, its trade turning stone that the next round's houses do
not need into wood, wood never traded away, and taverns, the cathedral and the watermill valued
at that price of wood; and planned cells: the fountain and the market off the sea and river plans,
and a tavern cell (:func:`_tavern_site`) kept free with the houses drawn around it
(:func:`_tavern_site_penalty`). Figures: docs/bots.md.
"""

from __future__ import annotations

import random
import time
from typing import Callable, Iterator

from ...core.game import CHANCE, TERMINAL
from ...core.view import Strategy
from . import rules as R
from .actions import BUILD, COLLECT, DISCOVER, MAINTAIN, NVAR, RIVER_VAR, V_COAST
from .rules import RollIntoTownState
from .scoring import score_parts

__all__ = ["RollIntoTownStrategy", "evaluate", "greedy_action", "planned_action",
           "plan_candidates", "rollout_value"]

SIDE_N, SIDE_E, SIDE_S, SIDE_W = range(4)  # side numbers (loader: N=0, E=1, S=2, W=3)
FOOD_VALUE = 0.55
STONE_VALUE = 0.5
WOOD_VALUE = 0.45


def evaluate(state: RollIntoTownState, player: int) -> float:
    """Score total plus a small value per resource held and per income source (for the
    generic one-ply greedy; the fast greedy below does not need it)."""
    sheet = state.sheets[player]
    # = state.scores()[player].total, without scoring the other sheets
    total = sum(score_parts(sheet, state.game.options["river_connect_rule"]).values())
    left = R.ROUNDS - state.round
    food, stone = sheet.income()
    return (total + FOOD_VALUE * sheet.res[0] + STONE_VALUE * sheet.res[1]
            + WOOD_VALUE * sheet.res[2] + 0.3 * left * (food * FOOD_VALUE + stone * STONE_VALUE))


# ----------------------------------------------------------------------------- plan zones
def _zones(geo: R.Geometry, sea: int = 0) -> tuple[int, int, int]:
    """(sea line cells, flooded triangle cells, river row cells) as bitsets; the sea line is
    ``row + col == rows // 2 + sea``."""
    k = geo.rows // 2 + sea
    line = tri = river = 0
    for i in range(geo.n):
        r, c = divmod(i, geo.cols)
        if r + c == k:
            line |= 1 << i
        elif r + c < k:
            tri |= 1 << i
        if r == geo.rows - 1:
            river |= 1 << i
    return line, tri, river


_ZONES: dict[tuple[int, int, int], tuple[int, int, int]] = {}


def zones(geo: R.Geometry, sea: int = 0) -> tuple[int, int, int]:
    """Cached :func:`_zones`."""
    key = (geo.rows, geo.cols, sea)
    if key not in _ZONES:
        _ZONES[key] = _zones(geo, sea)
    return _ZONES[key]


def _reserved(geo: R.Geometry, sea: int = 0) -> int:
    line, tri, river = zones(geo, sea)
    return line | tri | river


# ----------------------------------------------------------------------------- discover
# tuning weights of the discover and build values (expected final points)
W: dict[str, float] = {
    "food": 0.45,          # points per food when food limits the houses
    "stone": 0.6,          # points per stone when stone limits the houses
    "slack": 0.3,          # factor for a resource that does not limit the houses
    "wood": 1.1,           # points per wood while wooden buildings are still wanted
    "tree_forest": 1.6,    # tree joining a tree (a forest grows)
    "tree_alone": 0.7,
    "tree_lj": 1.0,        # tree next to a lumberjack (cut next collect)
    "tree_round": 0.1,
    "lj_max": 2,    # wood per remaining round that a tree stands for
    "tree_target": 5,      # trees wanted on the map
    "quarry_room": 0.7,    # a mountain with room for a future quarry
    "mtn_cluster": 0.3,    # per mountain already beside the cell
    "river_base": 2.0,     # a river square on the plan path (1 point + its share of the x2)
    "river_urgency": 2.5,  # times (squares still needed / rounds left)
    "river_finish": 9.0,   # the square that makes the river join opposite edges
    "adjust_gain": 0.8,    # town hall: use when the best icon gains this much
    "wood_cost": 0.6,      # points given up per wood spent
    "tavern_future": 0.5,  # per empty neighbour a future house may fill
    "icon": 2.5,           # points of one more icon (fountain)
    "cut_keep": 1.0,       # cut only if a forest is left, unless wood is short
}


def _balance(sheet: R.Sheet) -> tuple[float, float]:
    """Points per unit of new food and stone income per round: houses need 3 food to 2 stone,
    so the resource that runs out first is worth more."""
    food, stone = sheet.income()
    res = sheet.res
    f_houses = (food + res[0] / 3) / 3
    s_houses = (stone + res[1] / 3) / 2
    if f_houses <= s_houses:
        return W["food"], W["stone"] * W["slack"]
    return W["food"] * W["slack"], W["stone"]


def _wood_wanted(sheet: R.Sheet, left: int) -> float:
    """Wood still useful for the wooden buildings (quarries, lumberjacks, watermills, taverns,
    the cathedral), less what is held."""
    want = 0.0
    if left > 2:
        want += 3 + 5  # a watermill, a tavern
    if not sheet.unique_built & R.UNIQUE_BIT["cathedral"]:
        want += 7
    return max(0.0, want - sheet.res[2])


def _wood_source(sheet: R.Sheet) -> bool:
    """A lumberjack with trees beside it (wood next collect)."""
    return bool(sheet.lumberjacks_with_trees())


def _wood_cost(sheet: R.Sheet) -> float:
    """Points given up per wood spent: dear while there is no wood income."""
    if _wood_source(sheet):
        return W["wood_cost"]
    return W["wood_cost"] * (3.0 if sheet.res[2] <= 2 else 1.5)


def _sheet_context(sheet: R.Sheet, left: int) -> tuple[float, float, int, int, bool, float]:
    """What :func:`_cell_value` reads of the whole sheet, computed once per choice:
    ``(food weight, stone weight, watermills, food income, wood source, wood wanted)``."""
    fw, sw = _balance(sheet)
    return (fw, sw, sheet.count(R.B_WATERMILL), sheet.income()[0], _wood_source(sheet),
            _wood_wanted(sheet, left))


def _cell_value(state: RollIntoTownState, player: int, icon: int, cell: int,
                ctx: tuple[float, float, int, int, bool, float] | None = None,
                pol: "Policy | None" = None) -> float:
    """Value of drawing ``icon`` on ``cell`` in expected final points (``ctx``: the
    :func:`_sheet_context` of the player's sheet, computed here when None)."""
    sheet = state.sheets[player]
    geo = sheet.geo
    left = R.ROUNDS - state.round
    bit = 1 << cell
    line, tri, river_row = zones(geo, pol.sea if pol else 0)
    reserved = line | tri | river_row
    penalty = 1.5 if reserved & bit else 0.0
    if pol is not None and pol.econ:
        if cell == _lj_cell(geo) and not _has_lj(sheet):
            penalty += pol.w["lj_cell"]
        if icon != R.TREE and cell // geo.cols == geo.rows - 2:
            penalty += pol.w["mill_row"]
        penalty += _tavern_site_penalty(sheet, cell, pol)
    if ctx is None:
        ctx = _sheet_context(sheet, left)
    fw, sw, wm, food, wood_source, want = ctx
    if icon == R.FARM:
        per = 1 + wm + (0.6 if sheet.river and left > 3 else 0)
        if food >= 9:
            per *= 0.2  # more than the cap is lost
        return fw * left * per - penalty
    if icon == R.MOUNTAIN:
        terrain, bld = sheet.terrain, sheet.bld
        q = sum(1 for j in geo.nb8[cell] if bld[j] == R.B_QUARRY)
        mts = sum(1 for j in geo.nb8[cell] if terrain[j] == R.MOUNTAIN)
        room = (geo.m8[cell] & sheet.free & ~reserved).bit_count()
        per = q + (W["quarry_room"] if room else 0) + W["mtn_cluster"] * mts
        if not q and not sheet.res[2] and not wood_source:
            per *= 0.3  # no wood for a quarry yet
        return sw * max(0, left - (0 if q else 1)) * per - penalty
    if icon == R.TREE and pol is not None and pol.econ:
        v = _econ_tree_value(state, sheet, cell, pol)
        if v is not None:
            return v - penalty
    if icon == R.TREE:
        nb4 = geo.m4[cell] & sheet.trees
        lj = sum(1 for j in geo.nb8[cell] if sheet.bld[j] == R.B_LUMBERJACK)
        if want <= 0 or left <= 1:
            return -penalty
        trees = sheet.trees.bit_count()
        v = W["tree_forest"] if nb4 else W["tree_alone"]
        if not wood_source and sheet.res[2] <= 2:
            v *= 1.5  # no wood coming in
        if trees >= W["tree_target"]:
            v *= 0.3
        v += W["tree_lj"] * min(lj, 1)
        r, c = divmod(cell, geo.cols)
        corner = (r < 3 and c >= geo.cols - 3)
        return W["wood"] * v * left * W["tree_round"] * min(1.0, want / 5) \
            + (0.4 if corner else 0) - penalty
    return 0.0


def _river_value(state: RollIntoTownState, sheet: R.Sheet, cell: int, shape: int) -> float:
    geo = sheet.geo
    left = R.ROUNDS - state.round
    r, c = divmod(cell, geo.cols)
    if sheet.river_src < 0:
        # prefer the plan start: bottom-left corner flowing east
        v = 1.0
        if r == geo.rows - 1 and shape == (R.E_ | R.W_) and c == 0:
            v = W["river_base"] + W["river_urgency"] * geo.cols / max(1, left)
        elif shape in (R.N_ | R.S_, R.E_ | R.W_):
            v += 1.0
        return v
    entry = (sheet.river_exit + 2) & 3
    ex = [s for s in range(4) if shape >> s & 1 and s != entry][0]
    v = 1.0
    target = (sheet.river_src + 2) & 3
    if ex == target:
        nxt = geo.side_nb[cell][ex]
        if nxt < 0:
            return 1.0 + W["river_finish"] if (sheet.river_src + 2) & 3 == ex else 1.0
        # squares still needed to reach the opposite edge along a straight run
        need = 1 + (geo.cols - 1 - c if ex == SIDE_E else c if ex == SIDE_W else
                    geo.rows - 1 - r if ex == SIDE_S else r)
        v = W["river_base"] + W["river_urgency"] * need / max(1, left)
        if not sheet.free >> nxt & 1:
            v -= 2.0  # would block itself
    else:
        nxt = geo.side_nb[cell][ex]
        if nxt >= 0 and not sheet.free >> nxt & 1:
            v -= 2.0
    return v


def _coast_value(state: RollIntoTownState, player: int, cell: int,
                 pol: "Policy | None" = None) -> tuple[float, int]:
    """Best value and water mask of a coast at ``cell`` (measures the ocean it creates)."""
    sheet = state.sheets[player]
    geo = sheet.geo
    rule = state.game.options["ocean_sides_rule"]
    line, tri, river_row = zones(geo, pol.sea if pol else 0)
    best = (-1e9, R.N_)
    allowed = [R.COAST_MASKS[a - state.game.A_SIDES] for a in state.game.coast_sides]
    for mask in allowed:
        # water facing off the map is wasted
        if any(mask >> s & 1 and geo.side_nb[cell][s] < 0 for s in range(4)) and mask != (R.N_ | R.W_):
            continue
        sim = sheet.clone()
        sim.terrain[cell] = R.EMPTY
        sim.free |= 1 << cell
        sim.draw_simple(cell, R.COAST)
        made = sim.draw_coast(cell, mask, rule)
        v = 2.0 + 1.0 * made
        if line >> cell & 1 and mask == (R.N_ | R.W_):
            v += 2.5
        elif tri >> cell & 1:
            v -= 0.5
        if river_row >> cell & 1:
            v -= 1.5
        # water given to empty cells nearby is future ocean
        for s in range(4):
            j = geo.side_nb[cell][s]
            if mask >> s & 1 and j >= 0 and sim.free >> j & 1:
                v += 0.3 if (tri | line) >> j & 1 else -0.4
        if v > best[0]:
            best = (v, mask)
    return best


def _needed_icons(state: RollIntoTownState, player: int) -> frozenset[int]:
    """The icons :func:`_discover` may look up: those of the unused dice, their town-hall
    neighbours (one up or down) while the town hall has uses, every icon if a die shows any."""
    dice, used, adj = state.dice[player], state.used[player], state.adjusted[player]
    hall = state.sheets[player].hall_uses > 0
    out: set[int] = set()
    for d, v in enumerate(dice):
        if used >> d & 1:
            continue
        if v == R.FACE_ANY:
            return _ALL_ICONS
        out.add(v)
        if hall and not adj >> d & 1:
            out.update(w for w in (v - 1, v + 1) if R.FACE_FARM <= w <= R.FACE_COAST)
    return frozenset(out)


_ALL_ICONS = frozenset((R.FARM, R.MOUNTAIN, R.TREE, R.RIVER, R.COAST))


def _best_per_icon(state: RollIntoTownState, player: int,
                   needed: frozenset[int] = _ALL_ICONS,
                   pol: "Policy | None" = None) -> dict[int, tuple[float, int]]:
    """For each icon 1-5 in ``needed``: (best value, draw variant/cell code
    ``var * N + cell``)."""

    g = state.game
    n = g.n_cells
    sheet = state.sheets[player]
    geo = sheet.geo
    free_cells = R.bits(sheet.free)
    out: dict[int, tuple[float, int]] = {}
    if not free_cells:
        return out
    ctx = _sheet_context(sheet, R.ROUNDS - state.round)
    for icon in (R.FARM, R.MOUNTAIN, R.TREE):
        if icon not in needed:
            continue
        best = max((_cell_value(state, player, icon, c, ctx, pol), c) for c in free_cells)
        out[icon] = (best[0], (icon - 1) * n + best[1])
    river = sheet.river_options() if R.RIVER in needed else None
    if river:
        best = max((_river_value(state, sheet, c, shape), c, shape) for c, shape in river)
        out[R.RIVER] = (best[0], RIVER_VAR[best[2]] * n + best[1])
    if R.COAST not in needed:
        return out
    line = zones(geo, pol.sea if pol else 0)[0]
    water = 0
    for i in range(geo.n):
        if sheet.terrain[i] in (R.COAST, R.OCEAN):
            water |= geo.m4[i]
    cand = R.bits((line | water) & sheet.free) or free_cells[:8]
    best = max((_coast_value(state, player, c, pol)[0], c) for c in cand)
    out[R.COAST] = (best[0], V_COAST * n + best[1])
    return out


def _discover(state: RollIntoTownState, player: int, rng: random.Random,
              pol: "Policy | None" = None) -> int:

    g = state.game
    legal = state.legal_actions(player)
    if state.pending_coast[player] >= 0:
        _, mask = _coast_value(state, player, state.pending_coast[player], pol)
        a = g.A_SIDES + R.COAST_MASKS.index(mask)
        return a if a in legal else legal[0]
    if g.A_FOUNTAIN in legal:
        return g.A_FOUNTAIN
    if state.to_draw[player] <= 0 or legal[0] >= g.A_ADJ:
        return g.A_DONE if g.A_DONE in legal else legal[0]
    n = g.n_cells
    per_icon = _best_per_icon(state, player, _needed_icons(state, player), pol)
    dice = state.dice[player]
    used, adj = state.used[player], state.adjusted[player]

    def die_value(v: int) -> tuple[float, int]:
        if v == R.FACE_ANY:
            if not per_icon:
                return (-1e9, -1)
            best = max(per_icon.values())
            return (best[0] - 0.4, best[1])
        return per_icon.get(v, (-1e9, -1))

    best = (-1e9, -1, -1)
    for d, v in enumerate(dice):
        if used >> d & 1:
            continue
        val, code = die_value(v)
        if val > best[0]:
            best = (val, d, code)
    if state.sheets[player].hall_uses > 0:
        for d, v in enumerate(dice):
            if used >> d & 1 or adj >> d & 1:
                continue
            for step, k in ((-1, 0), (1, 1)):
                w = v + step
                if (R.FACE_FARM <= w <= R.FACE_COAST
                        and per_icon.get(w, (-1e9, -1))[0] > best[0] + W["adjust_gain"]):
                    a = g.A_ADJ + 2 * d + k
                    if a in legal:
                        return a
    if best[1] >= 0:
        var_cell = best[2]
        a = (best[1] * NVAR) * n + var_cell
        if a in legal:
            return a
    for a in legal:  # fall back: the first legal draw (dice deduplicated by the state)
        if a < g.A_ADJ:
            return a
    return g.A_DONE if g.A_DONE in legal else legal[0]


# ----------------------------------------------------------------------------- build
def _build_value(state: RollIntoTownState, player: int, kind: int, anchor: int,
                 pol: "Policy | None" = None) -> float:
    if pol is not None and pol.econ:
        v = _econ_build_value(state, player, kind, anchor, pol)
        if v is not None:
            return v
    sheet = state.sheets[player]
    geo = sheet.geo
    left = R.ROUNDS - state.round
    terrain, bld = sheet.terrain, sheet.bld
    reserved = _reserved(geo, pol.sea if pol else 0)
    pen = 0.8 if reserved >> anchor & 1 else 0.0
    nb8 = geo.nb8[anchor]
    wood_cost = _wood_cost(sheet)
    if kind == R.K_HOUSE:
        taverns = sum(1 for j in nb8 if bld[j] == R.B_TAVERN)
        if taverns:
            # the house scores for a tavern unless one already has it (8 is the cap)
            bonus = 1.0
        else:
            houses = sum(1 for j in nb8 if bld[j] == R.B_HOUSE)
            free8 = sum(1 for j in nb8 if sheet.free >> j & 1)
            bonus = 0.15 * houses + 0.05 * free8
        near_mtn = sum(1 for j in nb8 if terrain[j] == R.MOUNTAIN)
        v = 2.0 + bonus - pen - 0.2 * near_mtn
        if pol is not None and pol.econ:
            site = _tavern_site(sheet, pol)
            if site >= 0:
                if anchor == site:
                    v -= pol.w["tav_site"]
                elif geo.m8[site] >> anchor & 1:
                    v += pol.w["tav_house"]
        return v
    if kind == R.K_QUARRY:
        mts = sum(1 for j in nb8 if terrain[j] == R.MOUNTAIN)
        sw = _balance(sheet)[1]
        return sw * mts * left - wood_cost - pen if mts else -9
    if kind == R.K_LUMBERJACK:
        tr = sum(1 for j in nb8 if terrain[j] == R.TREE)
        if not tr or _wood_wanted(sheet, left) <= 0:
            return -9
        if sheet.count(R.B_LUMBERJACK) >= W["lj_max"]:
            return -9
        return 0.8 * tr + 0.3 * min(left, 6) - wood_cost - pen
    if kind == R.K_WATERMILL:
        farms = terrain.count(R.FARM)
        return _balance(sheet)[0] * farms * left - 3 * wood_cost - pen
    if kind == R.K_HARBOR:
        if sheet.res[2] < 3 and R.B_QUARRY not in bld:
            return -9
        return _balance(sheet)[0] * left - 2 * wood_cost
    if kind == R.K_TAVERN:
        houses = sum(1 for j in nb8 if bld[j] == R.B_HOUSE and not any(
            bld[k] == R.B_TAVERN for k in geo.nb8[j]))
        free8 = sum(1 for j in nb8 if sheet.free >> j & 1 and not reserved >> j & 1)
        future = min(free8, 2.5 * max(0, left - 1))
        return houses + W["tavern_future"] * future - 5 * wood_cost - pen
    if kind == R.K_FOUNTAIN:
        return W["icon"] * min(3, left - 1) - 5 * STONE_VALUE if left > 3 else -9
    if kind == R.K_MARKET:
        return 0.4 * left - 4 * STONE_VALUE - 0.5 if left > 4 else -9
    if kind == R.K_LIGHTHOUSE:
        water = terrain.count(R.COAST) + terrain.count(R.OCEAN)
        plan = 6 if left > 4 else 0
        return water + plan - 3 * STONE_VALUE - 1.0
    if kind in (R.K_CATHEDRAL, R.K_CATHEDRAL_M):
        cells = [anchor + dr * geo.cols + dc for dr, dc, _ in R.BUILD_KINDS[kind][1]]
        p = sum(1 for i in cells if reserved >> i & 1)
        return 10 - 7 * wood_cost - 0.5 * p
    return -9


def _build(state: RollIntoTownState, player: int, rng: random.Random,
           pol: "Policy | None" = None) -> int:
    g = state.game
    legal = state.legal_actions(player)
    n = g.n_cells
    best = 0.0
    best_a = g.A_DONE if g.A_DONE in legal else legal[0]
    sheet = state.sheets[player]
    for a in legal:
        if g.A_BUILD <= a < g.A_TRADE:
            kind, anchor = divmod(a - g.A_BUILD, n)
            v = _build_value(state, player, kind, anchor, pol) + rng.random() * 1e-3
            if v > best:
                best, best_a = v, a
    if best_a != g.A_DONE or g.A_DONE not in legal:
        return best_a
    if pol is not None and pol.econ:
        return _econ_trade(state, player, legal, pol, best_a)
    # market: trade a surplus toward a house (3 food, 2 stone)
    res = sheet.res
    for a in legal:
        if g.A_TRADE <= a < g.A_CUT:
            give, take = divmod(a - g.A_TRADE, 3)
            need_after = [3 - res[0], 2 - res[1], 0]
            if need_after[take] > 0 and res[give] - 2 >= max(0, [3, 2, 1][give]):
                return a
    return best_a


# ----------------------------------------------------------------------------- the town economy
class Policy:
    """Settings of the greedy policy: ``sea`` moves the sea line one diagonal further from the
    corner (``row + col == rows // 2 + sea``: 6 coasts flood 15 cells instead of 5 and 10);
    ``econ`` turns on the wood economy (:func:`_econ_build_value`, :func:`_econ_trade`) with the
    weights ``w`` (defaults :data:`W_TOWN`)."""

    __slots__ = ("sea", "econ", "w")

    def __init__(self, sea: int = 0, econ: bool = False,
                 w: dict[str, float] | None = None) -> None:
        self.sea = sea
        self.econ = econ
        self.w = dict(W_TOWN if w is None else w)


W_TOWN: dict[str, float] = {
    "wood": 0.35,          # points per wood spent once wood comes in (lumberjack or market)
    "wood_dry": 1.2,       # points per wood spent before
    "lj": 6.0,             # the first lumberjack beside two trees
    "lj_cell": 3.0,        # penalty for another icon on the planned lumberjack cell
    "tree_seed": 3.0,      # one of the first two trees of the forest corner
    "tree_pair": 1.5,      # ... beside the other
    "seed_until": 99,      # plant the forest while this many rounds are left (99: never;
                           # planting from 9 rounds left measured 2-12 points worse)
    "cut_at": 4,           # trees beside a lumberjack worth cutting when no forest stays
    "market": 6.0,         # the market early: the 2-for-1 trade turns surplus stone into wood
    "tavern_fill": 0.6,    # per empty neighbour of a tavern a later house may fill
    "tavern_cover": 1.0,   # per house beside the tavern that no tavern counts yet
    "mill_row": 0.0,       # penalty for a farm or mountain beside the river row
    "unique_site": 3.0,    # penalty for the fountain or market on the sea or river plan
    "unique_crowd": 0.05,   # ... per empty cell around it a house could take
    "tav_site": 3.0,       # the planned tavern cell: penalty for anything else on it (0: no plan)
    "tav_ring": 1.0,       # penalty for an icon or a non-house building beside it
    "tav_house": 0.5,      # bonus for a house beside it
}


def _market(sheet: R.Sheet) -> bool:
    return bool(sheet.unique_built & R.UNIQUE_BIT["market"])


def _tavern_site(sheet: R.Sheet, pol: Policy) -> int:
    """The economy policy's planned tavern cell (row ``rows // 4``, column
    ``cols - 1 - cols // 4``: in the house quarter, off the sea and river plans), or -1 when
    the plan is off (``tav_site`` 0), the cell is taken or a tavern already stands."""
    if not pol.w["tav_site"] or R.B_TAVERN in sheet.bld:
        return -1
    geo = sheet.geo
    cell = (geo.rows // 4) * geo.cols + geo.cols - 1 - geo.cols // 4
    return cell if sheet.free >> cell & 1 else -1


def _tavern_site_penalty(sheet: R.Sheet, cell: int, pol: Policy) -> float:
    """Points an icon or a building other than a house or tavern at ``cell`` costs the tavern
    plan: ``tav_site`` on the planned cell, ``tav_ring`` on its 8 neighbours (house cells)."""
    site = _tavern_site(sheet, pol)
    if site < 0:
        return 0.0
    if cell == site:
        return pol.w["tav_site"]
    return pol.w["tav_ring"] if sheet.geo.m8[site] >> cell & 1 else 0.0


def _econ_build_value(state: RollIntoTownState, player: int, kind: int, anchor: int,
                      pol: Policy) -> float | None:
    """The economy policy's value of building ``kind`` at ``anchor`` in expected final points,
    or None to use the greedy value (:func:`_build_value`).

    * lumberjack: the first one beside two trees is worth ``lj`` (it starts the wood income);
    * quarry: while no lumberjack stands and the forest corner is still to come, the last wood
      is kept for the lumberjack (-9);
    * watermill: the food it adds that the cap does not lose (farms, up to 9 food a round);
    * tavern: the houses beside it that no tavern counts yet plus ``tavern_fill`` per empty
      neighbour a later house may fill; cathedral: its 10 points;
    * market: ``market`` early (its 2-for-1 trade turns surplus stone into wood); the market
      and the fountain pay ``unique_site`` on the sea or river plan and ``unique_crowd`` per
      empty cell around them;
    * any building but a house or tavern pays :func:`_tavern_site_penalty` on the planned tavern
      cell or its ring, and a tavern elsewhere half of ``tav_site`` while that cell is free.

    Wood is worth ``wood`` a unit once it comes in (a lumberjack beside trees, or the market),
    ``wood_dry`` before."""
    w = pol.w
    sheet = state.sheets[player]
    left = R.ROUNDS - state.round
    geo = sheet.geo
    bld, terrain = sheet.bld, sheet.terrain
    source = _market(sheet) or _wood_source(sheet)
    wv = w["wood"] if source else w["wood_dry"]
    reserved = _reserved(geo, pol.sea)
    pen = 0.8 if reserved >> anchor & 1 else 0.0
    nb8 = geo.nb8[anchor]
    site = w["unique_site"] * (reserved >> anchor & 1) + w["unique_crowd"] * (
        geo.m8[anchor] & sheet.free & ~reserved).bit_count()
    tsite = _tavern_site(sheet, pol)
    if tsite >= 0 and kind not in (R.K_HOUSE, R.K_TAVERN):
        site += _tavern_site_penalty(sheet, anchor, pol)
        pen += _tavern_site_penalty(sheet, anchor, pol)
    if kind == R.K_MARKET:
        return w["market"] - 4 * STONE_VALUE - site if left > 3 else None
    if kind == R.K_FOUNTAIN:
        return W["icon"] * min(3, left - 1) - 5 * STONE_VALUE - site if left > 3 else -9
    if kind == R.K_LUMBERJACK:
        if _has_lj(sheet):
            return -9 if _wood_source(sheet) or left > 6 else None
        tr = sum(1 for j in nb8 if terrain[j] == R.TREE)
        if tr < 2 or left < 4:
            return None
        return w["lj"] + 0.5 * tr - pen
    if kind == R.K_QUARRY:
        if (not _has_lj(sheet) and sheet.res[2] <= 1 and left >= w["seed_until"] - 1
                and (sheet.trees & _forest_site(geo) or left >= w["seed_until"])):
            return -9
        return None
    if kind == R.K_WATERMILL:
        farms = terrain.count(R.FARM)
        food_in = sheet.income()[0]
        usable = min(farms, max(0, R.CAP - food_in))
        return _balance(sheet)[0] * usable * (left - 1) - 3 * wv - pen
    if kind == R.K_TAVERN:
        houses = sum(1 for j in nb8 if bld[j] == R.B_HOUSE and not any(
            bld[k] == R.B_TAVERN for k in geo.nb8[j]))
        free8 = sum(1 for j in nb8 if sheet.free >> j & 1 and not reserved >> j & 1)
        future = min(free8, 2.5 * max(0, left - 1))
        if tsite >= 0 and anchor != tsite:
            pen += w["tav_site"] * 0.5
        return w["tavern_cover"] * houses + w["tavern_fill"] * future - 5 * wv - pen
    if kind in (R.K_CATHEDRAL, R.K_CATHEDRAL_M):
        cells = [anchor + dr * geo.cols + dc for dr, dc, _ in R.BUILD_KINDS[kind][1]]
        p = sum(1 for i in cells if reserved >> i & 1)
        return 10 - 7 * wv - 0.5 * p
    return None


def _econ_trade(state: RollIntoTownState, player: int, legal: list[int], pol: Policy,
                done: int) -> int:
    """The economy policy's trade once no building is worth its cost: the greedy's trade toward
    a house first, then surplus stone (more than the next round's houses need, or what the cap
    would lose at the collect) for wood; in the last round everything toward wood when that
    pays for a tavern or the cathedral this phase. ``done`` when no trade is wanted."""
    g = state.game
    sheet = state.sheets[player]
    res = sheet.res
    trades = {a - g.A_TRADE for a in legal if g.A_TRADE <= a < g.A_CUT}
    if not trades:
        return done
    stone_wood = 1 * 3 + 2
    food_wood = 0 * 3 + 2
    for k in sorted(trades):  # the greedy's rule: toward a house (3 food, 2 stone)
        give, take = divmod(k, 3)
        need_after = [3 - res[0], 2 - res[1], 0]
        if give != 2 and need_after[take] > 0 and res[give] - 2 >= [3, 2][give]:
            return g.A_TRADE + k
    if res[2] >= R.CAP:
        return done
    left = R.ROUNDS - state.round
    food_in, stone_in = sheet.income()
    if left <= 1:
        # last build phase: leftovers are worth nothing; trade them into a wooden building
        wood = res[2] + res[1] // 2 + res[0] // 2
        want = 0
        if not sheet.unique_built & R.UNIQUE_BIT["cathedral"] and (
                sheet.anchor_mask(R.K_CATHEDRAL) or sheet.anchor_mask(R.K_CATHEDRAL_M)):
            want = 7
        elif sheet.free:
            want = 5
        if want and wood >= want and res[2] < want:
            if stone_wood in trades:
                return g.A_TRADE + stone_wood
            if food_wood in trades:
                return g.A_TRADE + food_wood
        return done
    food_next = min(R.CAP, res[0] + food_in)
    houses_next = min(3, food_next // 3)
    keep = max(0, 2 * houses_next - stone_in)
    if stone_wood in trades and (res[1] - 2 >= keep or res[1] + stone_in > R.CAP + 1):
        return g.A_TRADE + stone_wood
    if food_wood in trades and res[0] + food_in > R.CAP + 1:
        return g.A_TRADE + food_wood
    return done


def _lj_cell(geo: R.Geometry) -> int:
    """The economy policy's lumberjack cell: row 1, the second column from the east edge (its
    8 neighbours are the forest corner, far from the sea corner and the river row)."""
    return geo.cols + geo.cols - 2


def _forest_site(geo: R.Geometry) -> int:
    """The 8 neighbours of :func:`_lj_cell` (bitset): where the economy policy plants trees."""
    return geo.m8[_lj_cell(geo)]


def _has_lj(sheet: R.Sheet) -> bool:
    return R.B_LUMBERJACK in sheet.bld


def _econ_tree_value(state: RollIntoTownState, sheet: R.Sheet, cell: int,
                     pol: Policy) -> float | None:
    """The economy policy's value of a tree at ``cell``, or None for the greedy value: early in
    the game the first two trees of a forest beside the lumberjack cell (``tree_seed``, plus
    ``tree_pair`` for a tree beside one already there) start the wood income; once a forest
    stands there, growth brings the rest and another tree is worth little."""
    geo = sheet.geo
    w = pol.w
    left = R.ROUNDS - state.round
    site = _forest_site(geo)
    planted = (sheet.trees & site).bit_count()
    if left < w["seed_until"] or planted >= 2:
        return None if planted < 2 else 0.1
    if not site >> cell & 1:
        return None
    v = w["tree_seed"]
    if geo.m4[cell] & sheet.trees & site:
        v += w["tree_pair"]
    return v


def _cuts(state: RollIntoTownState, player: int
          ) -> tuple[int, Iterator[tuple[int, int, int, bool, int]]]:
    """The collect step's default action (done, else the first legal one) and, lazily, each
    lumberjack cut that brings wood the cap keeps: ``(action, trees cut, wood gained, whether
    a forest of 2+ trees stays, wood held)`` in legal-action order."""
    g = state.game
    legal = state.legal_actions(player)
    sheet = state.sheets[player]
    wood = sheet.res[2]

    def each() -> Iterator[tuple[int, int, int, bool, int]]:
        for a in legal:
            if not g.A_CUT <= a < g.A_GROW:
                continue
            cutm = sheet.geo.m8[a - g.A_CUT] & sheet.trees
            n = cutm.bit_count()
            gain = min(n, R.CAP - wood)
            if gain <= 0:
                continue
            rest = sheet.trees & ~cutm
            yield a, n, gain, any(grp & (grp - 1) for grp in sheet.tree_groups(rest)), wood

    return (g.A_DONE if g.A_DONE in legal else legal[0]), each()


def _econ_collect(state: RollIntoTownState, player: int, pol: Policy) -> int:
    """The economy policy's collect: cut where ``cut_at`` trees stand beside a lumberjack (or
    fewer when a forest stays elsewhere, the wood completes a wanted building, or the game is
    nearly over); never for wood the cap would lose."""
    left = R.ROUNDS - state.round
    w = pol.w
    best_a, cuts = _cuts(state, player)
    best = 0.0
    for a, n, gain, forest_left, _wood in cuts:
        ok = n >= w["cut_at"] or left <= 2 or (forest_left and n >= 2)
        if ok and n > gain + 1:
            ok = False  # most of it would be lost to the cap
        v = float(gain) if ok else 0.0
        if v > best:
            best, best_a = v, a
    return best_a


TOWN = Policy(sea=1, econ=True)
"""The economy policy of the ``hard`` and ``expert`` levels (see :class:`Policy`)."""


def town_action(state: RollIntoTownState, player: int, rng: random.Random) -> int | None:
    """The economy policy's move (:func:`greedy_action` with :data:`TOWN`)."""
    return greedy_action(state, player, rng, TOWN)


# ----------------------------------------------------------------------------- collect, grow
def _collect(state: RollIntoTownState, player: int, pol: "Policy | None" = None) -> int:
    """Use a lumberjack when the wood is not lost to the cap, and keep a forest growing unless
    wood is short or the game is nearly over."""
    if pol is not None and pol.econ:
        return _econ_collect(state, player, pol)
    left = R.ROUNDS - state.round
    best_a, cuts = _cuts(state, player)
    best = 0.0
    for a, n, gain, forest_left, wood in cuts:
        v = float(gain)
        if not forest_left and left > 2 and wood + gain < 5 and n < 3:
            v -= W["cut_keep"] * 2  # the last forest: let it grow unless wood is short
        if not forest_left and left > 2 and n < 2 and wood >= 2:
            v -= 2.0
        if v > best:
            best, best_a = v, a
    return best_a


def _grow(state: RollIntoTownState, player: int, rng: random.Random,
          pol: "Policy | None" = None) -> int:
    g = state.game
    legal = state.legal_actions(player)
    sheet = state.sheets[player]
    geo = sheet.geo
    reserved = _reserved(geo, pol.sea if pol else 0)
    best, best_a = -1e9, legal[0]
    for a in legal:
        if not g.A_GROW <= a < g.A_DONE:
            continue
        cell = a - g.A_GROW
        lj = sum(1 for j in geo.nb8[cell] if sheet.bld[j] == R.B_LUMBERJACK)
        v = lj - (1.0 if reserved >> cell & 1 else 0) - 0.1 * (
            geo.m8[cell] & sheet.free).bit_count() + rng.random() * 1e-3
        if v > best:
            best, best_a = v, a
    return best_a


def greedy_action(state: RollIntoTownState, player: int, rng: random.Random,
                  pol: "Policy | None" = None) -> int | None:
    """The plan-following greedy move of ``player`` (None at chance or terminal nodes);
    ``pol`` None is the ``normal`` level's policy, :data:`TOWN` the economy policy."""
    ph = state.phase
    if player < 0 or state.done[player]:
        return None
    if ph == DISCOVER:
        return _discover(state, player, rng, pol)
    if ph == BUILD:
        return _build(state, player, rng, pol)
    if ph == COLLECT:
        return _collect(state, player, pol)
    if ph == MAINTAIN:
        return _grow(state, player, rng, pol)
    return None


# ----------------------------------------------------------------------------- planner
ROUND_ROLLOUTS_PER_SECOND = 50
"""Rounds of greedy play the planner budgets per second of its allowance (a greedy round of
one player costs about 4 ms of CPU, 15-20 ms of wall time on the shared 2-core machine at a
load average of 20, 2026; measured by ``benchmarks/bench_bots.py --only rit``). The number of sampled futures follows from it and
from the rounds left, so a move depends only on the state and the seed, not on the clock."""

MAX_SAMPLES = 24
"""At most this many sampled futures per candidate."""


def plan_candidates(state: RollIntoTownState, player: int, rng: random.Random,
                    width: int, pol: Policy | None = None) -> list[int]:
    """The draws the planner compares in the discover phase, best greedy value first: the
    greedy move, then the best-valued draw of each other icon the unused dice show (at most
    ``width`` in all). Empty when there is nothing to compare (not the discover phase, a
    coast waiting for its water sides, or a single candidate)."""
    if state.phase != DISCOVER or state.pending_coast[player] >= 0:
        return []
    if state.to_draw[player] <= 0:
        return []
    g = state.game
    n = g.n_cells
    legal = state.legal_actions(player)
    legal_set = set(legal)
    first = greedy_action(state, player, random.Random(rng.getrandbits(32)), pol)
    if first is None or first >= g.A_ADJ:
        return []  # town hall, fountain or done: the greedy's own rule decides
    per_icon = _best_per_icon(state, player, _ALL_ICONS, pol)
    dice, used = state.dice[player], state.used[player]
    scored: list[tuple[float, int]] = []
    for icon, (val, code) in per_icon.items():
        for d, v in enumerate(dice):
            if used >> d & 1 or (v != icon and v != R.FACE_ANY):
                continue
            a = (d * NVAR) * n + code
            if a in legal_set and a != first:
                scored.append((val - (0.4 if v == R.FACE_ANY else 0.0), a))
                break
    scored.sort(key=lambda x: (-x[0], x[1]))
    out = [first] + [a for _, a in scored]
    seen: list[int] = []
    for a in out:
        if a not in seen:
            seen.append(a)
    return seen[:max(1, width)]


def rollout_value(state: RollIntoTownState, player: int, action: int, seed: int,
                  deadline: float | None = None, pol: Policy | None = None,
                  clock: Callable[[], float] = time.perf_counter) -> float | None:
    """Final score of ``player`` after ``action`` when every player then plays the greedy
    policy and the future dice are drawn from ``random.Random(seed)`` (a sampled future: the
    state's own seed and history are never consulted). ``state`` is not changed. With a
    ``deadline`` (a ``clock()`` value) the play-out gives up, returning None, when
    a new round starts after it. ``pol``: the play-out policy (:func:`greedy_action`'s)."""
    sim = state.clone()
    sim.apply_legal(action, player)
    dice_rng = random.Random(seed)
    play_rng = random.Random(seed ^ 0x5F3759DF)
    while True:
        cp = sim.current_player()
        if cp == TERMINAL:
            break
        if cp == CHANCE:
            if deadline is not None and not sim.rolled and clock() > deadline:
                return None
            sim.apply_legal(sim.sample_chance(dice_rng))
            continue
        a = greedy_action(sim, cp, play_rng, pol)
        if a is None:  # pragma: no cover - greedy always moves for an active player
            a = sim.legal_actions(cp)[0]
        sim.apply_legal(a, cp)
    return float(sim.scores()[player].total)


def planned_action(state: RollIntoTownState, player: int, rng: random.Random,
                   seconds: float, pol: Policy | None = None,
                   rate: float = ROUND_ROLLOUTS_PER_SECOND, max_samples: int = MAX_SAMPLES,
                   clock: Callable[[], float] = time.perf_counter) -> int | None:
    """The planner's move for ``player``: in the discover phase it compares the greedy draw
    with the best draw of each other icon on the dice by sampling futures (the rest of the
    game's dice drawn from ``rng``, the same futures for every candidate) and playing them out
    with the greedy policy; it takes the candidate with the best mean final score (ties: the
    greedy one). Everywhere else, and when the budget allows no comparison, it plays the greedy
    move.

    ``seconds`` is the allowance per move: the number of futures is
    ``seconds * ROUND_ROLLOUTS_PER_SECOND / (candidates * rounds left)`` (at most
    :data:`MAX_SAMPLES`, at least 2 or none; three candidates only when each gets two futures,
    else two), so moves are deterministic for a seed; a clock check stops the
    sampling early if the machine is slower than budgeted (then, and only then, the move may
    depend on the load). Returns None at chance or terminal nodes.

    ``pol`` is the policy of the candidates and play-outs (default: the ``normal`` greedy),
    ``rate`` the rounds of play budgeted per second, ``max_samples`` the futures' cap and
    ``clock`` the safety net's clock (the defaults are the first planner's; the levels play
    :func:`town_planned_action`)."""
    if player < 0 or state.phase not in (DISCOVER, BUILD, COLLECT, MAINTAIN) \
            or state.done[player]:
        return None
    start = clock()
    left = R.ROUNDS - state.round
    futures = seconds * rate / left  # rollouts to the end affordable
    width = 3 if futures >= 6 else 2  # three candidates only with two futures each
    cands = plan_candidates(state, player, rng, width, pol)
    if len(cands) < 2:
        return greedy_action(state, player, rng, pol)
    samples = min(max_samples, int(futures / len(cands)))
    if samples < 2:
        return cands[0]
    totals = [0.0] * len(cands)
    deadline = start + seconds * 0.9
    seeds = [rng.getrandbits(32) for _ in range(samples)]
    for seed in seeds:
        t = clock()
        values = [rollout_value(state, player, a, seed, deadline, pol, clock) for a in cands]
        if None in values:
            break  # the allowance ran out within this future: it is not counted
        for k, v in enumerate(values):
            totals[k] += v  # type: ignore[operator]
        now = clock()
        if now + (now - t) > deadline:
            break  # another future would overrun the allowance
    best = 0
    for k in range(1, len(cands)):
        if totals[k] > totals[best] + 1e-9:
            best = k
    return cands[best]


TOWN_RATE = 150
"""Rounds of play the levels' planner budgets per second of allowance (an economy-policy
round costs about 5 ms of CPU: about 0.75 s of CPU for a 1 s move at most)."""

TOWN_MAX_SAMPLES = 48
"""The levels' planner: at most this many sampled futures per candidate."""


def town_planned_action(state: RollIntoTownState, player: int, rng: random.Random,
                        seconds: float) -> int | None:
    """The ``hard`` and ``expert`` move: :func:`planned_action` with the economy policy
    :data:`TOWN` for the candidates and the play-outs, :data:`TOWN_RATE` rounds a second and
    the safety net on the process's CPU time (``time.process_time``), so that the load of a
    shared machine does not cut the sampling short."""
    return planned_action(state, player, rng, seconds, TOWN, TOWN_RATE, TOWN_MAX_SAMPLES,
                          time.process_time)


class RollIntoTownStrategy(Strategy):
    """The Roll into Town bots' evaluation and fast greedy policy (see the module docstring)."""

    def evaluate(self, state: RollIntoTownState, player: int) -> float:  # type: ignore[override]
        """Score plus small credit for resources and engine (greedy bot's state value)."""
        return evaluate(state, player)

    def greedy_action(self, state: RollIntoTownState, player: int,  # type: ignore[override]
                      rng: random.Random) -> int | None:
        """A fast heuristic greedy move (see the module docstring)."""
        return greedy_action(state, player, rng)

    def planned_action(self, state: RollIntoTownState, player: int,  # type: ignore[override]
                       rng: random.Random, seconds: float) -> int | None:
        """The sampled-futures planner of the hard and expert levels
        (:func:`town_planned_action`)."""
        return town_planned_action(state, player, rng, seconds)
