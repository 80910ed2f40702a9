"""The city's compact cells (a ``bytearray``, owners an ``array("b")``) and ``City.place``'s
candidates (one ``set.update`` per new cell from ``CANDIDATES_OF``) on every city of seeded random
games: the scoring's zone groups equal a cell-by-cell reference fill over a plain list copy of
the cells, every visible block's owner is a placement, and the candidate set is the
offset-by-offset rule's."""

from __future__ import annotations

import random

import citybuilders
from citybuilders.core.game import CHANCE, TERMINAL
from citybuilders.games.sprawlopolis.actions import WIDTH
from citybuilders.games.sprawlopolis.loader import ZONE_MASK
from citybuilders.games.sprawlopolis.rules.city import CAND_OFFSETS
from citybuilders.games.sprawlopolis.scoring import Analysis


def _reference_groups(cells: list[int], occ: list[int]):
    group_of: dict[int, int] = {}
    groups: list[tuple[int, list[int]]] = []
    largest = [0, 0, 0, 0, 0]
    for i in occ:
        if i in group_of:
            continue
        z = cells[i] & ZONE_MASK
        k = len(groups)
        group_of[i] = k
        members = [i]
        for j in members:
            for n in (j + 1, j - 1, j + WIDTH, j - WIDTH):
                if cells[n] & ZONE_MASK == z and n not in group_of:
                    group_of[n] = k
                    members.append(n)
        groups.append((z, members))
        if len(members) > largest[z]:
            largest[z] = len(members)
    return group_of, groups, largest


def test_flood_fill_and_candidates_match_the_reference() -> None:
    g = citybuilders.load_game("sprawlopolis")
    cities = 0
    for seed in range(12):
        s = g.new_initial_state(1 + seed % 3, seed)
        rng = random.Random(seed)
        while s.current_player() != TERMINAL:
            if s.current_player() == CHANCE:
                s.apply_legal(s.sample_chance(rng))
                continue
            s.apply_legal(s.sample_action(rng))
            city = s.city
            a = Analysis(city.cells, city.occ, g.rules)
            group_of, groups, largest = _reference_groups(list(city.cells), city.occ)
            assert a.group_of == group_of
            assert a.groups == groups
            assert a.largest == largest
            assert city.cand == {i - d for i in city.occ for d in CAND_OFFSETS}
            assert [city.owner[i] >= 0 for i in range(len(city.cells))] == [
                bool(code) for code in city.cells]
            assert all(city.placements[city.owner[i]][0] for i in city.occ)
            cities += 1
    assert cities > 150
