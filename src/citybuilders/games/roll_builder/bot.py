"""Roll Builder greedy player: a heuristic step policy plus a search over die assignments.

* :func:`policy_action` — fast rule-based choice for every non-die step: allocate gained units to the
  innovation closest to completion (else tracks, storage), mark useful connected spaces, place
  roads that connect the most valuable spaces (else step towards them), choose build sites and
  wonder boxes by value.
* :func:`greedy_action` — at a die decision it tries every legal die action, finishes the turn
  with the policy (second die included) on a clone and keeps the best :func:`evaluate`.

``evaluate`` = current score + a potential (value of connected unmarked icons, innovation progress,
open road frontier, stored wealth); it is a heuristic, not a rule.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from citybuilders.core.game import CHANCE, TERMINAL

if TYPE_CHECKING:  # pragma: no cover
    from .game import PlayerSheet, RollBuilderState

__all__ = ["evaluate", "greedy_action", "policy_action"]

_RES_VALUE = (0.6, 0.6, 0.7, 0.8, 0.8)


def _g(state: "RollBuilderState"):  # noqa: ANN202 - small helper
    return state.game


def _innov_need(state: "RollBuilderState", p: "PlayerSheet") -> list[tuple[float, int]]:
    """(priority, innovation) for undiscovered innovations: points / remaining circles."""
    g = _g(state)
    sh = g.sheet
    out = []
    for i, inn in enumerate(sh.innovations):
        if p.discovered >> i & 1:
            continue
        left = (g.innov_circles[i] & ~p.crossed).bit_count()
        value = inn.points + 1.5 * (len(inn.effects) and inn.effects[0]["type"] != "points_only")
        out.append((value / (left + 0.5), i))
    out.sort(reverse=True)
    return out


def _space_value(state: "RollBuilderState", p: "PlayerSheet", s: int) -> float:
    sh = _g(state).sheet
    v = 0.0
    if not p.marked >> s & 1:
        v += sum(a * b for a, b in zip(sh.space_res[s], _RES_VALUE))
        v += 1.6 * len(sh.space_bonus[s]) + 1.4 * sh.space_ib[s] + 1.5 * len(sh.space_unlock[s])
    if sh.land_mask >> s & 1 and not p.bld1 >> s & 1:
        v += 0.35
    return v


def evaluate(state: "RollBuilderState", player: int) -> float:
    """Score + heuristic potential of ``player``'s sheet (higher is better)."""
    g = _g(state)
    sh = g.sheet
    p = state.players[player]
    total = float(sum(state.player_parts(player).values()))
    turns_left = 15 - state.turn
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
    free_land = (p.connected & sh.land_mask & ~p.bld1).bit_count()
    pot += min(free_land, 2 * turns_left) * 0.25
    pot += 0.3 * min(p.stored, 2 * turns_left) * (1 if turns_left else 0)
    # pending gains not yet used count a little (they are resolved by the policy)
    pot += 0.5 * sum(p.pres) + 1.0 * p.pib + 1.5 * len(p.pbuild) + 1.5 * len(p.pwonder)
    return total + pot * (1.0 if turns_left > 0 else 0.2)


# ----------------------------------------------------------------------------- step policy
def _alloc(state: "RollBuilderState", p: "PlayerSheet", legal: set[int]) -> int | None:
    """Resolve one pending resource unit or innovation bonus."""
    from .game import A_DISCARD, A_STORE, A_TRACK

    g = _g(state)
    sh = g.sheet
    need = _innov_need(state, p)
    rank = {i: r for r, (_, i) in enumerate(need)}
    # innovation bonus: IB-only circle of a good innovation, else the innovation closest to done
    if p.pib:
        best, bv = None, -1e9
        for k, (i, kind) in enumerate(sh.circles):
            a = g.A_CROSS + 3 * k + 1
            if a in legal:
                v = -rank.get(i, 99) + (3 if kind == 5 else 0)
                if v > bv:
                    best, bv = a, v
        if best is not None:
            return best
        return A_DISCARD + 5
    for kind in (0, 1, 3, 4, 2):
        if not p.pres[kind]:
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
        turns_left = 15 - state.turn
        if kind in (3, 4):
            track = A_TRACK if kind == 3 else A_TRACK + 1
            t = sh.tracks[0 if kind == 3 else 1]
            crossed = p.favor if kind == 3 else p.strength
            if track in legal:
                gain = t[crossed + 1] - t[crossed]
                # prefer the track when it pays 1+ and innovations are far away
                if best is None or (gain >= 1 and bv < -1) or gain >= 2:
                    return track
            if best is not None:
                return best
            return A_DISCARD + kind
        if kind == 2:
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


