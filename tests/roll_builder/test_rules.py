"""Roll Builder rules on small known positions (rulebook sections / digest entries in each test)."""
from __future__ import annotations

import pytest
from rb_helpers import do, legal, new, roll

from citybuilders.core.errors import IllegalActionError, OptionError
from citybuilders.core.game import CHANCE, TERMINAL
from citybuilders.core.registry import load_game


def names(s, mask: int) -> list[str]:
    sh = s.game.sheet
    return [sh.space_name(i) for i in range(sh.n_spaces) if mask >> i & 1]


def test_start_roads_connect_every_space_touched_even_at_a_corner() -> None:
    s = new()
    # W, NE and SE sides of the town centre (4,5): their six end points touch all 6 neighbours
    assert names(s, s.players[0].connected) == ["3,4", "3,5", "4,4", "4,5", "4,6", "5,4", "5,5"]


def test_dice_are_two_public_chance_nodes() -> None:
    s = new()
    assert s.current_player() == CHANCE and s.chance_outcomes() == [(i, 1 / 6) for i in range(6)]
    roll(s, 3, 2)
    assert s.dice == [3, 2] and s.current_player() == 0
    assert legal(s) == ["road d1", "build d1", "wonder d1", "skip d1",
                        "road d2", "build d2", "wonder d2", "skip d2",
                        "mark 3,4", "mark 4,4", "mark 5,5"]  # the icon spaces connected at start


def test_road_action_places_up_to_n_connected_roads() -> None:
    s = new()
    roll(s, 3, 2)
    do(s, "road d1")
    p = s.players[0]
    assert p.roads_left == 3
    with pytest.raises(IllegalActionError):
        do(s, "road 0,1,E")  # not touching the network
    do(s, "road 4,4,NE")  # new end point = N corner of (4,4): connects (3,3)
    assert "3,3" in names(s, p.connected) and p.roads_left == 2 and p.placed == 1
    do(s, "road 4,4,NW")  # continues from the corner just reached
    assert p.roads_left == 1
    # the other spelling of the same edge is accepted
    sh = s.game.sheet
    assert sh.edge_of("5,3,NE") == sh.edge_of("4,4,SW")
    assert s.action_to_string(s.game.A_ROAD + sh.edge_of("5,3,NE")) == "road 4,4,SW"


def test_marking_gains_resources_that_must_be_assigned_at_once() -> None:
    s = new()
    roll(s, 3, 2)
    do(s, "mark 4,4")  # L+Fo
    assert s.players[0].pres == [1, 0, 0, 0, 0]
    assert legal(s) == ["discard food", "cross I1.2", "cross I2.1", "cross I2.2", "cross I2.5",
                        "cross I3.1", "cross I4.5", "cross I4.6", "cross I5.3"]
    do(s, "cross I2.1")
    assert s.players[0].pres == [0] * 5
    with pytest.raises(IllegalActionError):
        do(s, "mark 4,4")  # marked once only


def test_resource_timing_end_of_turn_option_lets_units_wait() -> None:
    s = new(resource_timing="end_of_turn")
    roll(s, 3, 2)
    do(s, "mark 4,4")
    assert "road d1" in legal(s) and "cross I2.1" in legal(s)


def test_innovation_discovery_opens_river_edges_bridges() -> None:
    s = new()
    roll(s, 6, 6)
    p = s.players[0]
    e = s.game.sheet.edge_of("4,6,E")  # river edge touching the network
    do(s, "road d1", "road 4,6,NW", "road 4,6,NE")
    assert s.game.A_ROAD + e not in s.legal_actions(0)
    p.pres = [1, 2, 1, 0, 0]
    do(s, "cross I1.1", "cross I1.2", "cross I1.3", "cross I1.4")
    assert p.discovered == 1 and s.player_parts(0)["innovations"] == 2
    assert s.game.A_ROAD + e in s.legal_actions(0)


def test_innovation_bonus_pays_any_circle_and_only_it_pays_ib_circles() -> None:
    s = new()
    roll(s, 3, 2)
    p = s.players[0]
    p.pib = 1
    ls = legal(s)
    assert "cross I3.5 bonus" in ls and "cross I1.1 bonus" in ls and "discard bonus" in ls
    assert "cross I3.5" not in ls
    do(s, "cross I3.5 bonus")
    assert p.pib == 0


