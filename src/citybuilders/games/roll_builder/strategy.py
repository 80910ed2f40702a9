"""Roll Builder strategy: the greedy player (a heuristic step policy plus a search over die
assignments) as :class:`RollBuilderStrategy`.

* :func:`policy_action` — fast rule-based choice for every non-die step: allocate gained units to the
  innovation closest to completion (else tracks, storage), mark useful connected spaces, place
  roads that connect the most valuable spaces (else step towards them), choose build sites and
  wonder boxes by value.
* :func:`greedy_action` — at a die decision it tries every legal die action, finishes the turn
  with the policy (second die included) on a clone and keeps the best :func:`evaluate`.

``evaluate`` = current score + a potential (value of connected unmarked icons, innovation progress,
open road frontier, stored wealth); it is a heuristic, not a rule.

The ``hard``/``expert`` levels play :func:`valued_action`: greedy's die search over both dice of
the turn, valued by :func:`fitted_value` (the score + a least-squares estimate of the points to
come, weights per shipped sheet in data/value_weights.json, fitted by
benchmarks/fit_roll_builder_value.py), and with the ``expert`` budget a comparison of the best
first choices by rollouts of the next turns on common dice sequences (:func:`_rollout_best`). Their roads walk towards the printed points still
unconnected (:data:`ROAD_TO_POINTS`), and on highcrag they value a building mark a little more
(:data:`BUILDING_WEIGHT`).

Speed (issue 5): per-game tables and memos live in ``game._bot_tables`` (:func:`_bot_tables`); the
hot helpers return exactly what the straightforward versions returned (oracles in
tests/roll_builder/reference_bot.py), so the decisions, hence the scores, are unchanged.
"""

from __future__ import annotations

import random
import threading
from bisect import bisect_left
from typing import TYPE_CHECKING

from citybuilders.core.game import CHANCE

from citybuilders.core.view import Strategy

from .actions import (
    A_BOTH, A_CARAVAN, A_DIE, A_DISCARD, A_DONE, A_SKIP_BUILD, A_SKIP_WONDER, A_STORE, A_TRACK,
    DISCARD_BONUS, USE_BUILD, USE_ROAD, USE_SKIP, USE_WONDER,
)
from .loader import FAVOR, INNOVATION_BONUS, STRENGTH, WEALTH
from .rules.bits import bit_indices
from .rules.moves import BONUS_TURNS, TURNS

if TYPE_CHECKING:  # pragma: no cover
    from .rules.player_sheet import PlayerSheet
    from .rules.state import RollBuilderState

__all__ = ["RollBuilderStrategy", "evaluate", "greedy_action", "policy_action", "planned_action",
           "valued_action", "value_features", "feature_names", "fitted_value", "turns_left",
           "value_weights", "PLAN_RATE"]

_RES_VALUE = (0.6, 0.6, 0.7, 0.8, 0.8)


def _g(state: "RollBuilderState"):  # noqa: ANN202 - small helper
    return state.game


def _innov_need(state: "RollBuilderState", p: "PlayerSheet") -> list[tuple[float, int]]:
    """(priority, innovation) for undiscovered innovations: points / remaining circles."""
    g = _g(state)
    t = _bot_tables(g)
    values = t.get("innov_value")
    if values is None:
        values = t["innov_value"] = [
            inn.points + 1.5 * (len(inn.effects) and inn.effects[0]["type"] != "points_only")
            for inn in g.sheet.innovations]
    out = []
    crossed, discovered = p.crossed, p.discovered
    for i, m in enumerate(g.innov_circles):
        if discovered >> i & 1:
            continue
        left = (m & ~crossed).bit_count()
        out.append((values[i] / (left + 0.5), i))
    out.sort(reverse=True)
    return out


def _space_value(state: "RollBuilderState", p: "PlayerSheet", s: int) -> float:
    g = _g(state)
    terms = _bot_tables(g)["space_terms"]
    v = 0.0
    if not p.marked >> s & 1:
        res_v, icon_v = terms[s]
        v += res_v
        v += icon_v
    if g.land_mask >> s & 1 and not p.built >> s & 1:
        v += 0.35
    return v


def evaluate(state: "RollBuilderState", player: int) -> float:
    """Score + heuristic potential of ``player``'s sheet (higher is better)."""
    g = _g(state)
    sh = g.sheet
    p = state.players[player]
    total = float(sum(state.player_parts(player).values()))
    turns_left = TURNS - state.turn
    # connected, unmarked icon spaces still to collect
    m = p.connected & ~p.marked & g.icon_mask
    pot = 0.0
    while m:
        low = m & -m
        pot += _space_value(state, p, low.bit_length() - 1)
        m ^= low
    pot *= 0.5
    # innovation progress
    for i, inn in enumerate(sh.innovations):
        if p.discovered >> i & 1:
            continue
        tot = g.innov_circles[i].bit_count()
        done = (g.innov_circles[i] & p.crossed).bit_count()
        pot += (inn.points + 1.0) * (done / tot) ** 1.5 * 0.8
    # discovered abilities are worth more early
    pot += 0.15 * turns_left * p.discovered.bit_count()
    # road frontier / connection capacity for the future
    free_land = (p.connected & sh.land_mask & ~p.built).bit_count()
    pot += min(free_land, 2 * turns_left) * 0.25
    pot += 0.3 * min(p.stored, 2 * turns_left) * (1 if turns_left else 0)
    # pending gains not yet used count a little (they are resolved by the policy)
    pot += (0.5 * sum(p.pending_resources) + 1.0 * p.pending_innovation_bonus
            + 1.5 * len(p.pending_builds) + 1.5 * len(p.pending_wonders))
    return total + pot * (1.0 if turns_left > 0 else 0.2)


# ----------------------------------------------------------------------------- step policy
def _alloc(state: "RollBuilderState", p: "PlayerSheet", legal: set[int]) -> int | None:
    """Resolve one pending resource unit or innovation bonus."""
    pres = p.pending_resources
    if not (p.pending_innovation_bonus or pres[0] or pres[1] or pres[2] or pres[3] or pres[4]):
        return None
    g = _g(state)
    sh = g.sheet
    need = _innov_need(state, p)
    rank = {i: r for r, (_, i) in enumerate(need)}
    # innovation bonus: IB-only circle of a good innovation, else the innovation closest to done
    if p.pending_innovation_bonus:
        best, bv = None, -1e9
        for k, (i, kind) in enumerate(sh.circles):
            a = g.A_CROSS + 3 * k + 1
            if a in legal:
                v = -rank.get(i, 99) + (3 if kind == INNOVATION_BONUS else 0)
                if v > bv:
                    best, bv = a, v
        if best is not None:
            return best
        return A_DISCARD + DISCARD_BONUS
    for kind in (0, 1, 3, 4, 2):  # food, supplies, favor, strength, wealth
        if not p.pending_resources[kind]:
            continue
        best, bv = None, -1e9
        for k, (i, kk) in enumerate(sh.circles):
            if kk != kind:
                continue
            a = g.A_CROSS + 3 * k
            if a in legal:
                v = -rank.get(i, 99)
                if v > bv:
                    best, bv = a, v
        turns_left = TURNS - state.turn
        if kind in (FAVOR, STRENGTH):
            track = A_TRACK if kind == FAVOR else A_TRACK + 1
            t = sh.tracks[0 if kind == FAVOR else 1]
            crossed = p.favor if kind == FAVOR else p.strength
            if track in legal:
                gain = t[crossed + 1] - t[crossed]
                # prefer the track when it pays 1+ and innovations are far away
                if best is None or (gain >= 1 and bv < -1) or gain >= 2:
                    return track
            if best is not None:
                return best
            return A_DISCARD + kind
        if kind == WEALTH:
            if best is not None and (bv > -2 or turns_left <= 1 or A_STORE not in legal):
                return best
            if A_STORE in legal:
                return A_STORE
            if best is not None:
                return best
            return A_DISCARD + kind
        if best is not None:
            return best
        return A_DISCARD + kind
    return None


