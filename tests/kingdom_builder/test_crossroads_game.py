"""Crossroads in play: setup, the 8 new tiles, pieces, warrior blocking, the second card, the Fort,
tasks in ``scores()``. Small positions on the all-Crossroads layout (and a mixed, rotated one) with
exact expected values worked out from the section rows (Crossroads rulebook, digest §9).

Global rows of the CR layout (TL lighthouse_foresters_lodge, TR barracks_crossroads,
BL city_hall_fort, BR monastery_wagon, all 0°)::

     0 TTTTWWFFFFGGTTWWTTGG     10 TTTTWWDDDDMDDDMWMGGG
     1 TTTTWDFFFFGGTTWGGCGG     11 TTFFFGGDDDDDDMWFFFGG
     2 CTTTTWDKDMGFFTTTTCCG     12 MMTFFLGMCDDDDDWFFLGW
     3 CCLTWDDDDWFFFLDTTCCC     13 TTMMGGGCCMMCDDWFFGWW
     4 CCCCWWWWWWFFFFFDTLMC     14 TTKFGMMCCCMCCDDWFWWW
     5 WWWWWWDDDWFFFDDMCCCC     15 TTTFMMCCMCMCCGGWWCCC
     6 FFFFWGLDDDFFFMDDDCCC     16 MMTFFFLCCCCCCKGTTTCC
     7 FMGWGGGGMCFFDDKDDCMC     17 FFFMGGDWCMCFGGGTTTCM
     8 FGGWGGGCMCGGDDDWWDGG     18 FFWGGGDDDDFFFGTTTTLM
     9 GGGWWWCCCCGGDWWWDDGG     19 FGGGGGGDDDFFTTTTMMMM
"""

from __future__ import annotations

import pytest

import citybuilders
from citybuilders.core.errors import IllegalActionError, OptionError
from citybuilders.core.game import CHANCE
from citybuilders.core.grid import hex_neighbors
from citybuilders.games.kingdom_builder.rules import crossroads as X
from citybuilders.games.kingdom_builder.actions import BUILD_BASE, CARD_BASE, END
from citybuilders.games.kingdom_builder.rules.board import CARD_TERRAINS, FOREST, GRASS
from citybuilders.games.kingdom_builder.rules.crossroads_state import P_DRAW2, P_FORT, CrossroadsState
from citybuilders.games.kingdom_builder.rules.crossroads_tiles import FORT_BUILD_BASE, FORT_DRAW
from citybuilders.games.kingdom_builder.rules.state import LOST, NEW, READY, USED
from citybuilders.games.kingdom_builder.rules.tiles import TILE_KINDS

from .helpers import (
    build_targets, free_bfs, give_tile, h, loc_id, mask, new_state, put, tile_targets,
)

CR = ["lighthouse_foresters_lodge:0", "barracks_crossroads:0", "city_hall_fort:0",
      "monastery_wagon:0"]
TASKS4 = ["road", "fortress", "advance", "compass_points"]


def cr_state(n: int = 2, hands: list[str] | None = None, pieces=None, **opts) -> CrossroadsState:
    opts.setdefault("tasks", TASKS4)
    s = new_state(n, sections=CR, hands=hands, pieces=pieces, expansions=["crossroads"], **opts)
    assert isinstance(s, CrossroadsState)
    return s


def card(name: str) -> int:
    return CARD_BASE + CARD_TERRAINS.index(name)


def act(s, text: str) -> None:
    s.apply_action(s.string_to_action(text))


def tile_actions(s, kind: str) -> list[str]:
    k = TILE_KINDS[kind]
    return [s.action_to_string(a) for a in s.legal_actions() if k.base <= a < k.base + k.size]


def status(s, p: int, r: int, c: int) -> int:
    return s.hold[p * s.nloc + loc_id(s, r, c)]


def ring(r: int, c: int) -> set[tuple[int, int]]:
    return set(hex_neighbors(r, c, 20, 20))


