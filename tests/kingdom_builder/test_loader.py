"""loader.py validates the section data: every defect is one FormatError line naming the place."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from citybuilders.core.errors import FormatError
from citybuilders.games.kingdom_builder import texts
from citybuilders.games.kingdom_builder.loader import load_sections, section_data

RAW = json.loads(resources.files("citybuilders.games.kingdom_builder")
                 .joinpath("data/sections.json").read_text("utf-8"))


def _error(mutate) -> str:
    data = copy.deepcopy(RAW)
    mutate(data["sections"][0])
    with pytest.raises(FormatError) as exc:
        load_sections(json.dumps(data))
    return str(exc.value)


def test_the_package_data_loads() -> None:
    secs = section_data()
    assert len(secs) == 12
    assert {kind for s in secs.values() for _, _, kind in s.locations} <= set(texts.TILE_NAMES)


@pytest.mark.parametrize("mutate,message", [
    (lambda s: s.update(locations=[[6, 2]]),
     "sections[0] (tavern): locations[0] must be [row, col, kind] with row and col 0..9, "
     "got [6, 2]"),
    (lambda s: s.update(castles=[[3, 30]]),
     "sections[0] (tavern): castles[0] must be [row, col] with row and col 0..9, got [3, 30]"),
    (lambda s: s.update(terrain_counts=[]), "sections[0] (tavern): 'terrain_counts' must be an "
                                            "object"),
    (lambda s: s.update(expansion="nomads"), "sections[0] (tavern): 'expansion' must be one of "
                                             "base, crossroads, got 'nomads'"),
    (lambda s: s.update(tiles_per_location=0), "sections[0] (tavern): 'tiles_per_location' must "
                                               "be a positive integer"),
    (lambda s: s.update(locations={}), "sections[0] (tavern): 'locations' must be a list"),
    (lambda s: s.update(id=""), "sections[0]: 'id' must be a non-empty string"),
])
def test_bad_section_data(mutate, message: str) -> None:
    assert _error(mutate) == message


def test_duplicate_section_id() -> None:
    data = copy.deepcopy(RAW)
    data["sections"][1]["id"] = "tavern"
    with pytest.raises(FormatError, match=r"^sections\[1\]: duplicate section id 'tavern'$"):
        load_sections(json.dumps(data))
