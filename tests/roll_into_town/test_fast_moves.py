"""The fast move generators (cached empty-cell blocks, bitset placement masks, shift-based flood
fills) against a plain reference written cell by cell from the rules, over random games."""

from __future__ import annotations

import random

import pytest
from rit_helpers import BUILD, DISCOVER, MAINTAIN, game, sheet, state_at

from citybuilders.bots import make_bot
from citybuilders.core.game import CHANCE
from citybuilders.games.roll_into_town import rules as R
from citybuilders.games.roll_into_town.actions import COLLECT, NVAR, RIVER_VAR, V_COAST


# ----------------------------------------------------------------------------- reference
def ref_can_place(sh: R.Sheet, kind: int, anchor: int) -> bool:
    """Placement rules cell by cell (the first author's implementation)."""
    geo = sh.geo
    r0, c0 = divmod(anchor, geo.cols)
    free = lambda i: sh.terrain[i] == R.EMPTY and sh.bld[i] == 0  # noqa: E731
    if kind == R.K_HARBOR:
        return sh.terrain[anchor] == R.COAST and sh.bld[anchor] == 0
    if kind == R.K_WATERMILL:
        if not free(anchor):
            return False
        for s in range(4):
            j = geo.side_nb[anchor][s]
            if j >= 0 and sh.terrain[j] == R.RIVER and not sh.sides[j] >> ((s + 2) & 3) & 1:
                return True
        return False
    if kind == R.K_LIGHTHOUSE:
        if r0 + 1 >= geo.rows:
            return False
        top, bot = anchor, anchor + geo.cols
        if sh.bld[top] or sh.terrain[top] not in (R.EMPTY, R.OCEAN, R.COAST) or sh.bld[bot]:
            return False
        if sh.terrain[bot] == R.COAST:
            return True
        return sh.terrain[bot] == R.EMPTY and any(sh.terrain[j] == R.COAST
                                                  for j in geo.nb8[bot])
    if kind in (R.K_CATHEDRAL, R.K_CATHEDRAL_M):
        for dr, dc, _ in R.BUILD_KINDS[kind][1]:
            r, c = r0 + dr, c0 + dc
            if r >= geo.rows or c >= geo.cols or not free(r * geo.cols + c):
                return False
        return True
    return free(anchor)


def ref_group(sh: R.Sheet, cell: int) -> int:
    comp, todo = {cell}, [cell]
    while todo:
        i = todo.pop()
        for j in sh.geo.nb4[i]:
            if sh.terrain[j] == R.TREE and j not in comp:
                comp.add(j)
                todo.append(j)
    return sum(1 << i for i in comp)


def ref_room(sh: R.Sheet, group: int) -> int:
    room = {j for i in range(sh.geo.n) if group >> i & 1 for j in sh.geo.nb4[i]
            if sh.terrain[j] == R.EMPTY and sh.bld[j] == 0}
    return sum(1 << j for j in room)


