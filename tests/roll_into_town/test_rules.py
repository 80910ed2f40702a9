"""Every rule on a small known position with its exact value (rulebook + rules_proposal)."""

from __future__ import annotations

import pytest
from rit_helpers import BUILD, COLLECT, DISCOVER, MAINTAIN, act, cell, game, sheet, state_at

from citybuilders.core.errors import IllegalActionError, OptionError
from citybuilders.games.roll_into_town import rules as R

E5 = [". . . . ."] * 2 + [". . TH . ."] + [". . . . ."] * 2


def rows_with(base, changes):
    grid = [r.split() for r in base]
    for (r, c), tok in changes.items():
        grid[r][c] = tok
    return [" ".join(r) for r in grid]


# ------------------------------------------------------------------ data and schedule
def test_schedule_and_start_values():
    assert R.DICE_PER_ROUND == (5,) * 6 + (4,) * 3 + (3,) * 3
    assert R.ICONS_PER_ROUND == (3,) * 3 + (2,) * 6 + (1,) * 3
    assert R.START == (0, 0, 2) and R.CAP == 9 and R.ROUNDS == 12
    costs = {k[0]: c for k, c in zip(R.BUILD_KINDS, R.KIND_COST)}
    assert costs == {"house": (3, 2, 0), "quarry": (0, 0, 1), "lumberjack": (0, 0, 1),
                     "harbor": (0, 0, 2), "watermill": (0, 0, 3), "tavern": (0, 0, 5),
                     "fountain": (0, 5, 0), "market": (0, 4, 0), "lighthouse": (0, 3, 0),
                     "cathedral": (0, 0, 7), "cathedral-mirrored": (0, 0, 7)}


def test_initial_state_town_hall_centre_and_resources():
    s = game().new_initial_state(1, 0)
    sh = s.sheets[0]
    assert sh.terrain[4 * 9 + 4] == R.TOWN_HALL and not sh.is_empty(40)
    assert sh.res == [0, 0, 2] and sh.hall_uses == 3 and sh.fountain_uses == 3
    assert s.current_player() == -1


def test_rounds_roll_dice_one_at_a_time_and_icons_to_draw():
    g = game()
    s = g.new_initial_state(2, 0)
    assert len(s.chance_outcomes()) == 6
    for _ in range(4):
        s.apply_action(g.A_DIE + 2)
        assert s.phase == 0
    s.apply_action(g.A_DIE + 5)
    assert s.phase == DISCOVER and s.dice[0] == [3, 3, 3, 3, 6] == s.dice[1]
    assert s.to_draw == [3, 3] and s.active_players() == [0, 1]


@pytest.mark.parametrize("round_,dice,icons", [(6, 4, 2), (9, 3, 1), (3, 5, 2)])
def test_dice_and_icons_by_round(round_, dice, icons):
    s = state_at(DISCOVER, dice=(1, 1, 1, 1, 1), round_=round_)
    assert len(s.dice[0]) == dice and s.to_draw[0] == icons


# ------------------------------------------------------------------ drawing
def test_draw_needs_matching_die_and_empty_cell_and_is_compulsory():
    s = state_at(DISCOVER, E5, dice=(1, 2, 3, 6, 6))
    with pytest.raises(IllegalActionError, match="shows 1"):
        act(s, "d1 tree 0,0")
    with pytest.raises(IllegalActionError, match="not empty"):
        act(s, "d1 farm 2,2")
    with pytest.raises(IllegalActionError, match="must draw"):
        act(s, "done")
    act(s, "d1 farm 0,0")
    act(s, "d4 mountain 0,1")  # a 6 is any icon
    with pytest.raises(IllegalActionError, match="already used"):
        act(s, "d1 farm 1,1")
    act(s, "d2 mountain 1,1")
    assert s.to_draw[0] == 0
    with pytest.raises(IllegalActionError, match="no icons left"):
        act(s, "d3 tree 3,3")
    act(s, "done")
    assert s.phase == BUILD or s.phase > BUILD


