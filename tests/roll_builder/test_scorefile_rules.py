"""Score calculator (issue 11): the engine's placement and unlock rules apply to score files.

Each case names the rule the engine enforces in play and the exact one-line message a score file
breaking it gets; the same drawing with what the rule asks for (an innovation, a marked space...)
is accepted.
"""
from __future__ import annotations

import pytest

from citybuilders.core.errors import FormatError
from citybuilders.games.roll_builder.scorefile import score_file


def _err(data: dict) -> str:
    with pytest.raises(FormatError) as ei:
        score_file(data)
    return str(ei.value)


RIVER = ["3,5,SE", "3,6,SW", "3,6,SE"]  # Rivermouth: the last one is a river side
RIDGE = ["3,4,SW", "3,3,E", "2,4,SW"]  # Highcrag: the last one lies between two mountains


def test_river_side_needs_bridges() -> None:
    assert _err({"sheet": "rivermouth", "roads": RIVER}) == (
        "roads[2]: 3,6,SE is a river side: a road there needs I1 Bridges discovered")
    r = score_file({"sheet": "rivermouth", "roads": RIVER, "innovations": ["I1"]})
    assert r.details["roads_drawn"] == 3 and r.parts["innovations"] == 2


def test_ridge_needs_mountain_passes() -> None:
    assert _err({"sheet": "highcrag", "roads": RIDGE}) == (
        "roads[2]: 2,4,SW crosses a mountain ridge: a road there needs I1 Mountain Passes "
        "discovered")
    assert score_file({"sheet": "highcrag", "roads": RIDGE,
                       "innovations": ["I1"]}).details["roads_drawn"] == 3


def test_roads_in_any_order_but_joined() -> None:
    r = score_file({"sheet": "rivermouth", "roads": list(reversed(RIVER)), "innovations": ["I1"]})
    assert r.details["roads_drawn"] == 3
    assert _err({"sheet": "rivermouth", "roads": ["3,6,SW"]}) == (
        "roads: 3,6,SW is not joined to the road network")


def test_ascending_wonder_values_never_go_down() -> None:
    assert _err({"sheet": "rivermouth", "wonder": {"C1": 4, "C2": 3}}) == (
        "wonder.C2: value 3 is below 4, a value of a box C2 requires (Harbor Colossus is "
        "ascending: values never go down)")
    assert score_file({"sheet": "rivermouth", "wonder": {"C1": 4, "C2": 4}}).parts["wonder"] == 2


def test_locked_box_must_be_unlocked() -> None:
    boxes = ["C1", "C2", "C3", "C4", "C5", "C6", "C7"]
    assert _err({"sheet": "rivermouth", "wonder": boxes}) == (
        "wonder[6]: box C7 is locked and nothing drawn unlocks it (a marked U:C7 space, a "
        "discovered innovation or a road milestone)")
    # I3 Navigation unlocks C7
    r = score_file({"sheet": "rivermouth", "wonder": boxes, "innovations": ["I3"]})
    assert r.parts["wonder"] == 7


def test_prerequisites_still_checked() -> None:
    assert _err({"sheet": "rivermouth", "wonder": ["C2"]}) == "wonder: box C2 needs C1 filled"


def test_building_placement_rule() -> None:
    assert _err({"sheet": "rivermouth", "buildings": [["3,5", 6]]}) == (
        "buildings[0]: building 6 (Docks) must be next to water or on a space with a river "
        "side; 3,5 is neither")
    assert score_file({"sheet": "rivermouth",
                       "buildings": [["4,6", 6]]}).parts["buildings"] == 1


def test_two_space_building() -> None:
    assert _err({"sheet": "goldplain", "buildings": [["3,5", 6]]}) == (
        "buildings[0]: building 6 (Guildhall) takes two adjacent spaces: list its second mark too")
    assert _err({"sheet": "goldplain", "buildings": [["3,5", 6], ["5,5", 6]]}) == (
        "buildings[1]: the second mark of building 6 (Guildhall) must be on a free connected "
        "land space next to 3,5")


def test_shared_space_in_either_order() -> None:
    # Highcrag's Watchtower (6) may share a space with another building, in any listed order
    for b in ([["3,5", 6], ["3,5", 1]], [["3,5", 1], ["3,5", 6]]):
        assert score_file({"sheet": "highcrag", "buildings": b}).parts["buildings"] == 2
    assert _err({"sheet": "highcrag", "buildings": [["3,5", 1], ["3,5", 2]]}) == (
        "buildings[1]: 3,5 already holds a building")


def test_marks_follow_the_engine() -> None:
    assert _err({"sheet": "rivermouth", "marks": ["3,5"]}) == (
        "marks[0]: 3,5 has nothing to collect (a land space without an icon cannot be marked)")
    assert _err({"sheet": "rivermouth", "marks": ["4,4", "4,4"]}) == (
        "marks[1]: 4,4 is marked already")


def test_duplicates_and_unknown_keys() -> None:
    assert _err({"sheet": "rivermouth", "innovations": ["I1", "I1"]}) == (
        "innovations[1]: I1 is listed twice")
    assert _err({"sheet": "rivermouth", "wonder": ["C1", "C1"]}) == (
        "wonder[1]: box C1 is listed twice")
    assert _err({"sheet": "rivermouth", "colour": 1}) == (
        "colour: unknown field; allowed: buildings, favor_crossed, format, game, innovations, "
        "marks, roads, sheet, strength_crossed, wealth_stored, wonder")
