"""Reference versions of the greedy bot's hot helpers: the first author's code (commit fa9307a),
kept verbatim as oracles for the optimised bot (test_fast_paths.py). Do not optimise."""
from __future__ import annotations

from citybuilders.games.roll_builder.strategy import _RES_VALUE, _g
from citybuilders.games.roll_builder.actions import A_SKIP_BUILD


def _space_value(state: "RollBuilderState", p: "PlayerSheet", s: int) -> float:
    sh = _g(state).sheet
    v = 0.0
    if not p.marked >> s & 1:
        v += sum(a * b for a, b in zip(sh.space_res[s], _RES_VALUE))
        v += 1.6 * len(sh.space_bonus[s]) + 1.4 * sh.space_ib[s] + 1.5 * len(sh.space_unlock[s])
    if sh.land_mask >> s & 1 and not p.bld1 >> s & 1:
        v += 0.35
    return v


def _best_build(state: "RollBuilderState", p: "PlayerSheet", legal: list[int]) -> int | None:
    g = _g(state)
    sh = g.sheet
    best, bv = None, -1e9
    lo, hi = g.A_BUILD, g.A_WONDER
    for a in legal:
        if lo <= a < hi:
            n, s = divmod(a - lo, sh.n_spaces)
            b = sh.buildings[n]
            v = 1.0 + sum(x * y for x, y in zip(b.gain, _RES_VALUE))
            if b.extra_if == "adjacent_to_water" and sh.water_adjacent >> s & 1:
                v += sum(x * y for x, y in zip(b.extra_gain, _RES_VALUE))
            if b.extra_if == "on_or_adjacent_to_mountain" and sh.mountain_near >> s & 1:
                v += sum(x * y for x, y in zip(b.extra_gain, _RES_VALUE))
            v += 1.5 * (b.bonus_action is not None) + b.marks - 1
            if p.guild < 0 and b.marks == 1 and not b.shares_space:
                v += 0.0
            # keep icon spaces and water/mountain-bonus spaces for later: prefer plain spaces
            v -= 0.05 * bool(g.icon_mask >> s & 1)
            v -= 0.01 * s / sh.n_spaces
            if v > bv:
                best, bv = a, v
    if best is None and A_SKIP_BUILD in legal:
        return A_SKIP_BUILD
    return best


def _road_choice(state: "RollBuilderState", p: "PlayerSheet", legal: list[int]) -> int | None:
    """Road that connects the most value now; else the one leading towards value."""
    g = _g(state)
    sh = g.sheet
    cand = [a - g.A_ROAD for a in legal if g.A_ROAD <= a < g.A_MARK]
    if not cand:
        return None
    # value of each unconnected space
    unconn = ~p.connected
    val = {}
    best, bv = None, -1e9
    dist = _corner_distance(state, p)
    for e in cand:
        v = 0.0
        for c in sh.edge_corners[e]:
            if not p.corners >> c & 1:
                m = sh.corner_spaces[c] & unconn
                while m:
                    low = m & -m
                    s = low.bit_length() - 1
                    if s not in val:
                        val[s] = sh.space_points[s] * 1.0 + _space_value(state, p, s) + 0.15
                    v += val[s]
                    m ^= low
                v += 1.0 / (1 + dist.get(c, 9))
        if sh.toll_edges >> e & 1 and p.toll is not None and p.tolls < p.road_actions:
            v += 0.6
        # full hexagon progress
        for s in sh.edge_spaces[e]:
            m = g.space_edge_mask[s]
            if p.hex_uses < sh.hex_max and not p.hex_done >> s & 1:
                have = (p.roads & m).bit_count()
                if have >= 4:
                    v += 0.5 * (have - 3)
        if v > bv:
            best, bv = e, v
    return g.A_ROAD + best


def _road_values(state: "RollBuilderState", p: "PlayerSheet", legal: list[int]) -> dict[int, float]:
    """Every candidate road's value, as computed inside ``_road_choice`` (same code)."""
    values: dict[int, float] = {}
    g = _g(state)
    sh = g.sheet
    cand = [a - g.A_ROAD for a in legal if g.A_ROAD <= a < g.A_MARK]
    if not cand:
        return {}
    # value of each unconnected space
    unconn = ~p.connected
    val = {}
    best, bv = None, -1e9
    dist = _corner_distance(state, p)
    for e in cand:
        v = 0.0
        for c in sh.edge_corners[e]:
            if not p.corners >> c & 1:
                m = sh.corner_spaces[c] & unconn
                while m:
                    low = m & -m
                    s = low.bit_length() - 1
                    if s not in val:
                        val[s] = sh.space_points[s] * 1.0 + _space_value(state, p, s) + 0.15
                    v += val[s]
                    m ^= low
                v += 1.0 / (1 + dist.get(c, 9))
        if sh.toll_edges >> e & 1 and p.toll is not None and p.tolls < p.road_actions:
            v += 0.6
        # full hexagon progress
        for s in sh.edge_spaces[e]:
            m = g.space_edge_mask[s]
            if p.hex_uses < sh.hex_max and not p.hex_done >> s & 1:
                have = (p.roads & m).bit_count()
                if have >= 4:
                    v += 0.5 * (have - 3)
        values[e] = v
    return values


def _corner_distance(state: "RollBuilderState", p: "PlayerSheet") -> dict[int, float]:
    """Heuristic: for corners, distance (in edges) to the nearest corner touching valuable
    unconnected space, by BFS from those corners over usable edges."""
    g = _g(state)
    sh = g.sheet
    target = 0
    unconn = ~p.connected
    m = unconn & (g.icon_mask | sum(1 << s for s in range(sh.n_spaces) if sh.space_points[s]))
    targets = []
    while m:
        low = m & -m
        s = low.bit_length() - 1
        targets.extend(sh.space_corners[s])
        m ^= low
    dist: dict[int, float] = {c: 0 for c in targets}
    frontier = list(dist)
    open_e = sh.usable_edges & ~p.blocked
    d = 0
    while frontier and d < 8:
        d += 1
        nxt = []
        for c in frontier:
            em = sh.corner_edges[c] & open_e
            while em:
                low = em & -em
                e = low.bit_length() - 1
                em ^= low
                a, b = sh.edge_corners[e]
                o = b if a == c else a
                if o not in dist:
                    dist[o] = d
                    nxt.append(o)
        frontier = nxt
    del target
    return dist


def _mark_useful(state: "RollBuilderState", p: "PlayerSheet", s: int) -> bool:
    g = _g(state)
    sh = g.sheet
    if sh.space_bonus[s] or sh.space_unlock[s] or sh.space_ib[s]:
        return True
    res = list(sh.space_res[s])
    if p.g_mountain is not None and sh.mountain_mask >> s & 1:
        res = [a + b for a, b in zip(res, p.g_mountain)]
    if p.g_water is not None and sh.water_adjacent >> s & 1:
        res = [a + b for a, b in zip(res, p.g_water)]
    if not any(res):
        return False
    open_kinds = {kind for k, (_, kind) in enumerate(sh.circles) if not p.crossed >> k & 1}
    for k, n in enumerate(res):
        if not n:
            continue
        if k in open_kinds:
            return True
        if k == 3 and p.favor < len(sh.tracks[0]) - 1:
            return True
        if k == 4 and p.strength < len(sh.tracks[1]) - 1:
            return True
        if k == 2 and p.w_marked < sh.wealth_storage:
            return True
    return False