# ------------------------------------------------------------------ setup
def test_board_rows_match_docstring() -> None:
    s = cr_state()
    rows = s.board.code_rows()
    assert rows[0] == "TTTTWWFFFFGGTTWWTTGG" and rows[19] == "FGGGGGGDDDFFTTTTMMMM"
    assert [kind for _, kind in s.board.locations] == [
        "foresters_lodge", "barracks", "crossroads", "lighthouse", "city_hall", "monastery",
        "fort", "wagon"]
    assert s.board.tiles_per_location == (2,) * 8


def test_one_task_per_crossroads_section_drawn_from_seed() -> None:
    g = citybuilders.load_game("kingdom-builder", sections=CR, expansions=["crossroads"])
    a, b = g.new_initial_state(2, 5), g.new_initial_state(2, 5)
    assert a.tasks == b.tasks and len(a.tasks) == 4 and len(set(a.tasks)) == 4
    assert set(a.tasks) <= set(X.TASKS)
    assert {g.new_initial_state(2, k).tasks for k in range(10)} != {a.tasks}
    mixed = citybuilders.load_game(
        "kingdom-builder", sections=["tavern:0", "monastery_wagon:180", "oasis:0", "farm:0"],
        expansions=["crossroads"])
    assert len(mixed.new_initial_state(2, 0).tasks) == 1
    base = citybuilders.load_game("kingdom-builder", preset="first-game",
                                  expansions=["crossroads"])
    assert base.new_initial_state(2, 0).tasks == ()


def test_tasks_option_must_match_the_sections() -> None:
    g = citybuilders.load_game(
        "kingdom-builder", sections=["tavern:0", "monastery_wagon:180", "oasis:0", "farm:0"],
        expansions=["crossroads"], tasks=["road", "advance"])
    with pytest.raises(OptionError, match="1 Crossroads section"):
        g.new_initial_state(2, 0)
    with pytest.raises(OptionError, match="tasks"):
        citybuilders.load_game("kingdom-builder", expansions=["crossroads"], tasks=["nope"])
    with pytest.raises(OptionError, match="needs expansions"):
        citybuilders.load_game("kingdom-builder", sections=CR)


def test_random_setup_mixes_the_twelve_sections() -> None:
    g = citybuilders.load_game("kingdom-builder", expansions=["crossroads"])
    seen = set()
    for seed in range(40):
        st = g.new_initial_state(2, seed)
        seen |= {sid for sid, _ in st.board.sections}
        assert len(st.tasks) == sum(1 for sid, _ in st.board.sections if sid in X.SECTIONS)
    assert set(X.SECTIONS) <= seen and "tavern" in seen


def test_each_player_starts_with_all_pieces_in_supply() -> None:
    s = cr_state(4, hands=["grass"] * 4)
    view = s.observation(0)["crossroads"]
    assert [t["task"] for t in view["tasks"]] == TASKS4
    assert [t["gold"] for t in view["tasks"]] == [7, 6, 9, 10]
    for pl in view["players"]:
        assert pl == {"wagon": [], "ship": [], "warriors": [], "city_hall": [],
                      "second_card": "none"}
    assert [sec["section"] for sec in view["location_summary"]] == [
        "lighthouse_foresters_lodge", "barracks_crossroads", "city_hall_fort",
        "monastery_wagon"]
    assert view["location_summary"][0]["tiles"][0]["name"] == "Lighthouse"


def test_mixed_layout_shows_only_its_crossroads_summary_and_rotates() -> None:
    s = new_state(2, sections=["tavern:0", "monastery_wagon:180", "oasis:0", "farm:0"],
                  expansions=["crossroads"], tasks=["road"])
    view = s.observation(0)["crossroads"]
    assert [sec["section"] for sec in view["location_summary"]] == ["monastery_wagon"]
    # 180°: monastery (2,7) -> (7,2) -> global (7,12); wagon (8,8) -> (1,1) -> (1,11)
    kinds = dict((kind, divmod(hx, 20)) for hx, kind in s.board.locations)
    assert kinds["monastery"] == (7, 12) and kinds["wagon"] == (1, 11)