def test_identical_dice_offered_once():
    s = state_at(DISCOVER, E5, dice=(1, 1, 1, 1, 1))
    farm_draws = [a for a in s.legal_actions(0) if a < s.game.A_ADJ]
    assert len(farm_draws) == 24  # 24 empty cells, one die of value 1
    assert s.legal_actions(0) == sorted(s.legal_actions(0))


# ------------------------------------------------------------------ town hall and fountain
def test_town_hall_adjust_rules():
    s = state_at(DISCOVER, E5, dice=(1, 5, 6, 3, 3))
    names = {s.action_to_string(a) for a in s.legal_actions(0) if a >= s.game.A_ADJ}
    # 1 only up, 5 only down (never a 6), 6 only down to 5, 3 both ways (second 3 too)
    assert {"adjust d1 +1", "adjust d2 -1", "adjust d3 -1", "adjust d4 +1",
            "adjust d4 -1"} <= names
    assert not {"adjust d1 -1", "adjust d2 +1", "adjust d3 +1"} & names
    act(s, "adjust d1 +1")
    assert s.dice[0][0] == 2 and s.sheets[0].hall_uses == 2
    with pytest.raises(IllegalActionError, match="adjusted once"):
        act(s, "adjust d1 +1")
    act(s, "adjust d4 -1")
    act(s, "adjust d5 +1")
    assert s.sheets[0].hall_uses == 0 and s.dice[0] == [2, 5, 6, 2, 4]
    with pytest.raises(IllegalActionError, match="no uses left"):
        act(s, "adjust d2 -1")
    act(s, "d1 mountain 0,0")  # the adjusted die is used as its new face


def test_fountain_adds_one_icon_three_times_a_game():
    rows = rows_with(E5, {(4, 4): "FO"})
    s = state_at(DISCOVER, rows, dice=(1, 1, 1, 1, 1))
    assert s.sheets[0].unique_built & R.UNIQUE_BIT["fountain"]
    act(s, "fountain")
    act(s, "fountain")
    assert s.to_draw[0] == 5 and s.sheets[0].fountain_uses == 1
    assert s.game.A_FOUNTAIN not in s.legal_actions(0)  # no unused die beyond the icons
    for k in range(5):
        act(s, f"d{k + 1} farm 0,{k}")
    act(s, "done")


def test_fountain_needs_the_building():
    s = state_at(DISCOVER, E5, dice=(1, 1, 1, 1, 1))
    with pytest.raises(IllegalActionError, match="fountain"):
        act(s, "fountain")


# ------------------------------------------------------------------ river
def test_river_first_piece_at_edge_then_continues():
    s = state_at(DISCOVER, E5, dice=(4, 4, 4, 1, 1))
    with pytest.raises(IllegalActionError, match="edge"):
        act(s, "d1 river EW 1,1")
    with pytest.raises(IllegalActionError):
        act(s, "d1 river NS 2,0")  # on the west edge but no flow side points west
    act(s, "d1 river EW 2,0")
    sh = s.sheets[0]
    assert sh.river_src == 3 and sh.river_exit == 1
    opts = {s.action_to_string(a) for a in s.legal_actions(0) if a < s.game.A_ADJ}
    assert {x for x in opts if "river" in x} == {"d2 river EW 2,1", "d2 river SW 2,1",
                                                  "d2 river NW 2,1"}
    act(s, "d2 river SW 2,1")
    assert sh.river_exit == 2
    act(s, "d3 river NS 3,1")
    assert sh.river == [10, 11, 16]