def ref_legal(s, p: int) -> list[int]:
    """Legal actions of ``p`` from the rules, without caches or masks."""
    g = s.game
    n = g.n_cells
    sh = s.sheets[p]
    empty = [i for i in range(n) if sh.terrain[i] == R.EMPTY and sh.bld[i] == 0]
    if s.phase == DISCOVER:
        if s.pending_coast[p] >= 0:
            return list(g.coast_sides)
        out = []
        if s.to_draw[p] > 0:
            seen = set()
            for d, v in enumerate(s.dice[p]):
                key = (v, s.adjusted[p] >> d & 1)
                if s.used[p] >> d & 1 or key in seen:
                    continue
                seen.add(key)
                for icon in ((v,) if v < 6 else (1, 2, 3, 4, 5)):
                    if icon <= 3:
                        out += [(d * NVAR + icon - 1) * n + c for c in empty]
                    elif icon == 5:
                        out += [(d * NVAR + V_COAST) * n + c for c in empty]
                    else:
                        out += [(d * NVAR + RIVER_VAR[m]) * n + c for c, m in sh.river_options()]
        fountain = (sh.unique_built & R.UNIQUE_BIT["fountain"] and sh.fountain_uses > 0
                    and len(s.dice[p]) - s.used[p].bit_count() > s.to_draw[p])
        if sh.hall_uses > 0 and (s.to_draw[p] > 0 or fountain):
            for d, v in enumerate(s.dice[p]):
                if s.used[p] >> d & 1 or s.adjusted[p] >> d & 1:
                    continue
                if 2 <= v <= 6:
                    out.append(g.A_ADJ + 2 * d)
                if v <= 4:
                    out.append(g.A_ADJ + 2 * d + 1)
        if fountain:
            out.append(g.A_FOUNTAIN)
        if s.to_draw[p] <= 0 or not any(a < g.A_ADJ for a in out):
            out.append(g.A_DONE)
        return sorted(out)
    if s.phase == BUILD:
        out = []
        for kind in range(len(R.BUILD_KINDS)):
            if R.KIND_UNIQUE[kind] & sh.unique_built:
                continue
            if any(sh.res[r] < R.KIND_COST[kind][r] for r in range(3)):
                continue
            out += [g.A_BUILD + kind * n + c for c in range(n) if ref_can_place(sh, kind, c)]
        out += s._trade_options(p)
        if not s.trade_pending[p] or not out:
            out.append(g.A_DONE)
        return sorted(out)
    if s.phase == COLLECT:
        return [g.A_CUT + i for i in range(n) if sh.bld[i] == R.B_LUMBERJACK
                and any(sh.terrain[j] == R.TREE for j in sh.geo.nb8[i])] + [g.A_DONE]
    if s.phase == MAINTAIN:
        room = 0
        for cell, count in s.growth[p]:
            if count > 0:
                room |= ref_room(sh, ref_group(sh, cell))
        if room:
            return [g.A_GROW + i for i in range(n) if room >> i & 1]
        return [g.A_DONE]
    return []


# ----------------------------------------------------------------------------- tests
OPTION_SETS = [
    {},
    {"coast_two_side_shape": "corner_only", "ocean_sides_rule": "perpendicular_pair"},
    {"market_timing": "only_while_paying", "ocean_check_timing": "invariant"},
    {"rows": 7, "cols": 5},
]


@pytest.mark.parametrize("opts", OPTION_SETS)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_fast_legal_actions_equal_the_reference_over_random_games(opts, bot):
    g = game(**opts)
    checked = 0
    for seed in range(3):
        players = 1 + seed % 2
        s = g.new_initial_state(players, seed)
        rng = random.Random(seed)
        bots = [make_bot(bot, seed * 7 + p) for p in range(players)]
        while not s.is_terminal():
            cp = s.current_player()
            if cp == CHANCE:
                s.apply_legal(s.sample_chance(rng))
                continue
            for p in s.active_players():
                assert s.legal_actions(p) == ref_legal(s, p)
                checked += 1
            # an occasional clone must not share caches with the original
            if rng.random() < 0.05:
                c = s.clone()
                assert c.legal_actions(cp) == s.legal_actions(cp)
            s.apply_legal(bots[cp].step(s, cp), cp)
    assert checked > 100