# ------------------------------------------------------------------ build tiles
def test_foresters_lodge_builds_on_forest_adjacent_if_possible() -> None:
    s = cr_state(pieces={0: [(2, 0)]})
    give_tile(s, 0, 3, 2)
    assert tile_targets(s, "foresters_lodge") == {(1, 0), (2, 1)}
    act(s, "foresters_lodge 2,1")
    assert s.stl[0] >> h(2, 1) & 1 and s.supply[0] == 38
    assert status(s, 0, 3, 2) == USED
    assert tile_actions(s, "foresters_lodge") == []


def test_foresters_lodge_anywhere_without_adjacent_forest() -> None:
    s = cr_state()
    give_tile(s, 0, 3, 2)
    assert len(tile_targets(s, "foresters_lodge")) == 55  # 13 + 13 + 15 + 14 forest hexes


def test_monastery_builds_on_canyon_adjacent_if_possible() -> None:
    s = cr_state(pieces={0: [(2, 0)]})
    give_tile(s, 0, 12, 17)
    assert tile_targets(s, "monastery") == {(3, 0)}
    s2 = cr_state()
    give_tile(s2, 0, 12, 17)
    assert len(tile_targets(s2, "monastery")) == 58  # 14 + 16 + 13 + 15 canyon hexes


# ------------------------------------------------------------------ warriors
def test_warrior_blocks_building_for_everyone_including_its_owner() -> None:
    s = cr_state(hands=["forest", "forest"], pieces={0: [(2, 0)], 1: [(0, 1)]})
    assert build_targets(s) == {(1, 0), (2, 1)}
    s.put_piece(0, "warrior", h(1, 1))  # own warrior next to both hexes
    assert s.blocked == mask(*ring(1, 1))
    got = build_targets(s)
    assert (1, 0) not in got and (2, 1) not in got
    assert len(got) == 55 - 1 - 6 + 0  # all forest minus the warrior's hex and its 6 neighbours
    assert s.stl[1] >> h(0, 1) & 1  # the settlement already there stays
    s.remove_piece(0, "warrior", h(1, 1))
    assert s.blocked == 0 and build_targets(s) == {(1, 0), (2, 1)}


def test_barracks_place_remove_and_limit_of_two() -> None:
    s = cr_state(pieces={0: [(2, 0)]})
    give_tile(s, 0, 3, 13)
    assert sorted(tile_actions(s, "barracks")) == ["barracks 1,0", "barracks 2,1", "barracks 3,0"]
    act(s, "warrior 1,0")  # alias
    assert s.warriors[0] == mask((1, 0)) and s.occ[0] >> h(1, 0) & 1
    assert s.supply[0] == 39  # warriors are not settlements of the supply
    assert s.blocked == mask((1, 1), (0, 0), (0, 1), (2, 0), (2, 1))
    s.hold[loc_id(s, 3, 13)] = READY
    # next to your pieces and not next to the warrior: only (3,0)
    assert tile_actions(s, "barracks") == ["barracks 3,0", "barracks remove 1,0"]
    act(s, "barracks 3,0")
    s.hold[loc_id(s, 3, 13)] = READY
    assert tile_actions(s, "barracks") == ["barracks remove 1,0", "barracks remove 3,0"]
    act(s, "barracks remove 1,0")
    assert s.warriors[0] == mask((3, 0)) and s.all_occ >> h(1, 0) & 1 == 0
    assert s.blocked == mask(*ring(3, 0))


def test_blocked_explanation() -> None:
    s = cr_state(hands=["forest", "grass"], pieces={0: [(2, 0)]})
    s.put_piece(1, "warrior", h(1, 1))
    with pytest.raises(IllegalActionError, match="next to a warrior"):
        act(s, "build 2,1")


