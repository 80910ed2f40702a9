"""Each condition, base scoring rule and rules option on small hand-made cities (exact values)."""

from __future__ import annotations

import pytest

from citybuilders.games.sprawlopolis.scorefile import cards_city
from citybuilders.games.sprawlopolis.scoring import Analysis, Rules, score_city

from .helpers import analysis, cond, score

HOLE_ROAD = ["R R R", "R-NE . R", "R R R"]  # (1,0) ends N at a road-less block and E at a hole
PARK_BY_HOLE = ["R R R", "R P R", "R . R", "R R R"]
COMMERCIAL_BY_HOLE = ["R R R", "R C R", "R . R", "R R R"]
TWO_LOOPS = ["R-ES R-SW R-ES R-SW", "R-NE R-NW R-NE R-NW"]
U_AROUND_ONE_PARK = ["R-ES R-EW R-SW", "R-NE P R-NW"]


# ------------------------------------------------------------------ base scoring
def test_rulebook_blocks_example() -> None:
    # rulebook: groups of 2 commercial, 2 industrial, 4 park, 3 residential -> 11 block points
    rows = ["C C I I", "P P P P", "R R R ."]
    b = score(rows, (3, 6, 10))
    assert b.groups == {"commercial": 2, "industrial": 2, "residential": 3, "park": 4}
    assert b.blocks == 11 and b.roads == 0


def test_only_largest_group_scores_and_diagonals_do_not_join() -> None:
    b = score(["R P R", "P R P"], (3, 6, 10))
    assert b.groups["residential"] == 1 and b.groups["park"] == 1


def test_road_count_and_total_and_target() -> None:
    b = score(["C-EW C-EW P", "P C-EW P"], (1, 13, 3))
    assert b.roads == 2 and b.road_tax == 2
    assert b.conditions == {1: 0, 13: 3, 3: 3 - 0}
    assert b.total == b.blocks - 2 + 0 + 3 + 3
    assert b.target == 17 and b.won is False


def test_t_contact_does_not_join_roads() -> None:
    # the N-S piece in row 1 reaches the side of an E-W piece that does not reach back
    assert len(analysis(["C-EW C-EW C-EW", ". C-NS ."]).roads) == 2


def test_lone_piece_is_a_road_and_loop_is_one_road() -> None:
    assert len(analysis(["C-NE"]).roads) == 1
    a = analysis(TWO_LOOPS)
    assert len(a.roads) == 2 and all(r.is_loop for r in a.roads)


def test_covering_splits_roads_and_hides_blocks() -> None:
    # card 1 alone has 2 roads; card 2 on its right column leaves a lone C-EW piece and one
    # 3-section road; covered blocks are gone (Go Green counts 2 parks, 1 industrial)
    city = cards_city([{"card": 1, "row": 0, "col": 0, "rot": 0},
                       {"card": 2, "row": 0, "col": 1, "rot": 0}], [])
    a = Analysis(city.cells, city.occ, Rules())
    assert sorted(len(r.cells) for r in a.roads) == [1, 3]
    b = score_city(city.cells, city.occ, (3, 12, 16), Rules())
    assert b.conditions == {3: 2 - 3, 12: 1, 16: 2}
    assert len(city.occ) == 6


def test_difficulty_variants() -> None:
    rows = ["C-EW C-EW P", "P C-EW I"]
    normal = score(rows, (3, 6, 10))
    easier = score(rows, (3, 6, 10), Rules(road_tax=False))
    harder = score(rows, (3, 6, 10), Rules(single_zone=True))
    named = score(rows, (3, 6, 10), Rules(single_zone=True, harder_zone="industrial"))
    assert normal.blocks == 3 + 1 + 0 + 1 and normal.roads == 2
    assert easier.total == normal.total + 2
    assert harder.blocks == 3 and harder.total == normal.total - 2
    assert named.blocks == 1


# ------------------------------------------------------------------ 1 The Outskirts
def test_outskirts() -> None:
    assert cond(1, ["C-EW"]) == -1                     # both ends leave the city: -1 once
    assert cond(1, ["P C-EW P"]) == 1                  # both ends dead-end against parks
    assert cond(1, ["R-ES R-SW", "R-NE R-NW"]) == 1    # loop (A4 default)
    assert cond(1, ["R-ES R-SW", "R-NE R-NW"], Rules(loop_outskirts=0)) == 0