def _build_terms(g):  # noqa: ANN001, ANN202
    """Per building number n (index n-1): the float terms of :func:`_best_build`'s value, each
    computed by the same expression as before so that sums are bit-for-bit the same."""
    t = _bot_tables(g)
    terms = t.get("build_terms")
    if terms is None:
        terms = []
        for b in g.sheet.buildings:
            gain = sum(x * y for x, y in zip(b.gain, _RES_VALUE))
            extra = sum(x * y for x, y in zip(b.extra_gain, _RES_VALUE))
            bonus = 1.5 * (b.bonus_action is not None) + b.marks - 1
            terms.append((gain, extra, b.extra_if, bonus))
        t["build_terms"] = terms
    return terms


def _best_build(state: "RollBuilderState", p: "PlayerSheet", legal: list[int]) -> int | None:
    g = _g(state)
    sh = g.sheet
    best, bv = None, -1e9
    lo, hi = g.A_BUILD, g.A_WONDER
    ns = g.n_spaces
    terms = _build_terms(g)
    icon_mask = g.icon_mask
    water_adjacent = sh.water_adjacent
    mountain_near = sh.mountain_near
    for a in legal[bisect_left(legal, lo):bisect_left(legal, hi)]:
        n, s = divmod(a - lo, ns)
        gain, extra, extra_if, bonus = terms[n]
        v = 1.0 + gain
        if extra_if == "adjacent_to_water" and water_adjacent >> s & 1:
            v += extra
        if extra_if == "on_or_adjacent_to_mountain" and mountain_near >> s & 1:
            v += extra
        v += bonus
        # keep icon spaces and water/mountain-bonus spaces for later: prefer plain spaces
        v -= 0.05 * bool(icon_mask >> s & 1)
        v -= 0.01 * s / ns
        if v > bv:
            best, bv = a, v
    if best is None and A_SKIP_BUILD in legal:
        return A_SKIP_BUILD
    return best


def _box_value(state: "RollBuilderState", p: "PlayerSheet", i: int) -> float:
    sh = _g(state).sheet
    b = sh.boxes[i]
    v = 1.0 + b.bonus_points + sum(x * y for x, y in zip(b.gain, _RES_VALUE))
    v += 1.5 * (b.bonus_action is not None) + 1.2 * b.innovation_bonus
    return v


def _best_box(state: "RollBuilderState", p: "PlayerSheet", legal: list[int]) -> int | None:

    g = _g(state)
    best, bv = None, -1e9
    for a in legal:
        if g.A_WONDER <= a < g.A_CROSS:
            v = _box_value(state, p, a - g.A_WONDER)
            if v > bv:
                best, bv = a, v
    if best is None and A_SKIP_WONDER in legal:
        return A_SKIP_WONDER
    return best


def _bot_tables(g):  # noqa: ANN001, ANN202 - per-game tables, built once
    """Per-game tables of the bot (cached on the game object): ``valuable`` spaces (icon or
    points), ``space_corner_mask`` per space, and a memo of corner adjacency per open-edge set."""
    t = getattr(g, "_bot_tables", None)
    if t is None:
        sh = g.sheet
        valuable = g.icon_mask | sum(1 << s for s in range(g.n_spaces) if sh.space_points[s])
        scm = [sum(1 << c for c in cs) for cs in sh.space_corners]
        # _space_value's two static terms per space (same expressions, so the same floats)
        space_terms = [
            (sum(a * b for a, b in zip(sh.space_res[s], _RES_VALUE)),
             1.6 * len(sh.space_bonus[s]) + 1.4 * sh.space_ib[s] + 1.5 * len(sh.space_unlock[s]))
            for s in range(g.n_spaces)]
        # _mark_useful per space: (has a bonus/unlock/innovation-bonus icon, resource kinds)
        mark_kinds = [
            (bool(sh.space_bonus[s] or sh.space_unlock[s] or sh.space_ib[s]),
             _kinds_of(sh.space_res[s]))
            for s in range(g.n_spaces)]
        # spaces with printed points; per kind (5 resources, then the innovation bonus) the
        # spaces that give it when marked (the points-first road rule's targets)
        vp_mask = sum(1 << s for s in range(g.n_spaces) if sh.space_points[s])
        kind_spaces = [sum(1 << s for s in range(g.n_spaces) if sh.space_res[s][k])
                       for k in range(5)]
        kind_spaces.append(sum(1 << s for s in range(g.n_spaces) if sh.space_ib[s]))
        t = g._bot_tables = {"valuable": valuable, "space_corner_mask": scm, "adj": {},
                             "roads": {}, "dist": {}, "space_terms": space_terms,
                             "mark_kinds": mark_kinds, "vp_mask": vp_mask,
                             "kind_spaces": kind_spaces}
    return t


def _corner_adjacency(g, open_e: int) -> list[int]:  # noqa: ANN001
    """Per corner, the bitset of corners one open edge away (memoised per ``open_e``)."""
    memo = _bot_tables(g)["adj"]
    adj = memo.get(open_e)
    if adj is None:
        sh = g.sheet
        adj = [0] * sh.n_corners
        for e, (a, b) in enumerate(sh.edge_corners):
            if open_e >> e & 1:
                adj[a] |= 1 << b
                adj[b] |= 1 << a
        memo[open_e] = adj
    return adj


def _road_choice(state: "RollBuilderState", p: "PlayerSheet", legal: list[int]) -> int | None:
    """Road that connects the most value now; else the one leading towards value: the first
    candidate (in id order) of highest :func:`_road_values` value (0.0 for unscored ones).

    Memoised per game on everything the values read (roads, marks, buildings, blocked edges, full
    hexagons, toll availability); at most 5000 positions kept."""
    g = _g(state)
    lo = g.A_ROAD
    i = bisect_left(legal, lo)
    j = bisect_left(legal, g.A_MARK, i)
    if i == j:
        return None
    toll_on = p.road_toll is not None and p.tolls_taken < p.road_actions
    to_points = _points_first()
    key = (p.roads, p.blocked, p.marked, p.built, p.full_hexagons, p.full_hexagon_uses, toll_on, j - i,
           (p.crossed, p.discovered) if to_points else None)
    memo = _bot_tables(g)["roads"]
    best = memo.get(key)
    if best is not None:
        return best
    best, bv = legal[i], 0.0  # scored values are all > 0: an unscored road wins only if all are
    values = _road_values(state, p, legal[i:j])
    if to_points:
        far = _points_distance(state, p)
        if far is None:
            to_points = False
        else:
            best, bk = None, None
            ends = g.sheet.edge_corners
            corners = p.corners
            scored = dict(values)
            for a in legal[i:j]:
                e = a - lo
                c1, c2 = ends[e]
                c = c2 if corners >> c1 & 1 else c1
                if corners >> c & 1:
                    continue
                k = (-far.get(c, 99), scored.get(e, 0.0))
                if bk is None or k > bk:
                    best, bk = a, k
            if best is None or bk[0] <= -99:
                best, bv = legal[i], 0.0
                to_points = False
    if not to_points:
        for e, v in values:
            if v > bv:
                best, bv = lo + e, v
    if len(memo) >= 5000:
        memo.clear()
    memo[key] = best
    return best