# ------------------------------------------------------------------ wagon
def test_wagon_placement_mountain_option_and_tile_from_placing() -> None:
    s = cr_state(pieces={0: [(3, 8)]})
    give_tile(s, 0, 18, 18)
    assert sorted(tile_actions(s, "wagon")) == ["wagon 2,8", "wagon 2,9", "wagon 3,7"]
    s2 = cr_state(pieces={0: [(3, 8)]}, wagon_on_mountains=False)
    give_tile(s2, 0, 18, 18)
    assert sorted(tile_actions(s2, "wagon")) == ["wagon 2,8", "wagon 3,7"]
    act(s, "wagon 2,9")
    assert s.wagon[0] == mask((2, 9)) and s.supply[0] == 39
    # the wagon stands next to the castle (2,7)? no: (2,9) touches (2,8),(1,9),(3,8),(3,9)...
    assert s.scores()[0].parts["castles"] == 0


def _land_bfs(s, start, steps=3, mountains=True):
    land = s.board.buildable | (s.board.tmask[6] if mountains else 0)
    return free_bfs(s, start, land & ~s.all_occ & ~s.blocked, steps)


def test_wagon_moves_up_to_three_empty_land_steps() -> None:
    s = cr_state(pieces={0: [(3, 8)], 1: [(1, 9)]})
    give_tile(s, 0, 18, 18)
    s.put_piece(0, "wagon", h(2, 9))
    acts = tile_actions(s, "wagon")
    assert acts[-1] == "wagon remove"
    dests = {tuple(int(v) for v in a.split()[-1].split(",")) for a in acts if " move " in a}
    assert dests == _land_bfs(s, (2, 9))
    assert (1, 9) not in dests and (3, 9) not in dests  # occupied / water
    assert (0, 9) in dests  # around the settlement (1,9) through (1,8)
    act(s, "wagon move 0,9")
    assert s.wagon[0] == mask((0, 9)) and s.all_occ >> h(2, 9) & 1 == 0


def test_wagon_cannot_pass_or_enter_warrior_hexes() -> None:
    s = cr_state(pieces={0: [(3, 8)]})
    give_tile(s, 0, 18, 18)
    s.put_piece(0, "wagon", h(2, 9))
    s.put_piece(1, "warrior", h(0, 7))  # blocks (0,6),(0,8),(1,6),(1,7)
    dests = {tuple(int(v) for v in a.split()[-1].split(","))
             for a in tile_actions(s, "wagon") if " move " in a}
    assert dests == _land_bfs(s, (2, 9))
    assert not dests & {(0, 6), (0, 8), (1, 6), (1, 7)}
    # any_path: steps may cross the blocked hexes, destinations stay unblocked
    s2 = cr_state(pieces={0: [(3, 8)]}, piece_move_path="any_path")
    give_tile(s2, 0, 18, 18)
    s2.put_piece(0, "wagon", h(2, 9))
    s2.put_piece(1, "warrior", h(0, 7))
    d2 = {tuple(int(v) for v in a.split()[-1].split(","))
          for a in tile_actions(s2, "wagon") if " move " in a}
    assert dests <= d2 and not d2 & {(0, 6), (0, 8), (1, 6), (1, 7)}


def test_wagon_takes_a_tile_and_loses_it_when_removed() -> None:
    s = cr_state(pieces={0: [(7, 4)]})
    give_tile(s, 0, 18, 18)
    assert sorted(tile_actions(s, "wagon")) == ["wagon 6,5", "wagon 7,5", "wagon 8,4", "wagon 8,5"]
    act(s, "wagon 6,5")  # next to the Lighthouse location (6,6)
    assert status(s, 0, 6, 6) == NEW
    s.hold[loc_id(s, 18, 18)] = READY
    act(s, "wagon remove")
    assert s.wagon[0] == 0 and status(s, 0, 6, 6) == LOST
    assert s.loc_left[loc_id(s, 6, 6)] == 1  # the tile left the game


