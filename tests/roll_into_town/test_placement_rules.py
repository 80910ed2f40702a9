"""Issue 11: the watermill's "not in front of the river" rule (both readings) and the score
calculator enforcing the engine's placement rules."""

from __future__ import annotations

import pytest
from rit_helpers import BUILD, game

from citybuilders.core.errors import FormatError, IllegalActionError
from citybuilders.games.roll_into_town.scorefile import parse_map

# river from the west edge along row 4, then up and back west: its open end (3,2 -> W) points
# at (3,1), which is also beside the straight square (4,1) on a side without flow
RIVER_BACK = [
    ". . . . .",
    ". . . . .",
    ". . TH . .",
    ". . r:SW . .",
    "r:EW r:EW r:NW . .",
]


def build_state(rows, watermill_rule=None, res=(0, 0, 3)):
    """A solo state in the build phase with ``rows`` as the map (sheet made for the option)."""
    opts = {"rows": len(rows), "cols": len(rows[0].split())}
    if watermill_rule:
        opts["watermill_rule"] = watermill_rule
    g = game(**opts)
    s = g.new_initial_state(1, 0)
    for d in (1, 2, 3, 4, 5):
        s.apply_action(g.A_DIE + d - 1)
    front = g.options["watermill_rule"] == "non_flow_side"
    s.sheets = [parse_map(rows, g.geo, "map", front)]
    s.sheets[0].res = list(res)
    s.phase = BUILD
    s.done = [False]
    return s


def watermills(s):
    return [s.action_to_string(a) for a in s.legal_actions(0)
            if s.action_to_string(a).startswith("build watermill")]


def test_watermill_default_is_the_rulebook_not_in_front():
    s = build_state(RIVER_BACK)
    assert s.game.options["watermill_rule"] == "not_in_front"
    assert s.game.rules_version == "2"
    assert watermills(s) == ["build watermill 3,0", "build watermill 3,3",
                             "build watermill 4,3"]
    assert s.sheets[0].river_front() == 16  # (3,1)
    with pytest.raises(IllegalActionError) as err:
        s.string_to_action("build watermill 3,1")
    assert str(err.value) == (
        "'build watermill 3,1': cannot be placed there (empty, sharing a non-flow side with a "
        "river cell; not the square the river's open end points at)")


def test_watermill_proposal_reading_allows_the_front_square():
    s = build_state(RIVER_BACK, "non_flow_side")
    assert watermills(s) == ["build watermill 3,0", "build watermill 3,1",
                             "build watermill 3,3", "build watermill 4,3"]
    a = s.string_to_action("build watermill 3,1")
    s.apply_action(a, 0)
    assert s.sheets[0].bld[16] == 5 and s.sheets[0].res == [0, 0, 0]


def test_watermill_masks_agree_with_can_place_for_both_readings():
    for rule, expect in (("not_in_front", [15, 18, 23]), ("non_flow_side", [15, 16, 18, 23])):
        sh = build_state(RIVER_BACK, rule).sheets[0]
        from citybuilders.games.roll_into_town import rules as R
        mask = sh.anchor_mask(R.K_WATERMILL)
        assert R.bits(mask) == expect
        assert [c for c in range(25) if sh.can_place(R.K_WATERMILL, c)] == expect


def test_watermill_rule_is_kept_by_clone_and_json():
    s = build_state(RIVER_BACK, "non_flow_side")
    assert s.clone().sheets[0].watermill_front is True
    back = s.game.state_from_json(s.to_json())
    assert back.sheets[0].watermill_front is True


def test_watermill_rule_option_is_validated():
    from citybuilders.core.errors import OptionError
    with pytest.raises(OptionError, match="allowed: not_in_front, non_flow_side"):
        game(watermill_rule="anywhere")


# ------------------------------------------------------------------ score calculator
E5 = [". . . . .", ". . . . .", ". . TH . .", ". . . . .", ". . . . ."]


def with_cells(base, changes):
    grid = [r.split() for r in base]
    for (r, c), tok in changes.items():
        grid[r][c] = tok
    return [" ".join(r) for r in grid]


def score(rows, **opts):
    g = game()
    return g.score_file({"map": rows, "options": {"rows": len(rows), "cols": len(rows),
                                                  **opts}})


def score_error(rows, **opts) -> str:
    with pytest.raises(FormatError) as err:
        score(rows, **opts)
    return str(err.value)


def test_inland_harbor_is_refused_naming_the_cell():
    rows = with_cells(E5, {(1, 1): "HA"})
    assert score_error(rows) == ("map[1][1]: the harbor cannot stand there (allowed: coast "
                                 "without a building)")