def test_tracks_score_leftmost_uncrossed_number() -> None:
    s = new()  # favor [0,1,2,3,4,6,8]
    roll(s, 3, 2)
    p = s.players[0]
    for _ in range(5):
        p.pres[3] = 1
        do(s, "track favor")
    assert s.player_parts(0)["resources"] == 6
    p.favor = 6
    p.pres[3] = 1
    assert "track favor" not in legal(s)  # the last number cannot be crossed
    assert s.player_parts(0)["resources"] == 8


def test_wealth_storage_and_spending_next_turn() -> None:
    s = new()
    roll(s, 3, 2)
    p = s.players[0]
    p.pres[2] = 3
    do(s, "store wealth", "store wealth", "store wealth")
    assert p.stored == 3 and s.player_parts(0)["resources"] == 1  # 3 // 2
    assert "cross I1.3 stored" not in legal(s)  # stored this turn: spend from the next turn
    do(s, "skip d1", "skip d2", "done")
    roll(s, 1, 1)
    do(s, "cross I1.3 stored")
    assert p.stored == 2 and p.w_marked == 3 and p.w_spent == 1


def test_storage_is_limited_by_circles() -> None:
    s = new()  # 8 circles
    roll(s, 3, 2)
    p = s.players[0]
    p.w_marked, p.w_spent = 8, 3
    p.pres[2] = 1
    assert "store wealth" not in legal(s)  # crossed circles are not reused


def test_build_n_builds_building_n_and_gains_at_once() -> None:
    s = new()
    roll(s, 5, 2)
    do(s, "build d1")
    ls = legal(s)
    assert all(x.startswith("build 5 ") for x in ls[1:]) and ls[0] == "skip build"
    assert "build 5 4,5" not in ls  # the town centre is not land
    do(s, "build 5 3,5")  # Counting House: +2 wealth
    p = s.players[0]
    assert p.pres == [0, 0, 2, 0, 0] and s.player_parts(0)["buildings"] == 1


def test_building_does_not_use_the_space_icons_by_default() -> None:
    s = new()
    roll(s, 5, 2)
    do(s, "build d1", "build 5 4,4", "store wealth", "store wealth")
    assert "mark 4,4" in legal(s)
    s2 = new(building_uses_space=True)
    roll(s2, 5, 2)
    do(s2, "build d1", "build 5 4,4", "store wealth", "store wealth")
    assert "mark 4,4" not in legal(s2)


def test_docks_only_next_to_water_or_river() -> None:
    s = new()
    roll(s, 6, 2)
    s.players[0].connected = (1 << 99) - 1
    do(s, "build d1")
    sites = {x.split()[2] for x in legal(s) if x.startswith("build 6")}
    assert "4,6" in sites and "7,6" in sites and "3,5" not in sites and "6,8" not in sites


def test_docks_give_a_bonus_wonder() -> None:
    s = new()
    roll(s, 6, 2)
    do(s, "build d1", "build 6 4,6")
    p = s.players[0]
    assert p.pres[2] == 1 and p.pwonder == [0]
    do(s, "store wealth", "wonder C1")
    assert p.wvals[0] == 1 and s.player_parts(0)["wonder"] == 1


def test_fishers_hut_extra_wealth_next_to_water() -> None:
    s = new()
    roll(s, 1, 1)
    p = s.players[0]
    p.connected |= 1 << (7 * 11 + 6)  # (7,6) next to water (7,7)
    do(s, "build d1", "build 1 7,6")
    assert p.pres == [1, 0, 1, 0, 0]
    do(s, "discard food", "discard wealth", "build d2", "build 1 3,5")
    assert p.pres == [1, 0, 0, 0, 0]


def test_ferry_landing_adds_a_road_to_later_road_actions() -> None:
    s = new()
    roll(s, 2, 4)
    do(s, "build d1", "build 2 3,5", "discard supplies", "road d2")
    assert s.players[0].roads_left == 5


def test_watchtower_shares_a_space_highcrag() -> None:
    s = new("highcrag")
    roll(s, 1, 6)
    do(s, "build d1", "build 1 3,5")
    p = s.players[0]
    while p.pres != [0] * 5:
        do(s, [x for x in legal(s) if x.startswith("discard")][0])
    do(s, "build d2")
    assert "build 6 3,5" in legal(s)
    do(s, "build 6 3,5")
    assert s.player_parts(0)["buildings"] == 2 and p.bld2 >> (3 * 11 + 5) & 1