# ------------------------------------------------------------------ ship
def _water_bfs(s, start, steps=3):
    return free_bfs(s, start, s.board.tmask[5] & ~s.all_occ & ~s.blocked, steps)


def test_ship_place_move_and_fishermen() -> None:
    s = cr_state(pieces={0: [(4, 3)]}, cards=["fishermen", "knights", "hermits"])
    give_tile(s, 0, 6, 6)
    assert sorted(tile_actions(s, "lighthouse")) == [
        "lighthouse 4,4", "lighthouse 5,2", "lighthouse 5,3"]
    act(s, "ship 5,3")
    assert s.ship[0] == mask((5, 3))
    parts = s.scores()[0].parts
    assert parts["fishermen"] == 1  # the settlement (4,3) touches water; the ship on water: 0
    assert parts["hermits"] == 1  # ship and settlement form one area
    assert parts["knights"] == 2
    s.hold[loc_id(s, 6, 6)] = READY
    dests = {tuple(int(v) for v in a.split()[-1].split(","))
             for a in tile_actions(s, "lighthouse") if " move " in a}
    assert dests == _water_bfs(s, (5, 3))
    assert (5, 0) in dests and (4, 6) in dests and (3, 4) in dests
    assert (4, 7) not in dests  # 4 steps away
    assert all(s.board.terrain[h(r, c)] == 5 for r, c in dests)


def test_ship_cannot_enter_water_next_to_a_warrior() -> None:
    s = cr_state(pieces={0: [(4, 3)]})
    give_tile(s, 0, 6, 6)
    s.put_piece(1, "warrior", h(3, 3))  # blocks (4,3)? occupied; water (4,4) is adjacent
    assert sorted(tile_actions(s, "lighthouse")) == ["lighthouse 5,2", "lighthouse 5,3"]


# ------------------------------------------------------------------ city hall
def test_city_hall_placement_counts_seven_and_stays() -> None:
    s = cr_state(pieces={0: [(18, 7)]}, cards=["knights", "lords", "citizens"])
    give_tile(s, 0, 12, 5)
    acts = tile_actions(s, "city_hall")
    assert "city_hall 18,5" in acts and "city_hall 18,4" not in acts  # (17,3) is a mountain
    assert "city_hall 18,7" not in acts  # occupied centre
    for a in acts:  # every footprint touches the settlement and avoids it
        r, c = (int(v) for v in a.split()[1].split(","))
        fp = X.city_hall_footprint(h(r, c))
        assert fp & s.occ[0] == 0 and fp & X.dilate(s.occ[0])
    act(s, "city_hall 18,5")
    assert s.city_hall[0] == mask((18, 5), (18, 4), (18, 6), (17, 4), (17, 5), (19, 4), (19, 5))
    assert s.occ[0].bit_count() == 8 and s.supply[0] == 39
    parts = s.scores()[0].parts
    assert parts["knights"] == 2 * 4  # row 18: 3 city-hall hexes + the settlement
    assert parts["citizens"] == 4  # one area of 8
    assert parts["lords"] == 12  # 8 in the bottom-left sector, player 1 has none
    s.hold[loc_id(s, 12, 5)] = READY
    assert tile_actions(s, "city_hall") == []  # only one city hall


def test_city_hall_if_possible_option() -> None:
    s = cr_state()
    give_tile(s, 0, 12, 5)
    assert tile_actions(s, "city_hall") == []  # required: nothing of yours on the board
    s2 = cr_state(city_hall_adjacency="if_possible")
    give_tile(s2, 0, 12, 5)
    assert len(tile_actions(s2, "city_hall")) == X.erode(s2.board.buildable).bit_count()