def test_outskirts_hole_is_edge_locally_not_outer() -> None:
    assert cond(1, HOLE_ROAD) == -1
    assert cond(1, HOLE_ROAD, Rules(edge_outer=True)) == 1


# ------------------------------------------------------------------ 2 Bloom Boom
def test_bloom_boom() -> None:
    assert cond(2, ["P P P", "R R R"]) == 0            # row +1, row -1, columns 0
    assert cond(2, ["P", "P", "P"]) == 1               # column +1, rows 0
    assert cond(2, ["R R R"]) == -4                    # X15
    assert cond(2, ["R . R"]) == -3                    # an empty column is not a line


# ------------------------------------------------------------------ 3 Go Green
def test_go_green() -> None:
    assert cond(3, ["P P I", "C R I"]) == 2 - 6
    assert cond(3, ["C R"]) == 0


# ------------------------------------------------------------------ 4 Block Party
@pytest.mark.parametrize("rows, expected", [
    (["R P"], -8),
    (["R R", "R R"], -5),
    (["R R P P", "R R P P"], -2),                      # squares of different zones add up
    (["R R R R", "R R R R"], 1),                        # 2x4: 3 overlapping squares
    (["R R R", "R R R", "R R R"], 4),                   # X16: 3x3 = 4 squares
    (["R R R", "R R R", "R R R", "R R R"], 7),          # 6 squares: 5+ -> 7
])
def test_block_party(rows: list[str], expected: int) -> None:
    assert cond(4, rows) == expected


# ------------------------------------------------------------------ 5 Stacks and Scrapers
def test_stacks_and_scrapers() -> None:
    assert cond(5, ["R I"]) == 0
    assert cond(5, ["C I C", ". C ."]) == 2
    assert cond(5, ["I"]) == 2                          # no neighbours at all: nothing disqualifies


# ------------------------------------------------------------------ 6 Master Planned
def test_master_planned() -> None:
    assert cond(6, ["R R I", "I I I"]) == 2 - 4
    assert cond(6, ["C I I"]) == -2


# ------------------------------------------------------------------ 7 Central Perks
def test_central_perks() -> None:
    assert cond(7, ["R R R", "R P R", "R R R"]) == 1
    assert cond(7, ["P R"]) == -2
    assert cond(7, PARK_BY_HOLE) == -2
    assert cond(7, PARK_BY_HOLE, Rules(edge_outer=True)) == 1


# ------------------------------------------------------------------ 8 The 'Burbs
def test_burbs() -> None:
    assert cond(8, ["P R I", ". R R"]) == -1            # E08
    assert cond(8, ["C I"]) == 0                        # no residential block
    assert cond(8, ["R I P R"]) == 1                    # tie: best group (A6)
    assert cond(8, ["R I P R"], Rules(burbs_first=True)) == -2


# ------------------------------------------------------------------ 9 Concrete Jungle
def test_concrete_jungle() -> None:
    assert cond(9, ["I R", "R I"]) == 2
    assert cond(9, ["I I"]) == 0
    assert cond(9, ["I . I", ". I .", "I . I"]) == 5


# ------------------------------------------------------------------ 10 The Strip
def test_the_strip() -> None:
    assert cond(10, ["C R", "C R", "C C"]) == 3         # a column wins
    assert cond(10, ["R P"]) == 0


# ------------------------------------------------------------------ 11 Mini Marts
def test_mini_marts() -> None:
    assert cond(11, ["R-EW C-EW R-NS"]) == 0            # road does not continue into the 2nd R
    assert cond(11, ["R-EW C-EW R-EW"]) == 2
    assert cond(11, ["R-NS C-NS R-NS"]) == 0            # X04
    assert cond(11, ["R-NS C-NS R-NS"], Rules(mini_adjacent=True)) == 2
    assert cond(11, ["I-EW C-EW R-EW"]) == 0