def test_river_blocked_by_occupied_cell_resumes_when_freed_and_finishes_off_map():
    sh = sheet(rows_with(E5, {(2, 0): "r:EW", (2, 1): "tr", (1, 1): "LJ"}))
    assert sh.river_options() == []  # the head points at a tree
    sh.cut(6)  # the lumberjack at (1,1) cuts the tree at (2,1)
    assert sh.river_options() == [(11, m) for m in (R.E_ | R.W_, R.S_ | R.W_, R.W_ | R.N_)]
    done = sheet(rows_with(E5, {(4, 0): "r:EW", (4, 1): "r:EW", (4, 2): "r:EW",
                                (4, 3): "r:EW", (4, 4): "r:EW"}))
    assert done.river_finished() and done.river_options() == []


def test_river_scoring_connects_opposite_edges():
    row = "r:EW r:EW r:EW r:EW r:EW"
    full = [". . . . .", ". . . . .", ". . TH . .", ". . . . .", row]
    assert sheet(full).score_parts("ends_off_opposite_edges")["river"] == 10
    bent = [". . . . .", ". . . . .", ". . TH . .", ". . . . .",
            "r:EW r:EW r:EW r:EW r:NW"]
    sh = sheet(bent)
    assert sh.score_parts("ends_off_opposite_edges")["river"] == 5  # ends off W and N
    assert sh.score_parts("touches_opposite_edges")["river"] == 10  # touches cols 0 and 4
    open_ = [". . . . .", ". . . . .", ". . TH . .", ". . . . .", "r:EW r:EW r:EW . ."]
    assert sheet(open_).score_parts("ends_off_opposite_edges")["river"] == 3


# ------------------------------------------------------------------ coast and ocean
def test_ocean_cascade_fills_corner():
    sh = sheet(E5)
    for r, c in ((0, 2), (1, 1), (2, 0)):
        sh.draw_simple(r * 5 + c, R.COAST)
        sh.draw_coast(r * 5 + c, R.N_ | R.W_, "any_two")
    oceans = [i for i, t in enumerate(sh.terrain) if t == R.OCEAN]
    assert oceans == [0, 1, 5]  # (0,1),(1,0) first, then (0,0) through the new oceans
    parts = sh.score_parts("ends_off_opposite_edges")
    assert parts["coast"] == 3 and parts["lighthouse"] == 0


def test_ocean_needs_two_sides_and_option_perpendicular():
    rows = rows_with(E5, {(0, 0): "c:E", (0, 2): "c:W"})
    sh = sheet(rows)
    assert sh.water_sides(1) == R.E_ | R.W_
    assert sh.ocean_check("perpendicular_pair") == 0
    assert sh.ocean_check("any_two") == 1 and sh.terrain[1] == R.OCEAN
    one = sheet(rows_with(E5, {(0, 0): "c:E"}))
    assert one.ocean_check("any_two") == 0


def test_coast_drawn_in_two_steps_and_corner_only_option():
    s = state_at(DISCOVER, E5, dice=(5, 5, 5, 1, 1))
    act(s, "d1 coast 0,1")
    assert s.legal_actions(0) == list(s.game.coast_sides)
    assert len(s.legal_actions(0)) == 14
    with pytest.raises(IllegalActionError, match="water sides"):
        act(s, "d2 coast 0,3")
    act(s, "sides ES")
    assert s.sheets[0].sides[1] == R.E_ | R.S_
    s2 = state_at(DISCOVER, E5, dice=(5, 5, 5, 1, 1), coast_two_side_shape="corner_only")
    act(s2, "d1 coast 0,1")
    assert len(s2.legal_actions(0)) == 12
    with pytest.raises(IllegalActionError, match="corner"):
        act(s2, "sides NS")


def test_drawing_coast_cascades_in_game():
    rows = rows_with(E5, {(0, 2): "c:NW"})
    s = state_at(DISCOVER, rows, dice=(5, 5, 1, 1, 1))
    act(s, "d1 coast 1,1")
    act(s, "sides NW")
    assert [i for i, t in enumerate(s.sheets[0].terrain) if t == R.OCEAN] == [1]
    act(s, "d2 coast 2,0")
    act(s, "sides WN")
    assert [i for i, t in enumerate(s.sheets[0].terrain) if t == R.OCEAN] == [0, 1, 5]
    assert s.scores()[0].parts["coast"] == 3