def _road_values(state: "RollBuilderState", p: "PlayerSheet",
                 roads: list[int]) -> list[tuple[int, float]]:
    """``(edge, value)`` in edge order for the road actions ``roads`` whose value is not 0.0.

    Value: for each end point not yet reached, the values of the unconnected spaces there
    (points + :func:`_space_value` + 0.15) plus ``1 / (1 + distance to valuable spaces)``; +0.6
    for a road toll still available this turn; +0.5 per road beyond 3 around a space that can
    still become a full hexagon. Every candidate touches the network, so it has at most one new
    end point; a candidate with no new end point, toll or hexagon term is worth exactly 0.0."""
    g = _g(state)
    sh = g.sheet
    lo = g.A_ROAD
    toll_on = p.road_toll is not None and p.tolls_taken < p.road_actions
    unconn = ~p.connected
    corners = p.corners
    edge_corners = sh.edge_corners
    # full-hexagon progress: spaces that could still become a full hexagon with 4+ roads
    hex_bonus: dict[int, float] = {}
    special = sh.toll_edges if toll_on else 0  # edges with a toll or hexagon term
    if p.full_hexagon_uses < sh.hex_max:
        built = p.roads
        sem = g.space_edge_mask
        for s in bit_indices(p.connected & ~p.full_hexagons, g.space_bytes):
            have = (built & sem[s]).bit_count()
            if have >= 4:
                hex_bonus[s] = 0.5 * (have - 3)
                special |= sem[s]
    need = 0  # end points of candidate roads not reached yet: the only distances used
    scored: list[tuple[int, int]] = []  # (edge, new end point or -1)
    for a in roads:
        e = a - lo
        c1, c2 = edge_corners[e]
        if not corners >> c1 & 1:
            need |= 1 << c1
            scored.append((e, c1))
        elif not corners >> c2 & 1:
            need |= 1 << c2
            scored.append((e, c2))
        elif special >> e & 1:
            scored.append((e, -1))
    if not scored:
        return []
    dist = _corner_distance(state, p)
    # value of reaching each new end point (spaces summed in bit order, then the distance)
    corner_value: dict[int, float] = {-1: 0.0}
    val: dict[int, float] = {}
    corner_spaces = sh.corner_spaces
    for c in bit_indices(need, (need.bit_length() + 7) // 8):
        v = 0.0
        m = corner_spaces[c] & unconn
        while m:
            low = m & -m
            s = low.bit_length() - 1
            x = val.get(s)
            if x is None:
                x = val[s] = sh.space_points[s] * 1.0 + _space_value(state, p, s) + 0.15
            v += x
            m ^= low
        corner_value[c] = v + 1.0 / (1 + dist.get(c, 9))
    toll = sh.toll_edges if toll_on else 0
    out = []
    for e, c in scored:
        v = corner_value[c]
        if special >> e & 1:
            if toll >> e & 1:
                v += 0.6
            for s in sh.edge_spaces[e]:
                x = hex_bonus.get(s)
                if x:
                    v += x
        out.append((e, v))
    return out


ROAD_TO_POINTS = True
"""Whether :func:`valued_action` (``hard``/``expert``) places its roads, in play and in its
look-ahead, towards the printed points still unconnected (:func:`_points_distance`) rather than
by greedy's :func:`_road_values`. Issue 16's sixth session, ``expert`` on ``bench_bots.py``'s
seeds 20000-20039 paired against main: highcrag 78.47 against 78.20 (+0.28 ± 0.52; more
buildings, a resource point less in half the games), with :data:`BUILDING_WEIGHT` 79.15 (+0.95
± 0.64)."""

STORED_SPEND_LEFT: dict[str, int] = {"highcrag": 0}
"""Sheet id -> the most circles an innovation may have left (that one included) for
:func:`valued_action`'s policy to pay one with stored wealth before the last turn (greedy, and
sheets not listed: 2). Stored wealth scores a point per two at the end: on highcrag, whose
storage holds 6, the spend left 5 and cost a resources point in 49 of 80 games (issue 16's
seventh session, with :func:`_rollout_best`); 0 (never) +0.43 (paired, ± 0.33) over seeds
1000-1029 against 2, 1 +0.03 (± 0.26)."""

ROAD_SHORT_EDGES = 6
"""With :data:`ROAD_TO_POINTS`, the spaces whose resource kind is short (:func:`_short_kinds`)
are road targets too, as if this many edges farther than they are; -1: never."""

_MODE = threading.local()
"""Per thread: ``points_first`` is True while :func:`valued_action` plays (the server runs bots
in threads, so the switch must not leak into another bot's move)."""


def _points_first() -> bool:
    return getattr(_MODE, "points_first", False)


def _points_distance(state: "RollBuilderState", p: "PlayerSheet") -> dict[int, int] | None:
    """Per corner, the distance in open edges (at most 40) to the nearest corner of a space not
    connected yet with printed points or with a resource (or innovation bonus) that is short
    (:func:`_short_kinds`, :data:`ROAD_SHORT_EDGES` farther than it is); None when every space
    with printed points is connected."""
    g = _g(state)
    spaces = ~p.connected & _bot_tables(g)["vp_mask"]
    if not spaces:
        return None
    far = _corner_distance(state, p, spaces, 40)
    if ROAD_SHORT_EDGES < 0:
        return far
    near = _short_distance(state, p)
    if not near:
        return far
    out = dict(far)
    for c, d in near.items():
        d += ROAD_SHORT_EDGES
        if d < out.get(c, 99):
            out[c] = d
    return out


def _short_distance(state: "RollBuilderState", p: "PlayerSheet") -> dict[int, int]:
    """Per corner, the distance in open edges (at most 40) to the nearest corner of an
    unconnected space with a resource (or innovation bonus) of a short kind
    (:func:`_short_kinds`); empty when there is none."""
    g = _g(state)
    kind_spaces = _bot_tables(g)["kind_spaces"]
    short = _short_kinds(state, p)
    spaces = 0
    for k in range(6):
        if short >> k & 1:
            spaces |= kind_spaces[k]
    spaces &= ~p.connected
    return _corner_distance(state, p, spaces, 40) if spaces else {}


def _short_kinds(state: "RollBuilderState", p: "PlayerSheet") -> int:
    """Bitset of the kinds (0-4 resources, 5 innovation bonus) of which the open circles of the
    undiscovered innovations outnumber the units on connected unmarked spaces."""
    g = _g(state)
    sh = g.sheet
    open_c = ~p.crossed & g.all_circles
    for i, c in enumerate(g.innov_circles):
        if p.discovered >> i & 1:
            open_c &= ~c
    have = [0] * 6
    for s in bit_indices(p.connected & ~p.marked & g.icon_mask, g.space_bytes):
        res = sh.space_res[s]
        for k in range(5):
            have[k] += res[k]
        have[5] += sh.space_ib[s]
    short = 0
    for k in range(6):
        if (g.kind_circles[k] & open_c).bit_count() > have[k]:
            short |= 1 << k
    return short


def _corner_distance(state: "RollBuilderState", p: "PlayerSheet",
                     spaces: int | None = None, reach: int = 8) -> dict[int, int]:
    """Heuristic: for corners, distance (in edges, at most 8) to the nearest corner touching a
    valuable unconnected space, by breadth-first search over usable, open edges from those
    corners (farther corners are absent).

    The result depends only on the valuable unconnected spaces and the open edges, which change
    far less often than the roads: it is memoised per game on those two bitsets (256 kept)."""
    g = _g(state)
    sh = g.sheet
    t = _bot_tables(g)
    if spaces is None:
        spaces = ~p.connected & t["valuable"]
    open_e = sh.usable_edges & ~p.blocked
    key = (spaces, open_e, reach)
    memo = t["dist"]
    dist = memo.get(key)
    if dist is not None:
        return dist
    scm = t["space_corner_mask"]
    targets = 0
    for s in bit_indices(spaces, g.space_bytes):
        targets |= scm[s]
    adj = _corner_adjacency(g, open_e)
    nb = (sh.n_corners + 7) // 8
    dist = dict.fromkeys(bit_indices(targets, nb), 0)
    visited = frontier = targets
    d = 0
    while frontier and d < reach:
        d += 1
        nxt = 0
        for c in bit_indices(frontier, nb):
            nxt |= adj[c]
        nxt &= ~visited
        visited |= nxt
        for c in bit_indices(nxt, nb):
            dist[c] = d
        frontier = nxt
    if len(memo) >= 256:
        memo.clear()
    memo[key] = dist
    return dist


def policy_action(state: "RollBuilderState", player: int, legal: list[int] | None = None,
                  allow_die: bool = True) -> int:
    """The heuristic policy's step (no look-ahead). With ``allow_die`` False, die choices are
    never returned if anything else is legal."""

    g = _g(state)
    sh = g.sheet
    p = state.players[player]
    if legal is None:
        legal = state.legal_actions(player)
    ls = set(legal)
    if p.second_mark_of >= 0:
        return _best_build(state, p, legal) or legal[0]
    a = _alloc(state, p, ls)
    if a is not None and a in ls:
        return a
    if p.pending_builds:
        b = _best_build(state, p, legal)
        if b is not None:
            return b
    if p.pending_wonders:
        b = _best_box(state, p, legal)
        if b is not None:
            return b
    # mark useful spaces whose gains can be used
    lo = bisect_left(legal, g.A_MARK)
    hi = bisect_left(legal, g.A_BUILD, lo)
    if lo < hi:
        kinds = _useful_kinds(g, p)
        for a in legal[lo:hi]:
            if _mark_useful(state, p, a - g.A_MARK, kinds):
                return a
    if p.roads_left:
        r = _road_choice(state, p, legal)
        if r is not None:
            return r
    # stored wealth into an innovation that it completes or nearly completes
    near = STORED_SPEND_LEFT.get(sh.id, 2) if _points_first() else 2
    for a in legal[bisect_left(legal, g.A_CROSS):]:
        if (a - g.A_CROSS) % 3 == 2:
            k = (a - g.A_CROSS) // 3
            i = sh.circles[k][0]
            left = (g.innov_circles[i] & ~p.crossed).bit_count()
            if left <= near or TURNS - state.turn <= 1:
                return a
    for c in (A_CARAVAN, A_CARAVAN + 1):
        if c in ls and state.turn >= 13:
            return c
    if allow_die:
        dies = [a for a in legal if A_DIE <= a < A_BOTH + 3]
        if dies:
            # default: road with the higher die, build with the lower
            return dies[0]
    if A_DONE in ls:
        return A_DONE
    return legal[0]


def _useful_kinds(g, p: "PlayerSheet") -> int:  # noqa: ANN001
    """Bitset of resource kinds (0-4) a gained unit of which could be used: an open circle of
    that kind, a favor/strength track not at its end, a free wealth storage circle."""
    crossed = p.crossed
    kinds = 0
    for k in range(5):
        if g.kind_circles[k] & ~crossed:
            kinds |= 1 << k
    if p.favor < g.favor_max:
        kinds |= 1 << 3
    if p.strength < g.strength_max:
        kinds |= 1 << 4
    if p.wealth_marked < g.wealth_storage:
        kinds |= 1 << 2
    return kinds


def _mark_useful(state: "RollBuilderState", p: "PlayerSheet", s: int, kinds: int) -> bool:
    """True when marking ``s`` gains an icon, or a resource of a kind in ``kinds``
    (:func:`_useful_kinds`)."""
    g = _g(state)
    sh = g.sheet
    icon, res = _bot_tables(g)["mark_kinds"][s]
    if icon:
        return True
    # gains are non-negative (sheet validation: 0-9), so a kind is gained iff some term has it
    if p.gain_on_mountain_mark is not None and sh.mountain_mask >> s & 1:
        res |= _kinds_of(p.gain_on_mountain_mark)
    if p.gain_on_water_mark is not None and sh.water_adjacent >> s & 1:
        res |= _kinds_of(p.gain_on_water_mark)
    return bool(res & kinds)


def _kinds_of(gain: tuple[int, ...]) -> int:
    """Bitset of the resource kinds with a positive count in ``gain``."""
    m = 0
    for k in range(5):
        if gain[k]:
            m |= 1 << k
    return m


def _finish_turn(state: "RollBuilderState", player: int, limit: int = 200) -> None:
    """Play ``player``'s turn to its end with the policy (die choices: policy default)."""
    p = state.players[player]

    for _ in range(limit):
        if p.done or state.is_terminal() or state.current_player() == CHANCE:
            return
        legal = state._legal_actions(player)
        if not legal:
            return
        a = _die_policy(state, player, legal)
        if a == A_DONE and state.turn in BONUS_TURNS and not p.turn_bonus_given:
            state.apply_legal(a, player)
            continue
        if a == A_DONE:
            return
        state.apply_legal(a, player)
        p = state.players[player]


def _die_policy(state: "RollBuilderState", player: int, legal: list[int]) -> int:
    """Policy with a simple die rule for the rollout: high die to roads, else build."""

    a = policy_action(state, player, legal, allow_die=False)
    if A_DIE <= a < A_DIE + 8 or a == A_DONE:
        dies = [x for x in legal if A_DIE <= x < A_DIE + 8]
        if dies:
            best, bv = dies[0], -1e9
            for x in dies:
                i, k = divmod(x - A_DIE, 4)
                v = state.dice[i]
                score = {USE_ROAD: v * 1.0, USE_BUILD: 2.5 + 0.1 * v, USE_WONDER: 2.0 + 0.1 * v,
                         USE_SKIP: -5}[k]
                if score > bv:
                    best, bv = x, score
            return best
    return a


def greedy_action(state: "RollBuilderState", player: int, rng: random.Random) -> int:
    """Greedy move: die decisions by look-ahead to the end of the turn, the rest by the policy."""

    legal = state.legal_actions(player)
    if len(legal) == 1:
        return legal[0]
    dies = [a for a in legal if A_DIE <= a < A_BOTH + 3]
    p = state.players[player]
    a = policy_action(state, player, legal, allow_die=False)
    if not dies or not (a == A_DONE or A_DIE <= a < A_BOTH + 3):
        return a
    # die decision: try each die action, finish the turn with the rollout policy, evaluate.
    # On a double with both dice free, "road d2" plays out exactly like "road d1" (same value,
    # same rollout): evaluate each action kind once (the random tie-break is still drawn per
    # action, so the choice is the same as evaluating both).
    double = state.dice[0] == state.dice[1] and p.dice_used == 0
    seen: dict[int, float] = {}
    best, bv = None, -1e18
    for d in dies:
        kind = (d - A_DIE) % 4 if double and d < A_BOTH else -1
        value = seen.get(kind) if kind >= 0 else None
        if value is None:
            s = state.clone()
            s.apply_legal(d, player)
            _finish_turn(s, player)
            value = evaluate(s, player)
            if kind >= 0:
                seen[kind] = value
        v = value + rng.random() * 1e-6
        if v > bv:
            best, bv = d, v
    return best if best is not None else a


# ----------------------------------------------------------------------------- fitted value
# A fitted value of a sheet at a turn boundary, for the hard/expert bots (valued_action).
#
# value_features() describes a player's sheet by counts that matter for the rest of the game;
# fitted_value() is the score now plus a linear estimate of the points still to come:
#     value = score + sum_j r**j * sum_k w[j][k] * f[k]      (j = 0, 1, 2)
# with r the turns still to play (0 once the game is over: the value is then the score). The
# weights were fitted by ridge least squares to the points the bots went on to make from each
# turn boundary of their games (benchmarks/fit_roll_builder_value.py, seeds 30000+ that
# benchmarks/bench_bots.py does not use); they are per shipped sheet (data/value_weights.json,
# keyed by sheet id and checked against the sheet's shape). A sheet without weights (an
# uploaded one) has no fitted value (fitted_value returns None): the bots fall back. It is a
# heuristic of the bots, not a rule.

_WEIGHTS: dict[str, tuple[tuple[float, ...], ...]] | None = None


def value_weights() -> dict[str, tuple[tuple[float, ...], ...]]:
    """Sheet id -> the fitted weights (one tuple per power of the turns left, one weight per
    :func:`value_features` entry), read once from the package's data/value_weights.json."""
    global _WEIGHTS
    if _WEIGHTS is None:
        import json
        from importlib import resources

        text = resources.files("citybuilders.games.roll_builder").joinpath(
            "data/value_weights.json").read_text(encoding="utf-8")
        _WEIGHTS = {k: tuple(tuple(float(x) for x in row) for row in rows)
                    for k, rows in json.loads(text)["weights"].items()}
    return _WEIGHTS


def turns_left(state: "RollBuilderState", player: int = 0) -> int:
    """Turns still to play at a turn boundary: 0 once the game is over, else the turns from the
    current one to the last (1-15), less the current one once ``player`` has ended it."""
    if state.over:
        return 0
    return TURNS - state.turn + (0 if state.players[player].done else 1)


def _tables(g):  # noqa: ANN001, ANN202 - per-game feature tables, cached on the game
    t = getattr(g, "_value_tables", None)
    if t is None:
        sh = g.sheet
        n = sh.n_spaces
        vp = [s for s in range(n) if sh.space_points[s]]
        res = [sh.space_res[s] for s in range(n)]
        bonus = [len(sh.space_bonus[s]) for s in range(n)]
        ib = [sh.space_ib[s] for s in range(n)]
        locked = [i for i, b in enumerate(sh.boxes) if b.locked]
        t = g._value_tables = {"vp": vp, "res": res, "bonus": bonus, "ib": ib, "locked": locked}
    return t


def feature_names(g) -> list[str]:  # noqa: ANN001
    """Names of :func:`value_features`'s entries for game ``g`` (its sheet's innovations and boxes)."""
    sh = g.sheet
    names = ["one", "vp_unconnected", "vp_next", "res_connected", "res_next",
             "bonus_connected", "bonus_next", "ib_connected", "free_land", "connected",
             "favor", "strength", "favor_room", "strength_room", "stored", "storage_room",
             "roads_placed", "hex_uses", "boxes_ready"]
    names += [f"res_connected_{k}" for k in ("food", "supplies", "wealth", "favor", "strength")]
    names += [f"circles_left_{k}" for k in ("food", "supplies", "wealth", "favor", "strength",
                                            "bonus")]
    names += [f"progress_{inn.id}" for inn in sh.innovations]
    names += [f"discovered_{inn.id}" for inn in sh.innovations]
    names += [f"filled_{b.id}" for b in sh.boxes]
    names += [f"unlocked_{sh.boxes[i].id}" for i in _tables(g)["locked"]]
    return names


def value_features(state: "RollBuilderState", player: int) -> list[float]:
    """Features of ``player``'s sheet (in :func:`feature_names` order); counts, 0/1 flags and
    fractions, all >= 0.

    * ``vp_unconnected`` — points printed on spaces not connected yet; ``vp_next`` — those of
      them next to a connected space;
    * ``res_*``/``bonus_*``/``ib_connected`` — resource units, bonus actions and innovation
      bonuses on unmarked spaces that are connected (``*_connected``) or next to a connected
      space (``*_next``);
    * ``free_land`` — connected land spaces without a building; ``connected`` — spaces connected;
    * track positions and the spaces left on them, stored wealth and the storage circles left,
      roads placed, full hexagons rewarded;
    * per innovation the share of its circles crossed (0 once discovered) and whether it is
      discovered; per box whether it is filled; per locked box whether it is unlocked."""
    g = state.game
    sh = g.sheet
    p = state.players[player]
    t = _tables(g)
    conn = p.connected
    nxt = g.neighbours_of(conn) & ~conn
    vp_u = vp_n = 0
    pts = sh.space_points
    for s in t["vp"]:
        if not conn >> s & 1:
            vp_u += pts[s]
            if nxt >> s & 1:
                vp_n += pts[s]
    res, bonus, ib = t["res"], t["bonus"], t["ib"]
    rc = rn = bc = bn = ic = 0
    kinds = [0, 0, 0, 0, 0]
    m = (conn | nxt) & ~p.marked & g.icon_mask
    while m:
        low = m & -m
        s = low.bit_length() - 1
        m ^= low
        if conn & low:
            rs = res[s]
            rc += sum(rs)
            for k in range(5):
                kinds[k] += rs[k]
            bc += bonus[s]
            ic += ib[s]
        else:
            rn += sum(res[s])
            bn += bonus[s]
    free_land = (conn & sh.land_mask & ~p.built).bit_count()
    stored = p.wealth_marked - p.wealth_spent
    f = [1.0, float(vp_u), float(vp_n), float(rc), float(rn), float(bc), float(bn), float(ic),
         float(free_land), float(conn.bit_count()), float(p.favor), float(p.strength),
         float(g.favor_max - p.favor), float(g.strength_max - p.strength), float(stored),
         float(g.wealth_storage - p.wealth_marked), float(p.roads_placed),
         float(p.full_hexagon_uses)]
    ready = g.req_ok.get(p.filled)
    if ready is None:
        ready = g.boxes_ready(p.filled)
    f.append(float((ready & p.unlocked & ~p.filled).bit_count()))
    f += [float(x) for x in kinds]
    open_c = ~p.crossed & g.all_circles
    for i in range(len(g.innov_circles)):
        if p.discovered >> i & 1:
            open_c &= ~g.innov_circles[i]
    f += [float((g.kind_circles[k] & open_c).bit_count()) for k in range(6)]
    crossed, disc = p.crossed, p.discovered
    circles = g.innov_circles
    for i in range(len(circles)):
        if disc >> i & 1:
            f.append(0.0)
        else:
            c = circles[i]
            f.append((c & crossed).bit_count() / c.bit_count())
    for i in range(len(circles)):
        f.append(float(disc >> i & 1))
    filled = p.filled
    for i in range(len(sh.boxes)):
        f.append(float(filled >> i & 1))
    for i in t["locked"]:
        f.append(float(p.unlocked >> i & 1))
    return f


def fitted_value(state: "RollBuilderState", player: int) -> float | None:
    """Score + fitted points to come (module docstring) of ``player`` at a turn boundary; None
    when the sheet has no weights (:func:`value_weights`)."""
    g = state.game
    w = getattr(g, "_value_weights", False)
    if w is False:
        w = value_weights().get(g.sheet.id)
        if w is not None and len(w[0]) != len(feature_names(g)):
            w = None  # same id, another shape: not the shipped sheet
        g._value_weights = w
    if w is None:
        return None
    total = float(sum(state.player_parts(player).values()))
    r = turns_left(state, player)
    if r == 0:
        return total
    f = value_features(state, player)
    v = 0.0
    rk = 1.0
    for wk in w:
        part = 0.0
        for x, c in zip(f, wk):
            if x:
                part += x * c
        v += part * rk
        rk *= r
    return total + v


PLAN_RATE = 800
"""Turn endings (a clone played to the end of the turn by the policy, then evaluated) the
planner allows itself per second of its budget; a count, not a clock, so the planned move is the
same for the same seed on any machine. ``expert`` (1 s: 800) spends at most 8 x 8 + 3 x 21 x 8 =
568 (the slowest move measured 0.3 s of CPU at a load average of ~12); ``hard`` (0.25 s: 200) has
the two-dice look-ahead only."""


def _die_actions(legal: list[int]) -> list[int]:
    return [a for a in legal if A_DIE <= a < A_BOTH + 3]


def _to_die_decision(state: "RollBuilderState", player: int, limit: int = 200) -> list[int]:
    """Play ``player``'s non-die steps with the policy (as greedy would) until a die decision
    (returns its die actions) or the end of the turn (returns [])."""
    for _ in range(limit):
        p = state.players[player]
        if p.done or state.is_terminal() or state.current_player() == CHANCE:
            return []
        legal = state._legal_actions(player)
        if not legal:
            return []
        dies = _die_actions(legal)
        a = policy_action(state, player, legal, allow_die=False)
        if dies and (a == A_DONE or A_DIE <= a < A_BOTH + 3):
            return dies
        if a == A_DONE and not (state.turn in BONUS_TURNS and not p.turn_bonus_given):
            return []
        state.apply_legal(a, player)
    return []


def _turn_value(state: "RollBuilderState", player: int, die: int) -> float:
    """:func:`evaluate` after ``die`` and the rest of the turn played by the rollout policy."""
    s = state.clone()
    s.apply_legal(die, player)
    _finish_turn(s, player)
    return evaluate(s, player)


def planned_action(state: "RollBuilderState", player: int, rng: random.Random,
                   seconds: float) -> int | None:
    """A look-ahead over both dice of the turn (the order they are used in, which die for
    which action): at a die decision, every die action is followed by the policy up to the next
    die decision of the same turn, where every die action is tried again (each finished with
    the rollout policy and valued by :func:`evaluate`); a first choice is worth its best second
    choice. The dice still to be rolled are never looked at. Steps that are not die decisions,
    and die decisions whose look-ahead exceeds the budget (``seconds`` × :data:`PLAN_RATE` turn
    endings), are greedy's. Random ties (one ``rng.random()`` per first choice, as greedy).
    Returns None when ``player`` is not to play."""
    if state.current_player() != player:
        return None
    legal = state.legal_actions(player)
    dies = _die_actions(legal)
    if len(legal) == 1 or not dies:
        return greedy_action(state, player, rng)
    a = policy_action(state, player, legal, allow_die=False)
    if not (a == A_DONE or A_DIE <= a < A_BOTH + 3):
        return a
    budget = int(seconds * PLAN_RATE)
    if len(dies) * len(dies) > budget:
        return greedy_action(state, player, rng)
    best, bv = None, -1e18
    for d in dies:
        s = state.clone()
        s.apply_legal(d, player)
        second = _to_die_decision(s, player)
        if second:
            value = max(_turn_value(s, player, d2) for d2 in second)
        else:
            _finish_turn(s, player)
            value = evaluate(s, player)
        v = value + rng.random() * 1e-6
        if v > bv:
            best, bv = d, v
    return best if best is not None else a


VALUE_BOTH_DICE = True
"""Whether :func:`valued_action` looks ahead over both dice when its budget allows."""


VALUE_STEPS = False
"""Whether :func:`valued_action` also chooses the uses of gained units, bonus builds and wonder
boxes by the fitted value (else the policy's choice)."""

VALUE_ALLOC = False
_ALLOC = frozenset(range(A_TRACK, A_DISCARD + 6))


def _step_candidates(state: "RollBuilderState", player: int, legal: list[int],
                     a: int) -> list[int]:
    """The alternatives :func:`valued_action` weighs against the policy's step ``a``: for a unit
    or innovation bonus to use, every track, store, discard and circle paid by a gained unit or
    bonus; for a build, the policy's best site of each building number (and the skip); for a
    wonder action, every box (and the skip). Other steps: ``[a]``."""
    g = _g(state)
    p = state.players[player]
    if p.second_mark_of >= 0:
        return [a]
    if VALUE_ALLOC and (a in _ALLOC or (a >= g.A_CROSS and (a - g.A_CROSS) % 3 != 2)):
        return [x for x in legal if x in _ALLOC or (x >= g.A_CROSS and (x - g.A_CROSS) % 3 != 2)]
    if g.A_BUILD <= a < g.A_WONDER or a == A_SKIP_BUILD:
        out = []
        ns = g.n_spaces
        by_n: dict[int, list[int]] = {}
        for x in legal[bisect_left(legal, g.A_BUILD):bisect_left(legal, g.A_WONDER)]:
            by_n.setdefault((x - g.A_BUILD) // ns, []).append(x)
        for xs in by_n.values():
            b = _best_build(state, p, xs)
            if b is not None:
                out.append(b)
        if A_SKIP_BUILD in legal:
            out.append(A_SKIP_BUILD)
        return out if a in out else [a] + out
    if g.A_WONDER <= a < g.A_CROSS or a == A_SKIP_WONDER:
        return [x for x in legal if g.A_WONDER <= x < g.A_CROSS or x == A_SKIP_WONDER]
    return [a]


def _best_step(state: "RollBuilderState", player: int, cands: list[int], a: int) -> int:
    """The candidate of highest value after the rest of the turn (:func:`_rest_value`); the
    policy's ``a`` wins ties."""
    best, bv = a, None
    for x in cands:
        s = state.clone()
        s.apply_legal(x, player)
        v = _rest_value(s, player)
        if bv is None or v > bv + 1e-9 or (x == a and v >= bv - 1e-9):
            if x == a or bv is None or v > bv + 1e-9:
                best, bv = x, v
    return best


def _rest_value(state: "RollBuilderState", player: int) -> float:
    """Value of ``state`` after the rest of the turn: the policy's steps up to the next die
    decision, there the best die action (each finished by the rollout policy), then
    :func:`_valued`. Plays on ``state``."""
    dies = _to_die_decision(state, player)
    if not dies:
        _end_turn(state, player)
        return _valued(state, player)
    return _best_die_end(state, player, dies)[0]


def _best_die_end(state: "RollBuilderState", player: int,
                  dies: list[int]) -> tuple[float, "RollBuilderState"]:
    """``(value, end)`` of the best of the die actions ``dies`` at a die decision of
    ``state``: each played on a clone, the turn finished by the rollout policy
    (:func:`_end_turn`) and valued by :func:`_valued`; the first of equal values wins.
    ``dies`` must not be empty."""
    value, end = -1e18, state
    for d in dies:
        s = state.clone()
        s.apply_legal(d, player)
        _end_turn(s, player)
        v = _valued(s, player)
        if v > value:
            value, end = v, s
    return value, end


VALUE_MIX = 0.3
"""Share of :func:`evaluate` in :func:`_valued` (the rest is the fitted value) on a sheet not in
:data:`SHEET_VALUE_MIX`: a little of the hand-made potential keeps the bots away from positions
the fit has seen too rarely."""

SHEET_VALUE_MIX: dict[str, float] = {"highcrag": 0.15}
"""Sheet id -> its own :data:`VALUE_MIX`. Highcrag, issue 16's ninth session, ``expert`` paired
against the same games with 0.3 (``benchmarks/tune_roll_builder.py``): seeds 20120-20199 (tuning)
80.00 -> 80.38 (+0.38 ± 0.29), fresh seeds 20040-20119 79.50 -> 79.94 (+0.44 ± 0.30): more
buildings (16.5 a game against 16.2) and the pyramid's top box more often; the fitted value, with
less of the hand-made potential, plans the high dice better."""


BUILDING_WEIGHT: dict[str, float] = {"highcrag": 0.15}
"""Sheet id -> points :func:`_valued` adds per building mark written (beyond the 1 the score
counts), so that ``hard``/``expert`` spend more dice on Build. Highcrag only: its categories
other than buildings are near their maximum (64), so its points to gain are buildings. Issue 16's
sixth session, ``bench_bots.py``'s seeds 20000-20039, paired against the same games without it
(both with :data:`ROAD_TO_POINTS`): 0.15 gave highcrag 79.15 against 78.47 (+0.68); alone (without
the road rule) 0.15 +0.30 (± 0.44), 0.3 -0.17 (± 0.58, buildings 15.9 but the pyramid's top box
lost more often), 0.5 -3.2 over 6 games (buildings 20, wonder 5.5). With the road rule, 0.25
against 0.15: +0.38 (± 0.28) on those games (79.53) but +0.10 (± 0.57) on games 40-59, which
were not used for tuning: not confirmed, 0.15 kept."""


def _valued(state: "RollBuilderState", player: int) -> float:
    """``(1 - mix) * fitted_value + mix * evaluate`` where the sheet has fitted weights
    (:func:`~.value.fitted_value`), else :func:`evaluate`; ``mix`` is the sheet's
    :data:`SHEET_VALUE_MIX`, else :data:`VALUE_MIX`."""
    v = fitted_value(state, player)
    e = evaluate(state, player)
    if v is None:
        return e
    sheet = state.game.sheet.id
    mix = SHEET_VALUE_MIX.get(sheet, VALUE_MIX)
    v = (1.0 - mix) * v + mix * e
    extra = BUILDING_WEIGHT.get(sheet)
    if extra:
        v += extra * sum(state.players[player].building_marks)
    return v


def valued_action(state: "RollBuilderState", player: int, rng: random.Random,
                  seconds: float) -> int | None:
    """The ``hard``/``expert`` move: greedy's search over the die actions (each finished to the
    end of the turn by the policy), valued by the fitted value of the sheet at the end of the
    turn (:func:`~.value.fitted_value`: the score plus the points the rest of the game is
    expected to bring) instead of :func:`evaluate`. With ``seconds`` x :data:`PLAN_RATE` turn
    endings to spend on at least the square of the die actions, the look-ahead covers both dice
    of the turn as :func:`planned_action` does; with more (``expert``), the best first choices
    are compared by rollouts of the next :data:`ROLLOUT_TURNS` turns (:func:`_rollout_best`),
    else, where the budget allows, over the next turn's 21 rolls. Steps that are not die
    decisions are the policy's;
    a sheet without fitted weights plays :func:`planned_action`. One ``rng.random()`` per first
    choice breaks ties. Returns None when ``player`` is not to play."""
    if state.current_player() != player:
        return None
    if fitted_value(state, player) is None:
        return planned_action(state, player, rng, seconds)
    before = _points_first()
    _MODE.points_first = ROAD_TO_POINTS
    try:
        return _valued_move(state, player, rng, seconds)
    finally:
        _MODE.points_first = before


def _valued_move(state: "RollBuilderState", player: int, rng: random.Random,
                 seconds: float) -> int:
    """:func:`valued_action`'s move on a sheet with fitted weights, ``player`` to play."""
    legal = state.legal_actions(player)
    dies = _die_actions(legal)
    if len(legal) == 1:
        return legal[0]
    a = policy_action(state, player, legal, allow_die=False)
    if not dies or not (a == A_DONE or A_DIE <= a < A_BOTH + 3):
        if VALUE_STEPS:
            cands = _step_candidates(state, player, legal, a)
            if len(cands) > 1 and len(cands) * 9 <= int(seconds * PLAN_RATE):
                return _best_step(state, player, cands, a)
        return a
    two = VALUE_BOTH_DICE and len(dies) * len(dies) <= int(seconds * PLAN_RATE)
    p = state.players[player]
    double = state.dice[0] == state.dice[1] and p.dice_used == 0
    seen: dict[int, tuple[float, "RollBuilderState"]] = {}
    scored: list[tuple[float, int, "RollBuilderState"]] = []
    for d in dies:
        kind = (d - A_DIE) % 4 if double and d < A_BOTH else -1
        got = seen.get(kind) if kind >= 0 else None
        if got is None:
            s = state.clone()
            s.apply_legal(d, player)
            second = _to_die_decision(s, player) if two else []
            if second:
                got = _best_die_end(s, player, second)
            else:
                _end_turn(s, player)
                got = (_valued(s, player), s)
            if kind >= 0:
                seen[kind] = got
        scored.append((got[0] + rng.random() * 1e-6, d, got[1]))
    if not scored:
        return a
    best = max(scored)[1]
    if ROLLOUT_SAMPLES > 0 and state.turn < TURNS:
        got = _rollout_best(state, player, rng, seconds, len(dies), scored)
        if got is not None:
            return got
    m = FUTURE_CHOICES
    rolls = _ROLLS if FUTURE_EXACT else None
    k = len(_ROLLS) if FUTURE_EXACT else FUTURE_ROLLS
    if (m > 1 and state.turn < TURNS and len(dies) * len(dies) + m * k * 8
            <= int(seconds * PLAN_RATE)):
        if rolls is None:
            rolls = tuple((rng.randint(1, 6), rng.randint(1, 6), 1.0 / k) for _ in range(k))
        top = sorted(scored, reverse=True)[:m]
        best, bv = top[0][1], -1e18
        for _, d, end in top:
            v = sum(_next_turn_value(end, player, r) * r[2] for r in rolls)
            if v > bv + 1e-9:
                best, bv = d, v
    return best


FUTURE_CHOICES = 3
"""First die choices (the best by the turn's value) :func:`valued_action` compares over the next
turn's rolls when the budget allows (``expert``); 1 or less: never."""
FUTURE_EXACT = True
"""Whether the next turn's rolls are all 21 distinct rolls weighted by their chances
(:data:`_ROLLS`), else :data:`FUTURE_ROLLS` rolls sampled from the bot's own generator (the same
for every compared choice). Measured on highcrag, seeds 1000-1039: +0.47 (paired, ± 0.38)
against 8 sampled rolls."""
FUTURE_ROLLS = 8
"""Next-turn rolls sampled when :data:`FUTURE_EXACT` is off."""
_ROLLS = tuple((x, y, (1 if x == y else 2) / 36) for x in range(1, 7) for y in range(x, 7))
"""The 21 distinct rolls of two dice ``(die 1, die 2, chance)``: the dice are used alike, so
``(x, y)`` stands for ``(y, x)`` too (chance 2/36; a double 1/36)."""


ROLLOUT_SAMPLES = 1
"""Dice sequences (common to every compared choice) over which :func:`_rollout_best` plays the
next :data:`ROLLOUT_TURNS` turns; 0: never (the next turn's 21 rolls instead). With
:data:`ROLLOUT_EXACT_FIRST`, the sequences per each of the 21 first rolls. Issue 16's seventh
session, highcrag, seeds 1000-1079 (tuning): 1 sequence a roll over 3 turns +0.88 (paired, ± 0.29)
against the next turn's 21 rolls; 4 turns no better (-0.17 ± 0.50, 30 games); the policy alone
to the end of the game -1.23 (± 0.87, 30 games: roads and the wonder lost)."""
ROLLOUT_TURNS = 3
"""Turns :func:`_rollout_best` plays after the current one (fewer near the end of the game)."""
ROLLOUT_CHOICES = 3
"""First die choices (the best by the turn's value) :func:`_rollout_best` compares; 0: all."""
ROLLOUT_EXACT_FIRST = True
"""Whether the first rolled turn of the rollouts takes each of the 21 rolls (:data:`_ROLLS`,
weighted by their chances), :data:`ROLLOUT_SAMPLES` sampled continuations each."""
ROLLOUT_POLICY = "valued"
"""How a rolled-out turn is played: ``"valued"`` (the best first die action by :func:`_valued`
after the turn finished by the rollout policy) or ``"policy"`` (the rollout policy alone)."""
ROLLOUT_RATE = 3000
"""Turn endings per second of budget :func:`_rollout_best` may spend (a count, not a clock)."""
ROLLOUT_END_SCORE = True
"""Whether a rollout that reaches the end of the game is worth its score (else :func:`_valued`)."""


def _rollout_dice(rng: random.Random, turns: int) -> list[tuple[float, list[tuple[int, int]]]]:
    """The rollouts' dice: ``(weight, [(die 1, die 2) per turn])``, weights summing to 1, drawn
    from a generator seeded by one ``rng.getrandbits(64)`` (never the game's dice)."""
    r = random.Random(rng.getrandbits(64))
    n = ROLLOUT_SAMPLES

    def tail(k: int) -> list[tuple[int, int]]:
        return [(r.randint(1, 6), r.randint(1, 6)) for _ in range(k)]

    if ROLLOUT_EXACT_FIRST:
        return [(w / n, [(x, y)] + tail(turns - 1)) for x, y, w in _ROLLS for _ in range(n)]
    return [(1.0 / n, tail(turns)) for _ in range(n)]


def _rollout_turn(state: "RollBuilderState", player: int) -> "RollBuilderState":
    """Play ``player``'s turn from its first die decision (or wherever ``state`` is inside it)
    to its end (:func:`_end_turn`); returns the end state (``state`` itself or a clone)."""
    if ROLLOUT_POLICY == "valued":
        dies = _to_die_decision(state, player)
        if dies:
            return _best_die_end(state, player, dies)[1]
    _end_turn(state, player)
    return state


def _rollout_value(end: "RollBuilderState", player: int,
                   seqs: list[tuple[float, list[tuple[int, int]]]]) -> float:
    """Weighted mean over ``seqs`` of the value after their turns played from ``end`` (a turn
    boundary) by :func:`_rollout_turn`: the score once the game is over
    (:data:`ROLLOUT_END_SCORE`), else :func:`_valued`."""
    total = 0.0
    for w, rolls in seqs:
        s = end
        for x, y in rolls:
            if s.is_terminal() or s.current_player() != CHANCE:
                break
            s = s.clone()
            s.apply_legal(x - 1)
            s.apply_legal(y - 1)
            s = _rollout_turn(s, player)
        if ROLLOUT_END_SCORE and s.is_terminal():
            total += w * float(s.scores()[player].total)
        else:
            total += w * _valued(s, player)
    return total


def _rollout_best(state: "RollBuilderState", player: int, rng: random.Random, seconds: float,
                  n_dies: int, scored: list[tuple[float, int, "RollBuilderState"]]) -> int | None:
    """The best of the top :data:`ROLLOUT_CHOICES` first die choices ``scored`` (value, die
    action, end of the turn) by :func:`_rollout_value` over the same dice sequences
    (:func:`_rollout_dice`) for the next :data:`ROLLOUT_TURNS` turns; None when that costs more
    than ``seconds`` x :data:`ROLLOUT_RATE` turn endings (counted as the square of the die
    actions plus ~9 a rolled-out turn with the valued policy, 1 with the policy alone)."""
    turns = min(ROLLOUT_TURNS, TURNS - state.turn)
    top = sorted(scored, reverse=True)
    if ROLLOUT_CHOICES > 0:
        top = top[:ROLLOUT_CHOICES]
    ends: dict[int, tuple[int, "RollBuilderState"]] = {}
    for _, d, end in top:
        ends.setdefault(id(end), (d, end))
    n_seq = ROLLOUT_SAMPLES * (len(_ROLLS) if ROLLOUT_EXACT_FIRST else 1)
    per_turn = 9 if ROLLOUT_POLICY == "valued" else 1
    if n_dies * n_dies + len(ends) * n_seq * turns * per_turn > int(seconds * ROLLOUT_RATE):
        return None
    if len(ends) == 1:
        return top[0][1]
    seqs = _rollout_dice(rng, turns)
    best, bv = top[0][1], -1e18
    for d, end in ends.values():
        v = _rollout_value(end, player, seqs)
        if v > bv + 1e-9:
            best, bv = d, v
    return best


def _end_turn(state: "RollBuilderState", player: int) -> None:
    """:func:`_finish_turn`, then the turn's last ``done`` (so that the value sees the turn as
    played: value.turns_left)."""
    _finish_turn(state, player)
    if (not state.is_terminal() and state.current_player() == player
            and A_DONE in state._legal_actions(player)):
        state.apply_legal(A_DONE, player)


def _next_turn_value(end: "RollBuilderState", player: int,
                     roll: tuple[int, int, float]) -> float:
    """Value after the next turn played on ``end`` (a turn boundary) with the dice ``roll`` (the
    two values; a third entry, the roll's weight, is not read here): the
    best first die action, each finished by the rollout policy and valued by :func:`_valued`."""
    if end.is_terminal() or end.current_player() != CHANCE:
        return _valued(end, player)
    s = end.clone()
    s.apply_legal(roll[0] - 1)
    s.apply_legal(roll[1] - 1)
    return _rest_value(s, player)


class RollBuilderStrategy(Strategy):
    """Roll Builder's evaluation and greedy policy (see the module docstring)."""

    def evaluate(self, state: "RollBuilderState", player: int) -> float:  # type: ignore[override]
        """Score plus a heuristic of future value (:func:`evaluate`)."""
        return evaluate(state, player)

    def greedy_action(self, state: "RollBuilderState", player: int,  # type: ignore[override]
                      rng: random.Random) -> int | None:
        """The heuristic greedy player's move (:func:`greedy_action`)."""
        return greedy_action(state, player, rng)

    def planned_action(self, state: "RollBuilderState", player: int,  # type: ignore[override]
                       rng: random.Random, seconds: float) -> int | None:
        """The die choices valued by the fitted value of the sheet (:func:`valued_action`)."""
        return valued_action(state, player, rng, seconds)
