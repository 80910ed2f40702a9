"""Crossroads section data: terrain counts, locations and castles of the 4 new sections.

The expected values are transcribed from the research digest (boards.json ``terrain_counts``,
single public source torgoton/kbc) so that this test never reads /work/shared.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest

from citybuilders.core.grid import hex_neighbors
from citybuilders.games.kingdom_builder.rules import crossroads as X

CODES = {"G": "grass", "C": "canyon", "D": "desert", "F": "flower_field", "T": "forest",
         "W": "water", "M": "mountain", "K": "castle", "L": "location"}

EXPECTED = {
    "lighthouse_foresters_lodge": (
        {"canyon": 14, "castle": 1, "desert": 13, "flower_field": 14, "forest": 13, "grass": 14,
         "location": 2, "mountain": 4, "water": 25},
        {(3, 2): "foresters_lodge", (6, 6): "lighthouse"}, [(2, 7)]),
    "barracks_crossroads": (
        {"canyon": 16, "castle": 1, "desert": 18, "flower_field": 18, "forest": 13, "grass": 20,
         "location": 2, "mountain": 4, "water": 8},
        {(3, 3): "barracks", (4, 7): "crossroads"}, [(7, 4)]),
    "city_hall_fort": (
        {"canyon": 13, "castle": 1, "desert": 16, "flower_field": 16, "forest": 15, "grass": 18,
         "location": 2, "mountain": 15, "water": 4},
        {(2, 5): "city_hall", (6, 6): "fort"}, [(4, 2)]),
    "monastery_wagon": (
        {"canyon": 15, "castle": 1, "desert": 14, "flower_field": 14, "forest": 14, "grass": 14,
         "location": 2, "mountain": 13, "water": 13},
        {(2, 7): "monastery", (8, 8): "wagon"}, [(6, 3)]),
}


def _sections() -> dict[str, dict]:
    try:
        text = (resources.files("citybuilders.games.kingdom_builder") / "data" / "sections.json"
                ).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):  # pragma: no cover - data not yet there
        pytest.skip("kingdom_builder section data not present")
    return {s["id"]: s for s in json.loads(text)["sections"]}


@pytest.mark.parametrize("sid", sorted(EXPECTED))
def test_crossroads_section_counts_locations_castles(sid: str) -> None:
    sec = _sections()[sid]
    counts, locations, castles = EXPECTED[sid]
    rows = sec["rows"]
    assert len(rows) == 10 and all(len(r) == 10 for r in rows)
    assert dict(Counter(CODES[ch] for row in rows for ch in row)) == counts
    assert {(r, c): k for r, c, k in sec["locations"]} == locations
    assert [tuple(x) for x in sec["castles"]] == castles
    for (r, c) in list(locations) + castles:
        assert rows[r][c] in "KL"
        assert 0 < r < 9 and 0 < c < 9  # never on a section border
    assert sec["expansion"] == "crossroads"
    assert sorted(locations.values()) == sorted(X.SECTIONS[sid])


@pytest.mark.parametrize("sid", sorted(EXPECTED))
def test_no_buildable_hex_touches_two_special_hexes(sid: str) -> None:
    rows = _sections()[sid]["rows"]
    for r in range(10):
        for c in range(10):
            specials = [1 for a, b in hex_neighbors(r, c, 10, 10) if rows[a][b] in "KL"]
            if rows[r][c] in "KL":
                assert not specials  # two special hexes are never adjacent
            else:
                assert len(specials) <= 1


def test_lighthouse_touches_water() -> None:
    rows = _sections()["lighthouse_foresters_lodge"]["rows"]
    assert "W" in [rows[a][b] for a, b in hex_neighbors(6, 6, 10, 10)]