# ------------------------------------------------------------------ 12 Superhighway
def test_superhighway() -> None:
    assert cond(12, ["P"]) == 0
    assert cond(12, ["C-EW C-EW C-EW"]) == 1
    assert cond(12, ["R-ES R-SW", "R-NE R-NW"]) == 2    # loop of 4 sections


# ------------------------------------------------------------------ 13 Park Hopping
def test_park_hopping() -> None:
    assert cond(13, ["P C-EW P"]) == 3
    assert cond(13, ["P C-EW"]) == 0                    # one end at the city edge
    assert cond(13, U_AROUND_ONE_PARK) == 0             # X06: both ends face the same park block
    rows = ["R-ES R-EW R-EW R-SW", "R-NE P P R-NW"]     # X07
    assert cond(13, rows) == 3
    assert cond(13, rows, Rules(hop_groups=True)) == 0


# ------------------------------------------------------------------ 14 Looping Lanes
def test_looping_lanes() -> None:
    assert cond(14, TWO_LOOPS) == 8                     # X18: every loop counts
    assert cond(14, ["C-EW C-EW"]) == 0


# ------------------------------------------------------------------ 15 Skid Row
def test_skid_row() -> None:
    assert cond(15, ["I R I"]) == 2
    assert cond(15, ["I . I", ". R .", "I . I"]) == 0   # diagonals do not count
    assert cond(15, ["I R I", "R I R"]) == 2 + 2 + 2


# ------------------------------------------------------------------ 16 Morning Commute
def test_morning_commute() -> None:
    assert cond(16, ["C-EW R"]) == 0                    # X05: ending against R is not passing
    assert cond(16, ["C-EW R-EW"]) == 2
    assert cond(16, ["C-EW R-EW C-EW R-EW"]) == 2       # once per road


# ------------------------------------------------------------------ 17 Tourist Traps
def test_tourist_traps() -> None:
    assert cond(17, ["C"]) == 2
    assert cond(17, ["R C R"]) == 1                     # X08 (A3 default)
    assert cond(17, ["R C R"], Rules(corner_any=True)) == 2
    assert cond(17, ["R R R", "R C R", "R R R"]) == 0
    assert cond(17, COMMERCIAL_BY_HOLE) == 1
    assert cond(17, COMMERCIAL_BY_HOLE, Rules(edge_outer=True)) == 0


# ------------------------------------------------------------------ 18 Sprawlopolis
def test_sprawlopolis_condition() -> None:
    assert cond(18, ["R . R R"]) == 3 + 1
    assert cond(18, ["R"]) == 2


def test_fourteen_section_loop() -> None:
    # digest X10: a 4 x 5 ring of road is one 14-section loop
    rows = ["R-ES R-EW R-EW R-EW R-SW", "R-NS P P P R-NS", "R-NS P P P R-NS",
            "R-NE R-EW R-EW R-EW R-NW"]
    a = analysis(rows)
    assert len(a.roads) == 1 and len(a.roads[0].cells) == 14
    assert cond(14, rows) == 14 and cond(12, rows) == 7 and cond(1, rows) == 1


def test_enclosing_a_hole_is_legal_and_the_hole_is_an_edge_locally() -> None:
    # digest L10: four cards around the empty cell (1, 2)
    city = cards_city([{"card": 1, "row": 0, "col": 0}, {"card": 2, "row": -1, "col": 2},
                       {"card": 3, "row": 2, "col": 1}, {"card": 4, "row": 1, "col": 3}], [])
    from citybuilders.games.sprawlopolis.actions import index_of

    r0, c0, r1, c1 = city.bounds()          # the file's coordinates are translated: find the hole
    assert (r1 - r0, c1 - c0) == (4, 4)
    holes = [index_of(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)
             if not city.cells[index_of(r, c)]
             and all(city.cells[index_of(r, c) + d] for d in (1, -1, 64, -64))]
    assert holes == [index_of(r0 + 2, c0 + 2)]
    hole = holes[0]
    assert Analysis(city.cells, city.occ, Rules()).is_open(hole)
    assert not Analysis(city.cells, city.occ, Rules(edge_outer=True)).is_open(hole)