def _best_build(state: "RollBuilderState", p: "PlayerSheet", legal: list[int]) -> int | None:
    from .game import A_SKIP_BUILD

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


def _box_value(state: "RollBuilderState", p: "PlayerSheet", i: int) -> float:
    sh = _g(state).sheet
    b = sh.boxes[i]
    v = 1.0 + b.bonus_points + sum(x * y for x, y in zip(b.gain, _RES_VALUE))
    v += 1.5 * (b.bonus_action is not None) + 1.2 * b.innovation_bonus
    return v


def _best_box(state: "RollBuilderState", p: "PlayerSheet", legal: list[int]) -> int | None:
    from .game import A_SKIP_WONDER

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


def policy_action(state: "RollBuilderState", player: int, legal: list[int] | None = None,
                  allow_die: bool = True) -> int:
    """The heuristic policy's step (no look-ahead). With ``allow_die`` False, die choices are
    never returned if anything else is legal."""
    from .game import A_BOTH, A_CARAVAN, A_DIE, A_DONE, A_SKIP_WONDER, A_SKIP_BUILD

    g = _g(state)
    sh = g.sheet
    p = state.players[player]
    if legal is None:
        legal = state.legal_actions(player)
    ls = set(legal)
    if p.guild >= 0:
        return _best_build(state, p, legal) or legal[0]
    a = _alloc(state, p, ls)
    if a is not None and a in ls:
        return a
    if p.pbuild:
        b = _best_build(state, p, legal)
        if b is not None:
            return b
    if p.pwonder:
        b = _best_box(state, p, legal)
        if b is not None:
            return b
    # mark useful spaces whose gains can be used
    for a in legal:
        if g.A_MARK <= a < g.A_BUILD:
            s = a - g.A_MARK
            if _mark_useful(state, p, s):
                return a
    if p.roads_left:
        r = _road_choice(state, p, legal)
        if r is not None:
            return r
    # stored wealth into an innovation that it completes or nearly completes
    for a in legal:
        if g.A_CROSS <= a and (a - g.A_CROSS) % 3 == 2:
            k = (a - g.A_CROSS) // 3
            i = sh.circles[k][0]
            left = (g.innov_circles[i] & ~p.crossed).bit_count()
            if left <= 2 or 15 - state.turn <= 1:
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


def _finish_turn(state: "RollBuilderState", player: int, limit: int = 200) -> None:
    """Play ``player``'s turn to its end with the policy (die choices: policy default)."""
    p = state.players[player]
    from .game import A_DONE

    for _ in range(limit):
        if p.done or state.is_terminal() or state.current_player() == CHANCE:
            return
        legal = state._legal_actions(player)
        if not legal:
            return
        a = _die_policy(state, player, legal)
        if a == A_DONE and state.turn in (5, 10, 15) and not p.bonus_given:
            state.apply_legal(a, player)
            continue
        if a == A_DONE:
            return
        state.apply_legal(a, player)
        p = state.players[player]


def _die_policy(state: "RollBuilderState", player: int, legal: list[int]) -> int:
    """Policy with a simple die rule for the rollout: high die to roads, else build."""
    from .game import A_DIE

    a = policy_action(state, player, legal, allow_die=False)
    if A_DIE <= a < A_DIE + 8 or a == 17:
        dies = [x for x in legal if A_DIE <= x < A_DIE + 8]
        if dies:
            best, bv = dies[0], -1e9
            for x in dies:
                i, k = divmod(x - A_DIE, 4)
                v = state.dice[i]
                score = {0: v * 1.0, 1: 2.5 + 0.1 * v, 2: 2.0 + 0.1 * v, 3: -5}[k]
                if score > bv:
                    best, bv = x, score
            return best
    return a


def greedy_action(state: "RollBuilderState", player: int, rng: random.Random) -> int:
    """Greedy move: die decisions by look-ahead to the end of the turn, the rest by the policy."""
    from .game import A_BOTH, A_DIE

    legal = state.legal_actions(player)
    if len(legal) == 1:
        return legal[0]
    dies = [a for a in legal if A_DIE <= a < A_BOTH + 3]
    p = state.players[player]
    a = policy_action(state, player, legal, allow_die=False)
    if not dies or not (a == 17 or A_DIE <= a < A_BOTH + 3):
        return a
    # die decision: try each die action, finish the turn with the rollout policy, evaluate
    best, bv = None, -1e18
    for d in dies:
        s = state.clone()
        s.apply_legal(d, player)
        _finish_turn(s, player)
        v = evaluate(s, player) + rng.random() * 1e-6
        if v > bv:
            best, bv = d, v
    return best if best is not None else a
