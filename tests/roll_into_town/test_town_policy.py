"""The town policy of the hard and expert levels (strategy.TOWN): its sea plan, its wood
economy values on small known positions, and a seeded game that builds a tavern."""

from __future__ import annotations

import random

import pytest
from rit_helpers import BUILD, DISCOVER, state_at

from citybuilders.bots import make_bot
from citybuilders.core.registry import load_game
from citybuilders.core.runner import play_out
from citybuilders.games.roll_into_town import rules as R
from citybuilders.games.roll_into_town import strategy as S

EMPTY9 = [". . . . . . . . ."] * 4 + [". . . . TH . . . ."] + [". . . . . . . . ."] * 4


def rows_with(changes: dict[tuple[int, int], str]) -> list[str]:
    grid = [r.split() for r in EMPTY9]
    for (r, c), tok in changes.items():
        grid[r][c] = tok
    return [" ".join(r) for r in grid]


# houses at 5,5 5,6 6,5 and a market at 0,8: a tavern at 6,6 has 3 houses and 5 empty cells
# (6,7 7,5 7,6 7,7 5,7) beside it
TOWN_ROWS = rows_with({(5, 5): "HO", (5, 6): "HO", (6, 5): "HO", (0, 8): "MA"})


def town_state(res: tuple[int, int, int], round_: int = 9):
    s = state_at(BUILD, TOWN_ROWS, res=res, round_=round_)
    s.sheets[0].unique_built |= R.UNIQUE_BIT["market"]
    return s


def test_sea_line_one_diagonal_out_has_six_coasts_and_fifteen_flooded_cells():
    geo = load_game("roll-into-town").geo
    line, tri, river = S.zones(geo, 1)
    assert (line.bit_count(), tri.bit_count(), river.bit_count()) == (6, 15, 9)
    assert S.zones(geo) == S.zones(geo, 0) and S.zones(geo)[0].bit_count() == 5
    assert S.TOWN.sea == 1 and S.TOWN.econ


def test_tavern_value_counts_the_houses_beside_it_and_its_empty_neighbours():
    s = town_state((0, 0, 5))
    w = S.TOWN.w
    anchor = 6 * 9 + 6
    # 3 houses no tavern counts yet, 5 empty neighbours (3 rounds left: room for 5 houses),
    # 5 wood at the market's price, half the planned site's weight while the planned tavern
    # cell 2,6 is still free
    expected = (w["tavern_cover"] * 3 + w["tavern_fill"] * 5 - 5 * w["wood"]
                - 0.5 * w["tav_site"])
    assert S._build_value(s, 0, R.K_TAVERN, anchor, S.TOWN) == pytest.approx(expected)
    assert expected == pytest.approx(2.75)
    # the tavern is the town policy's build: the best of the legal tavern cells
    a = S.town_action(s, 0, random.Random(0))
    assert s.action_to_string(a) == "build tavern 6,6"


def test_cathedral_is_worth_its_ten_points_less_the_wood():
    s = town_state((0, 0, 7))
    anchor = 1 * 9 + 5  # cells 1,5 2,5 2,6 3,5 3,6: outside the sea and the river row
    assert S._build_value(s, 0, R.K_CATHEDRAL, anchor, S.TOWN) == pytest.approx(
        10 - 7 * S.TOWN.w["wood"])
    # anchor 1,4: one of its cells (1,4) on the sea line (row + col == 5): half a point less
    assert S._build_value(s, 0, R.K_CATHEDRAL, 1 * 9 + 4, S.TOWN) == pytest.approx(
        10 - 7 * S.TOWN.w["wood"] - 0.5)


def test_market_trades_surplus_stone_for_wood_but_keeps_the_stone_for_houses():
    g = load_game("roll-into-town")
    stone_for_wood = g.A_TRADE + 1 * 3 + 2
    # 3 food (one house next round needs 2 stone), no income: 8 stone leave 6 to spare
    s = town_state((3, 8, 0), round_=5)
    legal = s.legal_actions(0)
    assert stone_for_wood in legal
    assert S._econ_trade(s, 0, legal, S.TOWN, g.A_DONE) == stone_for_wood
    # 3 stone: one trade would leave 1 < the 2 the next house needs
    s = town_state((3, 3, 0), round_=5)
    assert S._econ_trade(s, 0, s.legal_actions(0), S.TOWN, g.A_DONE) == g.A_DONE
    # the town policy never gives wood away (the greedy's house trade would, from 3 wood)
    s = town_state((0, 2, 4), round_=5)
    legal = s.legal_actions(0)
    wood_for_food = g.A_TRADE + 2 * 3 + 0
    assert wood_for_food in legal
    assert S._econ_trade(s, 0, legal, S.TOWN, g.A_DONE) != wood_for_food