# ------------------------------------------------------------------ fort
def test_fort_draw_and_build_is_atomic() -> None:
    s = cr_state(pieces={0: [(2, 0)]})
    give_tile(s, 0, 16, 6)
    assert tile_actions(s, "fort") == ["fort"]
    act(s, "fort")
    assert s.current_player() == CHANCE and s.pending == P_FORT
    assert s.chance_viewer() is None  # public card
    assert s.observation(1)["players"][0]["card"] == "grass"  # the played card stays public
    r = s.resample_from_infostate(1, __import__("random").Random(3))
    assert r.hand[0] == s.hand[0]
    deck = list(s.deck)
    s.apply_action(card("forest"))
    assert s.deck[FOREST] == deck[FOREST] - 1
    assert s.observation(1)["crossroads"]["fort_card"] == "forest"
    legal = s.legal_actions()
    assert END not in legal and not any(BUILD_BASE <= a < BUILD_BASE + 400 for a in legal)
    assert {divmod(a - FORT_BUILD_BASE, 20) for a in legal} == {(1, 0), (2, 1)}
    with pytest.raises(IllegalActionError, match="finish the Fort"):
        act(s, "build 2,1")
    act(s, "fort 1,0")
    assert s.stl[0] >> h(1, 0) & 1 and s.discard[FOREST] == 1 and s.fort_card == -1
    assert status(s, 0, 16, 6) == USED
    assert FORT_DRAW not in s.legal_actions()


def test_fort_without_target_builds_nothing_or_redraws() -> None:
    for opt, discarded, removed in (("build_nothing", 1, 0), ("redraw", 0, 1)):
        s = cr_state(fort_without_target=opt)
        give_tile(s, 0, 16, 6)
        grass = s.board.tmask[GRASS]
        s.occ[1] |= grass
        s.stl[1] |= grass
        s.all_occ |= grass
        act(s, "fort")
        s.apply_action(card("grass"))
        assert s.discard[GRASS] == discarded and s.removed[GRASS] == removed
        assert s.fort_card == -1
        if opt == "redraw":
            assert s.pending == P_FORT
            s.apply_action(card("desert"))
            assert s.fort_card == 2
        else:
            assert s.current_player() == 0 and s.supply[0] == 40


# ------------------------------------------------------------------ crossroads tile
def _finish_turn(s) -> None:
    s.mand = 3  # skip the mandatory builds
    s.apply_action(END)


def test_second_card_flow_visibility_and_lock() -> None:
    s = cr_state(hands=["grass", "desert"], pieces={0: [(2, 0)], 1: [(19, 19)]})
    give_tile(s, 0, 4, 17)  # Crossroads tile, ready
    _finish_turn(s)
    assert s.pending_player == 0 and s.current_player() == CHANCE
    s.apply_action(card("forest"))  # the normal draw
    assert s.pending == P_DRAW2 and s.chance_viewer() == 0
    s.apply_action(card("canyon"))  # the second card (private)
    assert s.hand[0] == FOREST and s.hand2[0] == 1
    assert s.current_player() == 1
    assert s.observation(1)["crossroads"]["players"][0]["second_card"] is None
    assert s.observation(0)["crossroads"]["players"][0]["second_card"] == "canyon"
    assert "?" in s.information_state_key(1).split(",")[-1]
    _finish_turn(s)
    s.apply_action(card("grass"))
    assert s.current_player() == 0
    # both cards are public during the turn; build targets = forest or canyon next to (2,0)
    assert s.observation(1)["crossroads"]["players"][0]["second_card"] == "canyon"
    assert build_targets(s) == {(1, 0), (2, 1), (3, 0)}
    act(s, "build 3,0")  # canyon: locks the turn to canyon
    assert s.hand[0] == 1 and s.hand2[0] == FOREST and s.lock == 1
    assert all(s.board.terrain[h(r, c)] == 1 for r, c in build_targets(s))
    _finish_turn(s)
    assert s.discard[FOREST] >= 1 and s.discard[1] >= 1 and s.hand2[0] == -1