def test_free_plus_cache_follows_filled_and_freed_cells():
    sh = R.Sheet(R.geometry(5, 5))
    full = [i for i in range(25) if i != 12]
    assert sh.free_plus(0) == full and sh.free_plus(100) == [100 + i for i in full]
    sh.draw_simple(3, R.TREE)
    sh.draw_simple(20, R.FARM)
    sh.place(R.K_HOUSE, 7)
    left = [i for i in full if i not in (3, 7, 20)]
    assert sh.free_plus(100) == [100 + i for i in left]  # entries deleted in place
    assert sh.free_plus(0) == left
    sh.place(R.K_LUMBERJACK, 4)
    assert sh.cut(4) == 1  # the tree at 3 is erased: a freed cell rebuilds the cache
    assert sh.free_plus(100) == sorted(100 + i for i in left + [3] if i != 4)
    edge = sh.geo.river_start_mask[0]  # N-S pieces start on the top and bottom rows
    assert R._bits(edge) == [0, 1, 2, 3, 4, 20, 21, 22, 23, 24]
    assert sh.free_plus(500, edge) == [500 + i for i in (0, 1, 2, 3, 21, 22, 23, 24)]
    sh.draw_simple(22, R.MOUNTAIN)
    sh.draw_simple(11, R.MOUNTAIN)
    assert sh.free_plus(500, edge) == [500 + i for i in (0, 1, 2, 3, 21, 23, 24)]
    assert 111 not in sh.free_plus(100) and 122 not in sh.free_plus(100)
    c = sh.clone()
    c.draw_simple(0, R.FARM)
    assert 100 in sh.free_plus(100) and 100 not in c.free_plus(100)


def test_anchor_masks_match_placement_rules_on_a_mixed_map():
    sh = sheet([
        ". . c:S . .",
        "oc c:NW . r:EW r:EW",
        ". . TH mo .",
        "fa . . . tr",
        ". HO . . .",
    ])
    for kind in range(len(R.BUILD_KINDS)):
        expect = sum(1 << c for c in range(25) if ref_can_place(sh, kind, c))
        assert sh.anchor_mask(kind) == expect, R.BUILD_KINDS[kind][0]
    # spot values: harbor on both coasts; watermill beside the river's sides, not its ends
    assert R._bits(sh.anchor_mask(R.K_HARBOR)) == [2, 6]
    assert R._bits(sh.anchor_mask(R.K_WATERMILL)) == [3, 4, 14]  # 13 is a mountain
    assert R._bits(sh.anchor_mask(R.K_LIGHTHOUSE)) == [1, 2, 5, 6]
    # the cathedral (P-pentomino, plain and mirrored) needs five empty cells on the map
    sh = sheet([
        ". . . . .",
        ". . mo . .",
        ". . TH . .",
        ". . . . .",
        ". . . . .",
    ])
    for kind in (R.K_CATHEDRAL, R.K_CATHEDRAL_M):
        expect = sum(1 << c for c in range(25) if ref_can_place(sh, kind, c))
        assert sh.anchor_mask(kind) == expect
    # anchor = top-left of the 2x3 box; (1,2) mountain and (2,2) town hall block the middle
    assert R._bits(sh.anchor_mask(R.K_CATHEDRAL)) == [0, 3, 5, 8, 10, 11, 13]
    assert R._bits(sh.anchor_mask(R.K_CATHEDRAL_M)) == [0, 3, 5, 8, 10, 12, 13]


def test_spread_flood_fill_groups_and_room():
    sh = sheet([
        "tr tr . tr .",
        ". tr . tr tr",
        ". . TH . .",
        "tr . . . tr",
        "tr . . . .",
    ])
    groups = sh.tree_groups(sh.trees)
    assert [R._bits(x) for x in groups] == [[0, 1, 6], [3, 8, 9], [15, 20], [19]]
    for x in groups:
        low = (x & -x).bit_length() - 1
        assert sh.group_of(low) == x == ref_group(sh, low)
        assert sh.growth_room(x) == ref_room(sh, x)
    # the shifts never wrap from one row's end to the next row's start
    assert sh.geo.spread4(1 << 4) == (1 << 3) | (1 << 9)
    assert sh.geo.spread4(1 << 5) == (1 << 0) | (1 << 6) | (1 << 10)


def test_state_at_build_phase_uses_masks():
    s = state_at(BUILD, res=(0, 3, 2))
    legal = s.legal_actions(0)
    assert legal == ref_legal(s, 0)
    assert not any(s.game.A_BUILD + R.K_LIGHTHOUSE * 81 <= a < s.game.A_BUILD
                   + (R.K_LIGHTHOUSE + 1) * 81 for a in legal)  # no coast: no lighthouse