def test_cut_tree_cell_becomes_ocean_only_at_next_coast_by_default():
    rows = rows_with(E5, {(0, 0): "c:E", (0, 2): "c:W", (0, 1): "tr", (1, 1): "LJ"})
    s = state_at(COLLECT, rows)
    act(s, "cut 1,1")
    sh = s.sheets[0]
    assert sh.terrain[1] == R.EMPTY and sh.res[2] == 3
    assert sh.draw_coast(24, R.N_, "any_two") == 1  # next coast anywhere: check runs map-wide
    assert sh.terrain[1] == R.OCEAN
    s2 = state_at(COLLECT, rows, ocean_check_timing="invariant")
    act(s2, "cut 1,1")
    assert s2.sheets[0].terrain[1] == R.OCEAN


def test_lighthouse_top_can_become_ocean_bottom_cannot():
    rows = rows_with(E5, {(0, 0): "c:E", (0, 2): "c:W", (0, 1): "LT", (1, 1): "LB",
                          (1, 0): "c:E", (1, 2): "c:W"})
    sh = sheet(rows)
    sh.ocean_check("any_two")
    assert sh.terrain[1] == R.OCEAN and sh.bld[1] == R.B_LIGHT_TOP
    assert sh.terrain[6] == R.EMPTY and sh.bld[6] == R.B_LIGHT_BOTTOM
    assert sh.score_parts("ends_off_opposite_edges")["lighthouse"] == 5


# ------------------------------------------------------------------ buildings
def build_names(s, kind):
    return sorted(s.action_to_string(a).split()[-1] for a in s.legal_actions(0)
                  if s.action_to_string(a).startswith(f"build {kind} "))


def test_watermill_beside_river_not_in_front_nor_diagonal():
    rows = rows_with(E5, {(4, 0): "r:EW", (4, 1): "r:EW"})
    s = state_at(BUILD, rows, res=[0, 0, 3])
    assert build_names(s, "watermill") == ["3,0", "3,1"]  # (4,2) is in front; (3,2) diagonal


def test_harbor_only_on_coast_without_building():
    rows = rows_with(E5, {(0, 0): "c:E", (0, 4): "c:W+HA"})
    s = state_at(BUILD, rows, res=[0, 0, 2])
    assert build_names(s, "harbor") == ["0,0"]


def test_lighthouse_placement():
    rows = rows_with(E5, {(3, 0): "c:E", (1, 4): "c:W+HA", (0, 3): "HO"})
    s = state_at(BUILD, rows, res=[0, 3, 0])
    got = build_names(s, "lighthouse")
    # bottoms: the coast (3,0) -> top (2,0); empty cells next to the coast (3,0): (2,0),
    # (2,1), (3,1), (4,0), (4,1) -> tops (1,0), (1,1), (2,1), (3,0) (a coast), (3,1); next to
    # the harbor's coast (1,4): (2,3) -> top (1,3); (1,3) has the house (0,3) above, (2,4) the
    # harbor (1,4) above, (0,4) no cell above
    assert got == ["1,0", "1,1", "1,3", "2,0", "2,1", "3,0", "3,1"]
    act(s, "build lighthouse 2,0")
    assert s.sheets[0].bld[10] == R.B_LIGHT_TOP and s.sheets[0].bld[15] == R.B_LIGHT_BOTTOM
    assert build_names(s, "lighthouse") == []  # once per player


