"""Pure Crossroads units: geometry helpers, the 6 tasks, piece targets, warrior blocking, options.

Positions are tiny hand-made sets on the 20x20 board; expected values are worked out by hand from
the Crossroads rulebook (seed 004) and rules digest §9.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citybuilders.core.grid import hex_neighbors
from citybuilders.core.options import Option, resolve_options
from citybuilders.games.kingdom_builder import texts as T
from citybuilders.games.kingdom_builder.rules import crossroads as X
from citybuilders.games.kingdom_builder.rules.crossroads import hex_index as ix
from citybuilders.games.kingdom_builder.rules.crossroads import mask_of


def nb(r: int, c: int) -> list[tuple[int, int]]:
    return hex_neighbors(r, c, 20, 20)


# ------------------------------------------------------------------ geometry
@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=X.FULL))
def test_dilate_equals_union_of_neighbours(mask: int) -> None:
    expect = 0
    for i in range(400):
        if mask >> i & 1:
            expect |= X.NEIGHBORS[i]
    assert X.dilate(mask) == expect


def test_dilate_single_hexes_even_and_odd_rows() -> None:
    assert X.hexes_of(X.dilate(mask_of([(4, 0)]))) == [(3, 0), (4, 1), (5, 0)]
    assert sorted(X.hexes_of(X.dilate(mask_of([(5, 5)])))) == [
        (4, 5), (4, 6), (5, 4), (5, 6), (6, 5), (6, 6)]
    # odd-row corner: only W and NW=(-1,0) exist
    assert sorted(X.hexes_of(X.dilate(mask_of([(19, 19)])))) == [(18, 19), (19, 18)]


def test_erode_needs_all_six_neighbours_and_no_edge() -> None:
    blob = mask_of([(5, 5)] + nb(5, 5))
    assert X.hexes_of(X.erode(blob)) == [(5, 5)]
    assert X.erode(X.FULL) == X.INTERIOR
    assert X.INTERIOR.bit_count() == 18 * 18


def test_edges() -> None:
    assert X.EDGE.bit_count() == 76
    assert X.hexes_of(X.TOP_EDGE & X.LEFT_EDGE) == [(0, 0)]


def test_with_adjacency_prefers_adjacent_else_anywhere() -> None:
    own = mask_of([(5, 5)])
    eligible = mask_of([(5, 6), (9, 9)])
    assert X.hexes_of(X.with_adjacency(eligible, own)) == [(5, 6)]
    assert X.hexes_of(X.with_adjacency(mask_of([(9, 9), (12, 0)]), own)) == [(9, 9), (12, 0)]
    assert X.with_adjacency(0, own) == 0


def test_diagonal_lines_cover_each_hex_once_per_axis_and_are_connected() -> None:
    assert len(X.DIAGONAL_LINES) == 59
    seen: dict[int, int] = {}
    for line in X.DIAGONAL_LINES:
        for a, b in zip(line, line[1:]):
            assert X.NEIGHBORS[a] >> b & 1
            assert b // 20 == a // 20 + 1  # strictly downward: never a horizontal step
        for i in line:
            seen[i] = seen.get(i, 0) + 1
    assert len(seen) == 400 and set(seen.values()) == {2}


# ------------------------------------------------------------------ tasks
SE_LINE = [(2, 3), (3, 3), (4, 4), (5, 4), (6, 5), (7, 5), (8, 6)]
SW_LINE = [(2, 10), (3, 9), (4, 9), (5, 8), (6, 8), (7, 7), (8, 7)]


def test_road_lines_are_real_hex_lines() -> None:
    for line in (SE_LINE, SW_LINE):
        for (r1, c1), (r2, c2) in zip(line, line[1:]):
            assert (r2, c2) in nb(r1, c1)


def test_road_seven_on_either_diagonal_scores_7() -> None:
    assert X.task_road(mask_of(SE_LINE)) == 7
    assert X.task_road(mask_of(SW_LINE)) == 7
    assert X.task_road(mask_of(SE_LINE + SW_LINE + [(0, 0)])) == 7  # once only


def test_road_six_or_broken_or_horizontal_scores_0() -> None:
    assert X.task_road(mask_of(SE_LINE[:6])) == 0
    gap = SE_LINE[:3] + SE_LINE[4:] + [(9, 6), (10, 7)]  # 8 on the line but hole at (5,4)
    assert X.task_road(mask_of(gap)) == 0
    assert X.task_road(mask_of([(4, c) for c in range(10)])) == 0  # a row never counts
    # a zig-zag of 7 mutually adjacent hexes that is no straight line
    zig = [(2, 3), (3, 3), (4, 3), (5, 3), (6, 3), (7, 3), (8, 3)]
    assert X.task_road(mask_of(zig)) == 0


def test_road_across_sections_and_to_the_board_edge() -> None:
    line = [(13, 14), (14, 14), (15, 14), (16, 15), (17, 15), (18, 16), (19, 16)]
    # odd row 13 -> SW is (+1,0); even row 14 -> SW (+1,-1)? build it with the real SE axis
    se = [(13, 14)]
    r, c = 13, 14
    while r < 19:
        c += 1 if r & 1 else 0
        r += 1
        se.append((r, c))
    assert se == [(13, 14), (14, 15), (15, 15), (16, 16), (17, 16), (18, 17), (19, 17)]
    assert X.task_road(mask_of(se)) == 7
    assert X.task_road(mask_of(line)) == 0  # (14,14)->(15,14)->(16,15) bends


def test_fortress() -> None:
    ring = nb(5, 5)
    assert X.task_fortress(mask_of([(5, 5)] + ring)) == 6
    assert X.task_fortress(mask_of(ring)) == 0  # empty centre
    assert X.task_fortress(mask_of([(5, 5)] + ring[1:])) == 0
    # a settlement on the edge with all its (4) on-board neighbours never counts
    assert X.task_fortress(mask_of([(0, 5)] + nb(0, 5))) == 0
    # two fortresses still score 6 once
    assert X.task_fortress(mask_of([(5, 5), (12, 12)] + ring + nb(12, 12))) == 6


def test_fortress_is_the_erosion_test() -> None:
    """task_fortress's neighbour-pair steps against ``erode(own) != 0``: every hex with one
    neighbour missing in turn (even and odd rows, both board sides) and random dense sets."""
    import random

    for r, c in ((5, 5), (6, 5), (1, 1), (18, 18), (1, 18), (18, 1)):
        full = mask_of([(r, c)] + nb(r, c))
        assert X.task_fortress(full) == 6 and X.erode(full)
        for gap in nb(r, c):
            assert X.task_fortress(full & ~mask_of([gap])) == 0
    rng = random.Random(9)
    for _ in range(3000):
        density = 0.3 + rng.random() / 2  # about a quarter without a fortress
        own = sum(1 << i for i in range(400) if rng.random() < density)
        assert X.task_fortress(own) == (6 if X.erode(own) else 0)


def test_place_of_refuge() -> None:
    castle = mask_of([(5, 5)])
    assert X.task_place_of_refuge(mask_of(nb(5, 5)), castle) == 8
    assert X.task_place_of_refuge(mask_of(nb(5, 5)[:5]), castle) == 0
    assert X.task_place_of_refuge(mask_of(nb(5, 5)), mask_of([(12, 12)])) == 0
    assert X.task_place_of_refuge(mask_of(nb(5, 5)), mask_of([(12, 12), (5, 5)])) == 8


def test_advance() -> None:
    assert X.task_advance(mask_of([(0, c) for c in range(7)])) == 9
    assert X.task_advance(mask_of([(0, c) for c in range(6)])) == 0
    # corner (0,0) counts for the left column as well: 1 + 6 = 7 on the left edge
    assert X.task_advance(mask_of([(r, 0) for r in range(7)])) == 9
    assert X.task_advance(mask_of([(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (3, 0)])) == 0
    assert X.task_advance(mask_of([(19, c) for c in range(3, 17, 2)])) == 9  # not adjacent
    assert X.task_advance(mask_of([(r, 19) for r in range(13, 20)])) == 9
    assert X.task_advance(mask_of([(r, 10) for r in range(10)])) == 0


def test_compass_points() -> None:
    assert X.task_compass_points(mask_of([(0, 0), (19, 19)])) == 10  # corners count twice
    assert X.task_compass_points(mask_of([(0, 0), (19, 5)])) == 0  # right edge missing
    assert X.task_compass_points(mask_of([(0, 7), (19, 7), (8, 0), (9, 19)])) == 10
    assert X.task_compass_points(0) == 0


def test_home_country() -> None:
    lake = mask_of([(3, 3), (3, 4)])
    rest = X.FULL & ~lake
    areas = X.terrain_areas([lake, rest])
    assert len(areas) == 2
    assert X.task_home_country(mask_of([(3, 3), (3, 4), (9, 9)]), areas) == 5
    assert X.task_home_country(mask_of([(3, 3)]), areas) == 0  # an empty hex left
    # two lakes of the same terrain are separate areas
    lakes = mask_of([(3, 3), (10, 10)])
    areas2 = X.terrain_areas([lakes, X.FULL & ~lakes])
    assert len(areas2) == 3
    assert X.task_home_country(mask_of([(10, 10)]), areas2) == 5


def test_score_tasks_each_once() -> None:
    own = mask_of([(0, c) for c in range(8)] + [(19, 0), (10, 19)])
    got = X.score_tasks(
        ["advance", "compass_points", "fortress"], own, areas=[], specials=0
    )
    assert got == {"advance": 9, "compass_points": 10, "fortress": 0}
    assert X.TASK_GOLD == {
        "home_country": 5, "fortress": 6, "road": 7, "place_of_refuge": 8, "advance": 9,
        "compass_points": 10}
    try:
        X.score_tasks(["nope"], own, areas=[], specials=0)
    except KeyError:
        pass
    else:  # pragma: no cover
        raise AssertionError("unknown task accepted")


# ------------------------------------------------------------------ pieces
def test_warrior_blocks_its_six_neighbours() -> None:
    assert sorted(X.hexes_of(X.warrior_blocked(mask_of([(5, 5)])))) == sorted(nb(5, 5))
    two = X.warrior_blocked(mask_of([(5, 5), (0, 0)]))
    assert two.bit_count() == 6 + 2  # (0,0) has neighbours (0,1), (1,0)
    assert X.warrior_blocked(0) == 0


def test_wagon_placement_adjacency_mountain_and_blocking() -> None:
    own = mask_of([(5, 5)])
    buildable = mask_of([(5, 6), (9, 9)])
    mountain = mask_of([(4, 5)])
    assert X.hexes_of(X.wagon_place_targets(own, buildable, mountain, 0)) == [(4, 5), (5, 6)]
    assert X.hexes_of(X.wagon_place_targets(own, buildable, 0, 0)) == [(5, 6)]
    # a warrior at (6,7) blocks (5,6): then the other adjacent hex is the mountain
    blocked = X.warrior_blocked(mask_of([(6, 7)]))
    assert X.hexes_of(X.wagon_place_targets(own, buildable, mountain, blocked)) == [(4, 5)]
    # no adjacent hex left: anywhere
    assert X.hexes_of(X.wagon_place_targets(own, buildable, 0, blocked)) == [(9, 9)]


def test_ship_and_warrior_placement() -> None:
    own = mask_of([(5, 5)])
    water = mask_of([(6, 6), (15, 15)])
    assert X.hexes_of(X.ship_place_targets(own, water, 0)) == [(6, 6)]
    assert X.hexes_of(X.ship_place_targets(0, water, 0)) == [(6, 6), (15, 15)]
    blocked = X.warrior_blocked(mask_of([(7, 6)]))  # (6,6) is next to (7,6)
    assert X.hexes_of(X.ship_place_targets(own, water, blocked)) == [(15, 15)]
    land = mask_of([(5, 4), (5, 6), (12, 3)])
    assert X.hexes_of(X.warrior_place_targets(own, land, 0)) == [(5, 4), (5, 6)]
    assert X.hexes_of(X.single_build_targets(land, own, X.warrior_blocked(mask_of([(4, 4)])))) == [
        (5, 6)]


def test_piece_moves_up_to_three_empty_steps() -> None:
    river = [(10, c) for c in range(2, 10)]  # a straight row of water
    water = mask_of(river)
    start = mask_of([(10, 2)])
    passable = water & ~start
    got = X.hexes_of(X.piece_move_targets(start, passable, 0))
    assert got == [(10, 3), (10, 4), (10, 5)]
    # an occupied hex (another ship at 10,4) stops the path
    passable2 = passable & ~mask_of([(10, 4)])
    assert X.hexes_of(X.piece_move_targets(start, passable2, 0)) == [(10, 3)]
    # a warrior-blocked hex can neither be entered nor crossed
    blocked = X.warrior_blocked(mask_of([(11, 3)]))  # blocks (10,3) and (10,4)
    assert X.piece_move_targets(start, passable, blocked) == 0
    # option piece_move_path=any_path: cross the occupied/blocked hexes of the piece's kind
    got_any = X.piece_move_targets(start, passable2, blocked, path="any_path", terrain=water)
    assert X.hexes_of(got_any) == [(10, 5)]
    assert X.hexes_of(X.piece_move_targets(start, passable, 0, steps=1)) == [(10, 3)]


def test_piece_move_fans_out_on_open_land() -> None:
    start = mask_of([(10, 10)])
    land = X.FULL & ~start
    got = X.piece_move_targets(start, land, 0)
    assert got.bit_count() == 6 + 12 + 18  # hex rings at distance 1, 2, 3


def test_city_hall_footprint() -> None:
    fp = X.city_hall_footprint(ix(5, 5))
    assert sorted(X.hexes_of(fp)) == sorted([(5, 5)] + nb(5, 5))
    try:
        X.city_hall_footprint(ix(0, 5))
    except ValueError as exc:
        assert "edge" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("edge centre accepted")


def test_city_hall_centres_need_adjacency_and_free_hexes() -> None:
    own = mask_of([(10, 10)])
    free = X.FULL & ~own
    centres = X.city_hall_centres(own, free, 0)
    assert centres.bit_count() == 12  # exactly the hexes at distance 2 from (10,10)
    ring1 = X.dilate(own)
    assert centres & (ring1 | own) == 0
    assert centres & X.dilate(ring1) == centres
    # a warrior at (10,13) blocks part of that ring
    blocked = X.warrior_blocked(mask_of([(10, 13)]))
    c2 = X.city_hall_centres(own, free & ~mask_of([(10, 13)]), blocked)
    assert c2.bit_count() < 12 and c2 & ~centres == 0
    # no own piece: required -> nothing; if_possible -> every free interior centre
    assert X.city_hall_centres(0, X.FULL, 0) == 0
    assert X.city_hall_centres(0, X.FULL, 0, require_adjacent=False) == X.INTERIOR
    # a 7-hex patch with one non-buildable hex gives no centre
    patch = mask_of([(5, 5)] + nb(5, 5)[:5])
    assert X.city_hall_centres(mask_of([(5, 3)]), patch, 0) == 0
    assert X.city_hall_centres(mask_of([(5, 3)]), patch | mask_of(nb(5, 5)), 0) == 1 << ix(5, 5)


# ------------------------------------------------------------------ data and options
def test_sections_and_tiles() -> None:
    kinds = [k for pair in X.SECTIONS.values() for k in pair]
    assert sorted(kinds) == sorted(X.TILE_KINDS)
    assert set(T.LOCATION_SUMMARY) == set(X.TILE_KINDS) == set(T.TILE_NAMES) - {
        "oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock"}
    assert X.PIECES_PER_PLAYER == {"wagon": 1, "ship": 1, "warrior": 2, "city_hall": 1}


def test_options_are_complete_rule_options() -> None:
    names = [o.name for o in X.CROSSROADS_OPTIONS]
    assert len(names) == len(set(names)) == 9
    for o in X.CROSSROADS_OPTIONS:
        assert isinstance(o, Option)
        assert o.kind == "rule" and o.doc and o.source and o.alternatives
    defaults = resolve_options(X.CROSSROADS_OPTIONS, {})
    assert defaults["crossroads_first_draw"] == "acquisition_turn"
    assert defaults["wagon_on_mountains"] is True
    assert defaults["fort_without_target"] == "build_nothing"
    assert X.option_values({"wagon_on_mountains": False})["wagon_on_mountains"] is False