def test_guildhall_two_adjacent_marks_goldplain() -> None:
    s = new("goldplain")
    roll(s, 6, 1)
    do(s, "build d1", "build 6 3,5")
    p = s.players[0]
    assert p.pres == [0] * 5 and p.guild == 3 * 11 + 5
    ls = legal(s)
    assert ls == ["build 6 3,4", "build 6 4,6"]  # connected, land, adjacent, free
    do(s, "build 6 3,4")
    assert p.pres == [0, 0, 1, 0, 0] and s.player_parts(0)["buildings"] == 2


def test_ascending_wonder_rivermouth() -> None:
    s = new()
    roll(s, 4, 2)
    do(s, "wonder d1", "wonder C1")
    p = s.players[0]
    assert p.wvals[0] == 4
    assert "wonder d2" not in legal(s)  # C2 needs a value >= 4
    do(s, "skip d2", "done")
    roll(s, 5, 4)
    do(s, "wonder d2", "wonder C2")
    assert p.wvals[1] == 4 and p.pres[2] == 1


def test_bonus_wonder_ignores_value_and_writes_lowest_allowed() -> None:
    s = new()
    roll(s, 4, 2)
    do(s, "wonder d1", "wonder C1")
    p = s.players[0]
    p.pwonder.append(0)
    do(s, "wonder C2")
    assert p.wvals[1] == 4


def test_locked_box_unlocked_by_map_icon_rivermouth() -> None:
    s = new()
    roll(s, 1, 1)
    p = s.players[0]
    c9 = s.game.sheet.box_index["C9"]
    assert not p.unlocked >> c9 & 1
    p.connected |= 1 << (6 * 11 + 2)
    do(s, "mark 6,2")
    assert p.unlocked >> c9 & 1


def test_threshold_pyramid_highcrag() -> None:
    s = new("highcrag")
    roll(s, 2, 2)
    p = s.players[0]
    do(s, "wonder d1", "wonder P1", "track favor", "wonder d2", "wonder P2", "discard supplies")
    do(s, "done")
    roll(s, 2, 3)
    assert "wonder P5" not in [s.action_to_string(a) for a in s.legal_actions(0)]
    do(s, "wonder d2")
    assert legal(s) == ["skip wonder", "wonder P3", "wonder P4", "wonder P5"]
    do(s, "wonder P5")
    assert p.filled.bit_count() == 3


def test_wings_goldplain() -> None:
    s = new("goldplain")
    roll(s, 2, 5)
    do(s, "wonder d1")
    assert [x for x in legal(s) if x.startswith("wonder")] == ["wonder A1"]
    do(s, "wonder A1", "wonder d2")
    assert [x for x in legal(s) if x.startswith("wonder")] == ["wonder B1"]
    do(s, "wonder B1")
    p = s.players[0]
    # complete the copper wing: A5 locked until space (5,0) or milestone 30
    for i in range(1, 4):
        p.filled |= 1 << i
    a5 = s.game.sheet.box_index["A5"]
    p.pwonder.append(0)
    assert "wonder A5" not in legal(s)
    p.unlocked |= 1 << a5
    do(s, "wonder A5")
    parts = s.player_parts(0)
    assert parts["wonder"] == 6 and parts["bonuses"] == 1 + 1  # A5 bonus point + wing bonus


def test_full_hexagon_rivermouth() -> None:
    s = new()
    roll(s, 3, 2)
    do(s, "road d1", "road 4,5,E", "road 4,5,NW", "road 4,5,SW")
    p = s.players[0]
    assert p.hex_uses == 1 and p.pres[3] == 1 and s.player_parts(0)["bonuses"] == 1


def test_milestone_15_roads() -> None:
    s = new()
    roll(s, 3, 2)
    p = s.players[0]
    p.placed = 14
    do(s, "road d1", "road 4,4,NE")
    assert p.pres[2] == 2 and p.miles == 1


def test_milestone_30_bonus_wonder_highcrag() -> None:
    s = new("highcrag")
    roll(s, 3, 2)
    p = s.players[0]
    p.placed = 29
    do(s, "road d1", "road 4,4,NE")
    assert p.pwonder == [0]


def test_river_tolls_once_per_road_action() -> None:
    s = new()
    roll(s, 6, 6)
    p = s.players[0]
    p.blocked = 0  # as if Bridges were discovered
    do(s, "road d1", "road 4,6,NW", "road 4,6,NE")
    assert p.pres[2] == 0
    do(s, "road 4,6,E")  # river edge: +1 wealth
    assert p.pres[2] == 1
    do(s, "store wealth", "road 4,7,SW")  # also a river edge: no second toll this action
    assert p.pres[2] == 0