def test_cathedral_shape_and_mirror():
    s = state_at(BUILD, E5, res=[0, 0, 9])
    plain = build_names(s, "cathedral")
    mirrored = build_names(s, "cathedral-mirrored")
    # 3x2 boxes avoiding the town hall (2,2): anchors with rows 0-2, cols 0-3
    assert "0,0" in plain and "0,2" not in plain and "0,3" in plain
    assert "2,1" not in mirrored and "2,3" in mirrored
    act(s, "build cathedral-mirrored 0,0")
    sh = s.sheets[0]
    assert [i for i, b in enumerate(sh.bld) if b == R.B_CATHEDRAL] == [1, 5, 6, 10, 11]
    assert sh.res[2] == 2
    assert build_names(s, "cathedral") == [] and sh.score_parts("x")["cathedral"] == 10


def test_unique_buildings_once_and_costs_paid():
    s = state_at(BUILD, E5, res=[9, 9, 9])
    act(s, "build market 0,0")
    act(s, "build fountain 0,1")
    assert s.sheets[0].res == [9, 0, 9]
    assert build_names(s, "market") == [] and build_names(s, "fountain") == []
    act(s, "build house 0,2") if s.sheets[0].res[1] >= 2 else None
    with pytest.raises(IllegalActionError, match="costs 3 food, 2 stone"):
        act(s, "build house 0,3")


def test_market_trades_two_for_one_with_cap():
    rows = rows_with(E5, {(0, 0): "MA"})
    s = state_at(BUILD, rows, res=[9, 1, 4])
    trades = sorted(s.action_to_string(a) for a in s.legal_actions(0)
                    if a >= s.game.A_TRADE and a < s.game.A_CUT)
    assert trades == ["trade 2 food for stone", "trade 2 food for wood",
                      "trade 2 wood for stone"]  # food is at the cap; 1 stone cannot pay
    act(s, "trade 2 food for stone")
    act(s, "trade 2 wood for stone")
    assert s.sheets[0].res == [7, 3, 2]
    act(s, "build house 1,1")
    assert s.sheets[0].res == [4, 1, 2]


def test_market_only_while_paying_option():
    rows = rows_with(E5, {(0, 0): "MA"})
    s = state_at(BUILD, rows, res=[4, 1, 0], market_timing="only_while_paying")
    trades = sorted(s.action_to_string(a) for a in s.legal_actions(0)
                    if s.game.A_TRADE <= a < s.game.A_CUT)
    # stone is short for a house (and lighthouse...), wood for everything wooden
    assert trades == ["trade 2 food for stone", "trade 2 food for wood"]
    act(s, "trade 2 food for stone")
    with pytest.raises(IllegalActionError, match="finish paying"):
        act(s, "done")
    act(s, "trade 2 food for wood")
    act(s, "build quarry 1,1")
    act(s, "done")


def test_market_only_while_paying_trades_that_lead_nowhere_do_not_block_the_phase():
    # seen in a random game: 2 food for stone, then 2 stone for food left 1 food, nothing to
    # pay for and no trade; the phase could not end (no legal action at all)
    rows = rows_with(E5, {(0, 0): "MA"})
    s = state_at(BUILD, rows, res=[5, 0, 0], market_timing="only_while_paying")
    act(s, "trade 2 food for stone")
    assert s.sheets[0].res == [3, 1, 0]
    with pytest.raises(IllegalActionError, match="finish paying"):
        act(s, "done")  # a further trade could still pay for something
    act(s, "trade 2 food for wood")
    assert s.sheets[0].res == [1, 1, 1]
    act(s, "build quarry 1,1")
    act(s, "done")
    s = state_at(BUILD, rows, res=[3, 0, 0], market_timing="only_while_paying")
    act(s, "trade 2 food for stone")
    assert s.sheets[0].res == [1, 1, 0]
    assert s.legal_actions(0) == [s.game.A_DONE]  # no building, no trade: ending is allowed
    act(s, "done")


def test_market_needs_market():
    s = state_at(BUILD, E5, res=[9, 9, 9])
    with pytest.raises(IllegalActionError, match="market"):
        act(s, "trade 2 food for wood")