def test_crossroads_tile_taken_this_turn_draws_per_option() -> None:
    for opt, draws in (("acquisition_turn", 2), ("next_turn", 1)):
        s = cr_state(hands=["grass", "grass"], pieces={0: [(3, 16)]}, crossroads_first_draw=opt)
        s.place(0, h(4, 16))  # next to the Crossroads location (4,17): tile arrives new
        assert status(s, 0, 4, 17) == NEW
        s.mand = 3
        s.apply_action(END)
        s.apply_action(card("forest"))
        if draws == 2:
            assert s.pending == P_DRAW2
            s.apply_action(card("desert"))
        assert s.current_player() == 1 and (s.hand2[0] == 2) == (draws == 2)


def test_identical_cards_option() -> None:
    s = cr_state(hands=["forest", "grass"], pieces={0: [(2, 0)]},
                 crossroads_identical_cards="any_terrain")
    s.hand2[0] = FOREST
    assert s.card_terrains(0) == [0, 1, 2, 3, 4]
    got = build_targets(s)
    # forest (1,0),(2,1) and canyon (3,0) next to (2,0); no grass/desert/flower hex is, so
    # every one of those is a target: 66 grass + 61 desert + 62 flower field
    assert {(1, 0), (2, 1), (3, 0)} <= got and len(got) == 3 + 66 + 61 + 62
    s2 = cr_state(hands=["forest", "grass"], pieces={0: [(2, 0)]})
    s2.hand2[0] = FOREST
    assert s2.card_terrains(0) == [FOREST] and build_targets(s2) == {(1, 0), (2, 1)}


# ------------------------------------------------------------------ tasks and options
def test_tasks_scored_once_in_scores() -> None:
    road = [(2, 3), (3, 3), (4, 4), (5, 4), (6, 5), (7, 5), (8, 6)]
    s = cr_state(pieces={0: []})
    for r, c in road:
        bit = 1 << h(r, c)
        s.occ[0] |= bit  # any own piece counts (terrain irrelevant for the task)
    ps = s.scores()[0]
    assert ps.parts["road"] == 7 and ps.parts["fortress"] == 0
    assert ps.parts["advance"] == 0 and ps.parts["compass_points"] == 0
    assert ps.total == sum(ps.parts.values())


def test_home_country_terrain_option() -> None:
    # the 1-hex water area (7,9)? no - use mountain (2,9), a 1-hex mountain area (see rows)
    s = cr_state(tasks=["home_country", "road", "advance", "fortress"])
    s.put_piece(0, "wagon", h(2, 9))
    assert s.scores()[0].parts["home_country"] == 5
    s2 = cr_state(tasks=["home_country", "road", "advance", "fortress"],
                  home_country_terrains="buildable")
    s2.put_piece(0, "wagon", h(2, 9))
    assert s2.scores()[0].parts["home_country"] == 0


def test_tavern_counts_pieces_option() -> None:
    from citybuilders.games.kingdom_builder.rules.tiles import tavern_targets

    # settlements (0,10), (0,11) and a warrior (0,12) in a row: the ends are (0,9) and (0,13);
    # (0,13) is next to the warrior, so only (0,9) is free
    for opt, expect in ((True, mask((0, 9))), (False, 0)):
        s = cr_state(pieces={0: [(0, 10), (0, 11)]}, tavern_counts_pieces=opt)
        s.put_piece(0, "warrior", h(0, 12))
        assert tavern_targets(s.tavern_own(0), s.board.buildable & s.empty()) == expect


def test_base_tiles_move_pieces_option() -> None:
    s = cr_state(pieces={0: [(2, 0)]})
    s.put_piece(0, "wagon", h(2, 9))
    assert s.movable(0) == s.stl[0]
    s2 = cr_state(pieces={0: [(2, 0)]}, base_tiles_move_pieces=True)
    s2.put_piece(0, "wagon", h(2, 9))
    assert s2.movable(0) == s2.stl[0] | mask((2, 9))
    s2.move(0, h(2, 9), h(2, 8))
    assert s2.wagon[0] == mask((2, 8)) and s2.stl[0] == mask((2, 0))


