"""Reference legal-move generator: the first author's straightforward ``_legal_actions`` (commit
cf1d7ec), kept verbatim as an oracle for the optimised engine (test_fast_paths.py).

Do not optimise this file: its value is that it is the obvious transcription of the rules.
"""
from __future__ import annotations

from citybuilders.core.game import CHANCE
from citybuilders.games.roll_builder.actions import (
    A_BOTH, A_CARAVAN, A_DIE, A_DISCARD, A_DONE, A_ROLL, A_SKIP_BUILD, A_SKIP_WONDER, A_STORE,
    A_TRACK,
)
from citybuilders.games.roll_builder.game import RollBuilderGame
from citybuilders.games.roll_builder.loader import FAVOR, STRENGTH, WEALTH
from citybuilders.games.roll_builder.rules.player_sheet import PlayerSheet
from citybuilders.games.roll_builder.rules.state import RollBuilderState


def reference_legal_actions(self: RollBuilderState, player: int) -> list[int]:
    if player == CHANCE:
        return [A_ROLL + i for i in range(6)]
    g: RollBuilderGame = self.game  # type: ignore[assignment]
    sh = g.sheet
    p = self.players[player]
    if p.done:
        return []
    out: list[int] = []
    if p.guild >= 0:
        m = g.neighbor_mask[p.guild] & p.connected & sh.land_mask & ~p.bld1
        base = g.A_BUILD + 5 * sh.n_spaces
        while m:
            low = m & -m
            out.append(base + low.bit_length() - 1)
            m ^= low
        return out
    blocking = bool(p.pbuild or p.pwonder or p.pib) or (g.immediate and any(p.pres))
    # resolution of pending gains
    if any(p.pres) or p.pib:
        open_c = ~p.crossed
        for k in range(5):
            if p.pres[k]:
                m = g.kind_circles[k] & open_c
                while m:
                    low = m & -m
                    out.append(g.A_CROSS + 3 * (low.bit_length() - 1))
                    m ^= low
                out.append(A_DISCARD + k)
        if p.pres[FAVOR] and p.favor < len(sh.tracks[0]) - 1:
            out.append(A_TRACK)
        if p.pres[STRENGTH] and p.strength < len(sh.tracks[1]) - 1:
            out.append(A_TRACK + 1)
        if p.pres[WEALTH] and p.w_marked < sh.wealth_storage:
            out.append(A_STORE)
        if p.pib:
            m = ((1 << g.n_circles) - 1) & open_c
            while m:
                low = m & -m
                out.append(g.A_CROSS + 3 * (low.bit_length() - 1) + 1)
                m ^= low
            out.append(A_DISCARD + 5)
    if p.pbuild:
        anyb = 0 in p.pbuild
        for n in range(1, 7):
            if anyb or n in p.pbuild:
                m = _build_sites(self, p, n)
                base = g.A_BUILD + (n - 1) * sh.n_spaces
                while m:
                    low = m & -m
                    out.append(base + low.bit_length() - 1)
                    m ^= low
        out.append(A_SKIP_BUILD)
    if p.pwonder:
        m = 0
        for v in set(p.pwonder):
            m |= _wonder_boxes(self, p, v)
        while m:
            low = m & -m
            out.append(g.A_WONDER + low.bit_length() - 1)
            m ^= low
        out.append(A_SKIP_WONDER)
    if blocking:
        out.sort()
        return out
    # free actions
    d = self.dice
    for i in range(2):
        if not p.used >> i & 1:
            base = A_DIE + 4 * i
            v = d[i]
            if _road_edges(self, p):
                out.append(base)
            if _build_sites(self, p, v):
                out.append(base + 1)
            if _wonder_boxes(self, p, v):
                out.append(base + 2)
            out.append(base + 3)
    if g.combine and p.used == 0:
        v = d[0] + d[1]
        if _road_edges(self, p):
            out.append(A_BOTH)
        if v <= 6 and _build_sites(self, p, v):
            out.append(A_BOTH + 1)
        if _wonder_boxes(self, p, v):
            out.append(A_BOTH + 2)
    if p.roads_left:
        m = _road_edges(self, p)
        while m:
            low = m & -m
            out.append(g.A_ROAD + low.bit_length() - 1)
            m ^= low
    if not g.mark_after_road or p.road_actions:
        m = _markable(self, p)
        while m:
            low = m & -m
            out.append(g.A_MARK + low.bit_length() - 1)
            m ^= low
    avail = p.w_marked - p.w_turn - p.w_spent
    if avail > 0:
        m = g.kind_circles[WEALTH] & ~p.crossed
        while m:
            low = m & -m
            out.append(g.A_CROSS + 3 * (low.bit_length() - 1) + 2)
            m ^= low
    if p.caravan is not None and not p.caravan_used and avail >= p.caravan[0]:
        for c in p.caravan[1]:
            out.append(A_CARAVAN + (0 if c == "favor" else 1))
    if p.used == 3 and not (g.all_roads and p.roads_left and _road_edges(self, p)):
        out.append(A_DONE)
    if g.immediate or not any(p.pres):
        out.sort()
        return out
    out.sort()
    return out

def _road_edges(self: RollBuilderState, p: PlayerSheet) -> int:
    sh = self.game.sheet  # type: ignore[attr-defined]
    return p.frontier & ~p.roads & sh.usable_edges & ~p.blocked

def _markable(self: RollBuilderState, p: PlayerSheet) -> int:
    g: RollBuilderGame = self.game  # type: ignore[assignment]
    sh = g.sheet
    want = g.icon_mask
    if p.g_mountain is not None:
        want |= sh.mountain_mask
    if p.g_water is not None:
        want |= sh.water_adjacent & sh.markable_mask
    return p.connected & ~p.marked & want

def _build_sites(self: RollBuilderState, p: PlayerSheet, n: int) -> int:
    """Bitset of spaces where building ``n`` may be written now (first mark for 2-mark ones)."""
    g: RollBuilderGame = self.game  # type: ignore[assignment]
    sh = g.sheet
    b = sh.buildings[n - 1]
    base = p.connected & sh.land_mask
    m = base & ~(p.bld2 if b.shares_space else p.bld1)
    if b.placement != "any":
        m &= sh.dock_ok
    if b.marks == 2:
        free = base & ~p.bld1
        ok = 0
        mm = m & free
        while mm:
            low = mm & -mm
            s = low.bit_length() - 1
            if g.neighbor_mask[s] & free:
                ok |= low
            mm ^= low
        m = ok
    return m

def _wonder_boxes(self: RollBuilderState, p: PlayerSheet, v: int) -> int:
    """Bitset of boxes a Wonder action of value ``v`` (0 = bonus, no value) may fill."""
    g: RollBuilderGame = self.game  # type: ignore[assignment]
    sh = g.sheet
    out = 0
    cand = p.unlocked & ~p.filled
    while cand:
        low = cand & -cand
        i = low.bit_length() - 1
        cand ^= low
        if g.box_req[i] & ~p.filled:
            continue
        if v:
            box = sh.boxes[i]
            if v not in box.values:
                continue
            if sh.ascending and any(p.wvals[r] > v for r in box.requires):
                continue
        out |= low
    return out