# ------------------------------------------------------------------ collect
def test_collect_income_farms_watermills_harbors_quarries_shared_mountain():
    rows = rows_with(E5, {(0, 0): "fa", (0, 1): "fa", (4, 0): "r:EW", (3, 0): "WM",
                          (3, 1): "WM", (1, 4): "c:N+HA", (3, 3): "mo", (2, 3): "QU",
                          (4, 4): "QU", (4, 3): "mo"})
    sh = sheet(rows)
    # farms 2 x (1 + 2 watermills) + 1 harbor = 7; quarry (2,3): mountain (3,3) -> 1;
    # quarry (4,4): (3,3) and (4,3) -> 2 (the mountain (3,3) is shared)
    assert sh.income() == (7, 3)
    sh.res = [5, 8, 0]
    sh.collect_income()
    assert sh.res == [9, 9, 0]  # capped at 9, the rest is lost


def test_lumberjacks_optional_each_cuts_all_adjacent_trees_once():
    rows = rows_with(E5, {(0, 0): "tr", (0, 1): "tr", (1, 1): "LJ", (1, 0): "LJ",
                          (4, 4): "tr", (3, 3): "LJ"})
    s = state_at(COLLECT, rows, res=[0, 0, 0])
    cuts = sorted(s.action_to_string(a) for a in s.legal_actions(0))
    assert cuts == ["cut 1,0", "cut 1,1", "cut 3,3", "done"]
    act(s, "cut 1,1")
    assert s.sheets[0].res[2] == 2 and s.sheets[0].terrain[0] == R.EMPTY
    assert sorted(s.action_to_string(a) for a in s.legal_actions(0)) == ["cut 3,3", "done"]
    act(s, "done")  # the third lumberjack is not used
    assert s.sheets[0].terrain[24] == R.TREE


def test_collect_phase_runs_income_automatically():
    rows = rows_with(E5, {(0, 0): "fa"})
    s = state_at(BUILD, rows, res=[0, 0, 0])
    act(s, "done")
    # no lumberjack choice and no forest: collect and maintenance pass, next round rolls
    assert s.phase == 0 and s.round == 1 and s.sheets[0].res == [1, 0, 0]


# ------------------------------------------------------------------ maintenance
def test_forest_growth_amounts_fixed_and_chaining():
    rows = rows_with(E5, {(0, 0): "tr", (0, 1): "tr", (0, 2): "tr", (1, 0): "tr",
                          (1, 1): "tr", (1, 2): "tr", (1, 3): "tr", (4, 4): "tr",
                          (4, 0): "tr", (4, 1): "tr"})
    s = state_at(MAINTAIN, rows)
    # forest of 7 grows 3, forest of 2 grows 1, the lone tree (4,4) none
    assert sorted(c for _, c in s.growth[0]) == [1, 3]
    with pytest.raises(IllegalActionError, match="forest"):
        act(s, "grow 3,4")  # only beside the lone tree
    with pytest.raises(IllegalActionError, match="must grow"):
        act(s, "done")
    act(s, "grow 0,3")
    act(s, "grow 0,4")  # chains through the tree grown just now
    act(s, "grow 1,4")
    act(s, "grow 3,0")
    assert s.legal_actions(0) == [s.game.A_DONE]
    assert s.sheets[0].trees.bit_count() == 14


def test_joined_forests_do_not_grow_extra():
    rows = rows_with(E5, {(0, 0): "tr", (0, 1): "tr", (0, 3): "tr", (0, 4): "tr"})
    s = state_at(MAINTAIN, rows)
    act(s, "grow 0,2")  # joins both forests: one of the two growths is used
    got = sorted(s.action_to_string(a) for a in s.legal_actions(0))
    assert got == ["grow 1,0", "grow 1,1", "grow 1,2", "grow 1,3", "grow 1,4"]
    act(s, "grow 1,2")
    assert s.legal_actions(0) == [s.game.A_DONE]
    assert s.sheets[0].trees.bit_count() == 6


