"""The Roll into Town sheet's kept counts and mask shortcuts against plain recounts.

``Sheet._income`` (farms, watermills, harbors, quarry stone) and ``Sheet.lumberjacks`` are kept
up to date by the sheet's own changes; ``Sheet.ocean_check`` walks only the cells that may turn
to ocean; ``geometry.nth_bit`` picks a set bit by word, half word and byte counts and
``geometry.bits`` lists a few bits one by one. Each is compared here with a cell-by-cell
reference on sheets changed at random (every building kind, coasts, cuts) or random masks,
besides the random games of test_playout_steps.py.
"""

from __future__ import annotations

import random

import pytest

from citybuilders.games.roll_into_town import rules as R
from citybuilders.games.roll_into_town.rules.geometry import nth_bit


def ref_income(sh: R.Sheet) -> tuple[int, int]:
    """The collect-phase income counted cell by cell (rulebook collect phase)."""
    farms = sh.terrain.count(R.FARM)
    food = farms * (1 + sh.bld.count(R.B_WATERMILL)) + sh.bld.count(R.B_HARBOR)
    stone = sum(1 for i in range(sh.geo.n) if sh.bld[i] == R.B_QUARRY
                for j in sh.geo.nb8[i] if sh.terrain[j] == R.MOUNTAIN)
    return food, stone


def ref_lumberjacks(sh: R.Sheet) -> list[int]:
    """Lumberjack cells with a tree among their 8 neighbours, cell by cell."""
    return [i for i in range(sh.geo.n) if sh.bld[i] == R.B_LUMBERJACK
            and any(sh.terrain[j] == R.TREE for j in sh.geo.nb8[i])]


def ref_ocean_check(sh: R.Sheet, rule: str) -> int:
    """The ocean rule applied to the whole map until nothing changes, cell by cell."""
    made = 0
    changed = True
    while changed:
        changed = False
        for i in range(sh.geo.n):
            if not sh._ocean_candidate(i):
                continue
            w = sh.water_sides(i)
            if rule == "perpendicular_pair":
                ok = bool(w & (R.N_ | R.S_)) and bool(w & (R.E_ | R.W_))
            else:
                ok = w.bit_count() >= 2
            if ok:
                sh.terrain[i], sh.sides[i] = R.OCEAN, 0
                made += 1
                changed = True
    sh.derive_masks()
    return made


def _random_change(sh: R.Sheet, rng: random.Random, rule: str) -> str:
    """One random rules change of ``sh``: a draw, a coast (with its ocean check), a river
    piece, a building where one may stand, or a lumberjack's cut."""
    roll = rng.random()
    if roll < 0.45 and sh.free:
        cell = rng.choice(R.bits(sh.free))
        t = rng.choice((R.FARM, R.MOUNTAIN, R.TREE, R.TREE, R.COAST))
        sh.draw_simple(cell, t)
        if t == R.COAST:
            before = sh.clone()
            before.terrain[cell], before.sides[cell] = R.COAST, rng.choice(R.COAST_MASKS)
            made = sh.draw_coast(cell, before.sides[cell], rule)
            assert made == ref_ocean_check(before, rule)
            assert (sh.terrain, sh.sides, sh.free) == (before.terrain, before.sides, before.free)
        return "draw"
    if roll < 0.55 and sh.river_options():
        sh.draw_river(*rng.choice(sh.river_options()))
        return "river"
    if roll < 0.65 and sh.lumberjacks_with_trees():
        sh.cut(rng.choice(sh.lumberjacks_with_trees()), "after_each_coast", rule)
        return "cut"
    kind = rng.randrange(len(R.BUILD_KINDS))
    m = sh.anchor_mask(kind)
    if m and not R.KIND_UNIQUE[kind] & sh.unique_built:
        sh.place(kind, rng.choice(R.bits(m)))
        return R.BUILD_KINDS[kind][0]
    return ""


@pytest.mark.parametrize("rule", ["any_two", "perpendicular_pair"])
def test_kept_counts_and_ocean_check_follow_random_changes(rule: str) -> None:
    done: set[str] = set()
    for seed in range(30):
        rng = random.Random(seed)
        sh = R.Sheet(R.geometry(7, 7))
        for _ in range(50):
            done.add(_random_change(sh, rng, rule))
            assert sh.income() == ref_income(sh)
            assert sh._income == sh.income_parts()
            assert sh.lumberjacks_with_trees() == ref_lumberjacks(sh)
        c = sh.clone()
        c.derive_masks()
        assert (c._income, c.lumberjacks, c.free) == (sh._income, sh.lumberjacks, sh.free)
    assert {"draw", "river", "cut", "quarry", "harbor", "watermill", "lumberjack",
            "lighthouse"} <= done, done


def test_bits_and_nth_bit_are_the_cell_by_cell_lists_on_every_map_size() -> None:
    rng = random.Random(7)
    for n in (25, 35, 49, 81, 121, 225):
        for _ in range(60):
            mask = rng.getrandbits(n) & rng.getrandbits(n) | 1 << rng.randrange(n)
            listed = R.bits(mask)
            assert listed == [i for i in range(n) if mask >> i & 1]
            assert [nth_bit(mask, r) for r in range(len(listed))] == listed
            sparse = 1 << rng.randrange(n) | 1 << rng.randrange(n) | 1 << rng.randrange(n)
            assert R.bits(sparse) == [i for i in range(n) if sparse >> i & 1]