def test_stonecutters_highcrag() -> None:
    s = new("highcrag")
    roll(s, 1, 1)
    p = s.players[0]
    p.connected |= 1 << (3 * 11 + 3)  # M+Su
    do(s, "mark 3,3")
    assert p.pres[1] == 2
    p.pres[1] = 0
    p.connected |= 1 << (3 * 11 + 7)  # plain mountain: markable thanks to Stonecutters
    assert "mark 3,7" in legal(s)


def test_caravans_goldplain() -> None:
    s = new("goldplain")
    roll(s, 1, 1)
    p = s.players[0]
    p.w_marked = 4
    assert "caravan favor" in legal(s)
    do(s, "caravan favor", "track favor")
    assert p.stored == 2 and p.favor == 1 and "caravan strength" not in legal(s)


def test_guild_law_on_build_and_granaries_end_bonus() -> None:
    s = new()
    roll(s, 3, 3)
    p = s.players[0]
    p.discovered |= 1 << 3
    s._apply_effect(p, s.game.sheet.innovations[3].effects[0])
    do(s, "build d1", "build 3 3,5")
    assert p.pres == [1, 0, 1, 1, 0]
    g = new("goldplain")
    q = g.players[0]
    q.discovered = 1 << 1
    q.bcount[1] = 3
    assert g.player_parts(0)["bonuses"] == 3 and g.player_parts(0)["innovations"] == 2


def test_turn_bonuses_after_turns_5_10_15_and_game_end() -> None:
    s = new()
    p = s.players[0]
    for t in range(1, 16):
        roll(s, 1, 1)
        do(s, "skip d1", "skip d2", "done")
        if t == 5:
            assert p.pib == 1
            do(s, "discard bonus", "done")
        elif t == 10:
            assert p.pbuild == [0]
            do(s, "build 1 3,5", "discard food", "done")
        elif t == 15:
            assert p.pwonder == [0]
            do(s, "wonder C1", "done")
    assert s.current_player() == TERMINAL and s.turn_list == [[1, 1]] * 15
    assert s.scores()[0].parts == {"buildings": 1, "roads": 0, "innovations": 0,
                                   "resources": 0, "wonder": 1, "bonuses": 0}


def test_simultaneous_players_share_dice() -> None:
    s = new(players=2)
    roll(s, 4, 3)
    assert s.active_players() == [0, 1] and s.current_player() == 0
    do(s, "road d1", player=1)
    assert s.players[1].roads_left == 4 and s.players[0].roads_left == 0
    do(s, "skip d1", "skip d2", "done", player=0)
    assert s.active_players() == [1] and s.current_player() == 1
    with pytest.raises(IllegalActionError):
        s.apply_action(s.game.A_ROAD, 0)
    do(s, "skip d2", "done", player=1)
    assert s.current_player() == CHANCE and s.turn == 2


def test_dice_combine_option() -> None:
    s = new(dice_use="combine")
    roll(s, 4, 3)
    assert "road d1+d2" in legal(s) and "build d1+d2" not in legal(s)
    do(s, "road d1+d2")
    assert s.players[0].roads_left == 7 and s.players[0].used == 3


def test_road_count_all_option() -> None:
    s = new(road_count="all")
    roll(s, 2, 1)
    do(s, "road d1", "skip d2")
    assert "done" not in legal(s)
    do(s, "road 4,4,NE", "road 4,4,NW")
    assert "done" in legal(s)


def test_marking_after_road_action_option() -> None:
    s = new(marking="after_road_action")
    roll(s, 2, 1)
    assert "mark 4,4" not in legal(s)
    do(s, "road d1")
    assert "mark 4,4" in legal(s)


def test_bad_options() -> None:
    with pytest.raises(OptionError, match="sheet"):
        load_game("roll-builder", sheet="atlantis")
    with pytest.raises(OptionError, match="sheet_file"):
        load_game("roll-builder", sheet_file="/nonexistent/x.json")
    with pytest.raises(OptionError, match="dice_use"):
        load_game("roll-builder", dice_use="sum")


def test_explain_illegal_mentions_pending() -> None:
    s = new()
    roll(s, 3, 2)
    do(s, "mark 4,4")
    with pytest.raises(IllegalActionError, match="first resolve.*1 food"):
        s.apply_action(6, 0)  # road d1