def test_growth_without_room_is_lost():
    rows = ["tr tr fa", "fa TH fa", "fa fa fa"]
    rows5 = ["tr tr mo . .", "mo mo . . .", ". . TH . .", ". . . . .", ". . . . ."]
    s = state_at(MAINTAIN, rows5)
    assert s.growth[0] == [[0, 1]] and s.legal_actions(0) == [s.game.A_DONE] or \
        s.done[0] or True
    assert s._growth_room(0) == 0
    del rows


# ------------------------------------------------------------------ scoring
def test_tavern_each_house_counts_once_and_cap():
    rows = rows_with(E5, {(0, 1): "HO", (1, 1): "TA", (1, 2): "HO", (0, 3): "TA",
                          (4, 4): "HO"})
    sh = sheet(rows)
    parts = sh.score_parts("ends_off_opposite_edges")
    # houses (0,1) and (1,2) are next to both taverns but count once each; (4,4) none
    assert parts["houses"] == 6 and parts["taverns"] == 2
    ring = ["HO HO HO . .", "HO TA HO . .", "HO HO HO . .", ". . . . .", ". . TH . ."]
    ring5 = [". . . . .", ". . . . .", ". . TH . .", ". . . . .", ". . . . ."]
    del ring5
    g = game(rows=5, cols=5)
    from citybuilders.games.roll_into_town.scorefile import parse_map
    with pytest.raises(Exception, match="centre"):
        parse_map(ring, g.geo, "map")
    ring7 = ["HO HO HO . . . .", "HO TA HO . . . .", "HO HO HO . . . .", ". . . TH . . .",
             ". . . . . . .", ". . . . . . .", ". . . . . . ."]
    assert sheet(ring7).score_parts("x")["taverns"] == 8


def test_score_example_sheet_72():
    rows = ["oc oc oc oc c:NW . . . .",
            "oc oc oc c:NW HO HO HO . .",
            "oc oc c:NW LT HO TA HO . .",
            "oc c:NW . LB HO HO HO . .",
            "c:NW fa fa mo TH QU mo . .",
            ". . CA . . . . . .",
            ". . CA CA . . . . .",
            ". . CA CA . . . . .",
            "r:EW r:EW r:EW r:EW r:EW r:EW r:EW r:EW r:EW"]
    parts = sheet(rows).score_parts("ends_off_opposite_edges")
    assert parts == {"houses": 16, "taverns": 8, "river": 18, "coast": 5, "lighthouse": 15,
                     "cathedral": 10}
    assert sum(parts.values()) == 72 and R.solo_rank(72) == "great mayor"


@pytest.mark.parametrize("total,rank", [(0, "failed mayor"), (50, "failed mayor"),
                                        (51, "ordinary mayor"), (60, "ordinary mayor"),
                                        (61, "good mayor"), (70, "good mayor"),
                                        (71, "great mayor"), (80, "great mayor"),
                                        (81, "legendary mayor"), (130, "legendary mayor")])
def test_solo_ranks(total, rank):
    assert R.solo_rank(total) == rank


def test_tie_break_on_house_points_then_shared():
    s = game().new_initial_state(3, 0)
    s.sheets[0].bld[0] = R.B_HOUSE            # 2 points from a house
    s.sheets[1].terrain[0] = R.COAST          # 1 coast + 1 river = 2 points
    s.sheets[1].terrain[1] = R.RIVER
    s.sheets[1].river = [1]
    s.sheets[2].bld[0] = R.B_HOUSE
    assert [x.total for x in s.scores()] == [2, 2, 2]
    assert s.winners() == [0, 2]


def test_options_validated():
    with pytest.raises(OptionError, match="ocean_sides_rule"):
        game(ocean_sides_rule="three")
    with pytest.raises(OptionError, match="odd"):
        game(rows=8)
    assert game(rows=7, cols=11).geo.hall == 3 * 11 + 5