def test_pieces_never_end_the_game() -> None:
    s = cr_state(pieces={0: [(2, 0)]})
    for piece, at in (("wagon", (2, 9)), ("ship", (4, 4)), ("warrior", (9, 0)),
                      ("warrior", (19, 0))):
        s.put_piece(0, piece, h(*at))
    assert not s.final_round and s.supply[0] == 39


def test_ship_and_wagon_are_anchors_for_the_adjacency_rule() -> None:
    s = cr_state(hands=["canyon", "grass"])
    s.put_piece(0, "ship", h(5, 3))
    assert build_targets(s) == {(4, 3)}  # the only land hex of that terrain next to the ship
    s2 = cr_state(hands=["flower_field", "grass"])
    s2.put_piece(0, "ship", h(5, 3))
    assert build_targets(s2) == {(6, 3)}
    for hand, expect in (("desert", {(2, 8), (3, 8)}), ("flower_field", {(1, 8), (1, 9)}),
                         ("grass", {(2, 10)})):
        s3 = cr_state(hands=[hand, "grass"])
        s3.put_piece(0, "wagon", h(2, 9))  # on a mountain
        assert build_targets(s3) == expect, hand


def test_wagon_on_a_mountain_scores_no_miners_but_its_neighbour_does() -> None:
    s = cr_state(cards=["miners", "knights", "hermits"], pieces={0: [(2, 8)]})
    s.put_piece(0, "wagon", h(2, 9))
    parts = s.scores()[0].parts
    assert parts["miners"] == 1  # (2,8) touches the mountain (2,9); the wagon on it scores 0
    assert parts["hermits"] == 1 and parts["knights"] == 4


def test_text_and_svg_show_the_pieces() -> None:
    s = cr_state(pieces={0: [(18, 7)]})
    s.put_piece(0, "wagon", h(2, 9))
    s.put_piece(1, "warrior", h(9, 0))
    s.place_city_hall(0, h(18, 5))
    text = s.render_text(0)
    assert "P1 pieces: wagon 2,9, ship -, warriors -, city hall 18,5 (+6)" in text
    assert "P2 pieces: wagon -, ship -, warriors 9,0, city hall -" in text
    assert "blocked by warriors: 8,0 8,1 9,1" in text
    assert "Crossroads tasks: Road (7 gold); Fortress (6 gold)" in text
    svg = s.render_svg(0)
    assert svg.count('data-piece="W"') == 1 and svg.count('data-piece="X"') == 1
    assert svg.count('data-piece="H"') == 7 and svg.rstrip().endswith("</svg>")


def test_action_paths_and_notation_round_trip() -> None:
    s = cr_state(pieces={0: [(3, 8)]})
    for r, c in ((18, 18), (6, 6), (3, 13), (16, 6), (3, 2), (12, 17)):
        give_tile(s, 0, r, c)
    s.put_piece(0, "ship", h(4, 8))
    texts = [s.action_to_string(a) for a in s.legal_actions()]
    for t in ("wagon 2,9", "lighthouse remove", "lighthouse move 4,6", "fort",
              "barracks 2,8", "foresters_lodge 0,0", "monastery 2,0"):
        assert t in texts, t
    for a in s.legal_actions():
        assert s.string_to_action(s.action_to_string(a)) == a
    wagon = TILE_KINDS["wagon"]
    assert s.action_path(wagon.base + h(2, 9)) == ("tile:wagon", "hex:2,9")
    assert s.action_path(TILE_KINDS["lighthouse"].base + 800) == ("tile:lighthouse", "remove")
    assert s.action_path(FORT_DRAW) == ("tile:fort",)
    with pytest.raises(IllegalActionError, match="write wagon move"):
        s.string_to_action("wagon move")