def test_last_round_leftovers_become_the_wood_of_the_cathedral_or_a_tavern():
    g = load_game("roll-into-town")
    stone_for_wood = g.A_TRADE + 1 * 3 + 2
    # last round, 3 food, 9 stone, 3 wood: 3 + 9 // 2 + 3 // 2 = 8 wood >= the cathedral's 7
    s = town_state((3, 9, 3), round_=11)
    assert S._econ_trade(s, 0, s.legal_actions(0), S.TOWN, g.A_DONE) == stone_for_wood
    # 3 food, 8 stone, 1 wood: 6 wood at most; the cathedral placeable: keep
    s = town_state((3, 8, 1), round_=11)
    assert S._econ_trade(s, 0, s.legal_actions(0), S.TOWN, g.A_DONE) == g.A_DONE
    # the same once the cathedral stands: 6 >= a tavern's 5
    s.sheets[0].unique_built |= R.UNIQUE_BIT["cathedral"]
    assert S._econ_trade(s, 0, s.legal_actions(0), S.TOWN, g.A_DONE) == stone_for_wood
    # no food: the greedy's trade toward a house comes first (stone for food)
    s = town_state((0, 8, 1), round_=11)
    assert S._econ_trade(s, 0, s.legal_actions(0), S.TOWN, g.A_DONE) == g.A_TRADE + 1 * 3


def test_town_policy_draws_on_the_sea_line_one_diagonal_out():
    # a coast die: the town policy's coast goes on row + col == 5 facing north-west
    s = state_at(DISCOVER, dice=(5, 5, 5, 5, 5))
    a = S.town_action(s, 0, random.Random(0))
    text = s.action_to_string(a)
    r, c = map(int, text.split()[-1].split(","))
    assert text.startswith("d1 coast") and r + c == 5, text


def test_normal_greedy_is_unchanged_by_the_policy_argument():
    s = state_at(DISCOVER, dice=(5, 5, 5, 5, 5))
    assert S.greedy_action(s, 0, random.Random(0)) == \
        S.greedy_action(s, 0, random.Random(0), None)
    r, c = map(int, s.action_to_string(S.greedy_action(s, 0, random.Random(0)))
               .split()[-1].split(","))
    assert r + c == 4


def test_town_policy_builds_a_tavern_ring_on_its_planned_cell_in_a_known_seed():
    g = load_game("roll-into-town")
    s = g.new_initial_state(1, 1)

    class Town:
        rng = random.Random(1)

        def step(self, st, cp):
            return S.town_action(st, cp, self.rng)

    play_out(s, [Town()], random.Random(1))
    parts = s.scores()[0].parts
    assert parts["taverns"] == 8 and s.scores()[0].total == 73, parts
    sheet = s.sheets[0]
    assert sheet.bld[2 * 9 + 6] == R.B_TAVERN  # the planned cell (rows // 4, cols - 1 - cols // 4)


def test_tavern_site_keeps_icons_off_its_cell_and_ring_and_draws_houses_to_it():
    s = town_state((9, 9, 0), round_=5)
    w = S.TOWN.w
    site, ring, far = 2 * 9 + 6, 2 * 9 + 7, 6 * 9 + 2
    assert S._tavern_site(s.sheets[0], S.TOWN) == site
    assert S._tavern_site_penalty(s.sheets[0], site, S.TOWN) == w["tav_site"]
    assert S._tavern_site_penalty(s.sheets[0], ring, S.TOWN) == w["tav_ring"]
    assert S._tavern_site_penalty(s.sheets[0], far, S.TOWN) == 0.0
    # a house beside the planned cell gains tav_house; a house on it loses tav_site
    v_ring = S._build_value(s, 0, R.K_HOUSE, ring, S.TOWN)
    v_far = S._build_value(s, 0, R.K_HOUSE, 5 * 9 + 2, S.TOWN)  # 5,2: 8 empty cells around too
    assert v_ring - v_far == pytest.approx(w["tav_house"])
    assert S._build_value(s, 0, R.K_HOUSE, site, S.TOWN) < v_far
    # the plan is off once a tavern stands
    s.sheets[0].bld[6 * 9 + 6] = R.B_TAVERN
    assert S._tavern_site(s.sheets[0], S.TOWN) == -1


def test_fountain_and_market_stay_off_the_sea_and_river_plans():
    s = town_state((0, 9, 0), round_=3)
    s.sheets[0].unique_built &= ~R.UNIQUE_BIT["market"]
    a = S.town_action(s, 0, random.Random(0))
    text = s.action_to_string(a)
    assert text.startswith("build "), text
    r, c = map(int, text.split()[-1].split(","))
    assert r + c > 5 and r < 8, text  # not on the sea plan (r + c <= 5) nor the river row