def test_harbor_on_a_coast_scores():
    rows = with_cells(E5, {(0, 0): "c:N+HA"})
    assert score(rows).to_json()["players"][0]["parts"]["coast"] == 1


def test_building_on_a_farm_or_river_is_refused():
    assert score_error(with_cells(E5, {(0, 0): "fa+HO"})) == (
        "map[0][0]: the house cannot stand there (allowed: empty)")
    assert score_error(with_cells(E5, {(4, 0): "r:EW+WM"})).startswith(
        "map[4][0]: the watermill cannot stand there (allowed: empty, sharing")


def test_watermill_away_from_the_river_is_refused():
    rows = with_cells(E5, {(4, 0): "r:EW", (0, 4): "WM"})
    assert score_error(rows) == (
        "map[0][4]: the watermill cannot stand there (allowed: empty, sharing a non-flow side "
        "with a river cell; not the square the river's open end points at)")
    # in line with the river's ends is no better: (4,1) is where the water flows
    rows = with_cells(E5, {(4, 0): "r:EW", (4, 1): "WM"})
    assert score_error(rows).startswith("map[4][1]: the watermill cannot stand there")
    assert score_error(rows, watermill_rule="non_flow_side") == (
        "map[4][1]: the watermill cannot stand there (allowed: empty, sharing a non-flow side "
        "with a river cell)")


def test_watermill_in_front_of_the_open_end_can_predate_the_last_square():
    # the mill at (3,1) may have been built beside (4,1) before the square (3,2) was drawn
    rows = with_cells(RIVER_BACK, {(3, 1): "WM"})
    for rule in ("not_in_front", "non_flow_side"):
        parts = score(rows, watermill_rule=rule).to_json()["players"][0]["parts"]
        assert parts["river"] == 4


def test_watermill_beside_the_river_scores_with_its_farms():
    rows = with_cells(E5, {(4, 0): "r:EW", (3, 0): "WM", (0, 0): "fa"})
    assert score(rows).to_json()["players"][0]["total"] == 1


def test_lighthouse_bottom_must_touch_a_coast():
    rows = with_cells(E5, {(0, 4): "LT", (1, 4): "LB"})
    assert score_error(rows).startswith("map[0][4]: the lighthouse cannot stand there "
                                        "(allowed: top: empty, ocean or coast; bottom:")
    rows = with_cells(E5, {(0, 4): "LT", (1, 4): "LB", (2, 3): "c:N"})
    assert score(rows).to_json()["players"][0]["parts"]["lighthouse"] == 1
    rows = with_cells(E5, {(0, 4): "oc+LT", (1, 4): "c:N+LB"})
    assert score(rows).to_json()["players"][0]["parts"]["lighthouse"] == 2


def test_corner_only_coasts_in_the_calculator():
    rows = with_cells(E5, {(0, 0): "c:NS"})
    assert score(rows).to_json()["players"][0]["parts"]["coast"] == 1
    assert score_error(rows, coast_two_side_shape="corner_only") == (
        "map[0][0]: coast 'c:NS' is not allowed by option coast_two_side_shape=corner_only (two "
        "water sides only as a corner: NE, ES, SW, NW)")
    rows = with_cells(E5, {(0, 0): "c:NE"})
    assert score(rows, coast_two_side_shape="corner_only").to_json()["players"][0]["total"] == 1


def test_unknown_keys_name_the_key_and_the_allowed_ones():
    g = game()
    cases = [
        ({"map": E5, "colour": 1, "options": {"rows": 5, "cols": 5}},
         "colour: unknown key; allowed: game, map, name, options, players"),
        ({"players": [{"map": E5, "score": 3}], "options": {"rows": 5, "cols": 5}},
         "players[0].score: unknown key; allowed: map, name"),
        ({"map": E5, "options": {"rows": 5, "cols": 5, "speed": 1}},
         "options: unknown option speed; allowed: rows, cols, ocean_sides_rule, "
         "coast_two_side_shape, river_connect_rule, market_timing, ocean_check_timing, "
         "watermill_rule"),
        ({"map": E5, "game": "chess"}, "game: expected 'roll-into-town', got 'chess'"),
        ({"map": E5, "a\nb": 1}, "'a\\nb': unknown key; allowed: game, map, name, options, "
                                 "players"),
    ]
    for data, msg in cases:
        with pytest.raises(FormatError) as err:
            g.score_file(data)
        assert str(err.value) == msg
