"""Every worked example of the digest's examples.json (transcribed in examples_data.py)."""

from __future__ import annotations

import pytest

from citybuilders.core.errors import FormatError
from citybuilders.games.sprawlopolis.loader import token_of
from citybuilders.games.sprawlopolis.scorefile import cards_city
from citybuilders.games.sprawlopolis.scoring import CONDITIONS, Analysis, Rules

from .examples_data import PLACEMENT, SCORING
from .helpers import analysis

ZONE_CODE = {"C": 1, "I": 2, "R": 3, "P": 4}


def _analysis_of(example: dict) -> Analysis:
    if "rows" in example:
        return analysis(example["rows"])
    city = cards_city(example["placements"], [])
    return Analysis(city.cells, city.occ, Rules())


@pytest.mark.parametrize("example", SCORING, ids=[e["id"] for e in SCORING])
def test_scoring_example(example: dict) -> None:
    a = _analysis_of(example)
    for n, expected in example["conditions"].items():
        assert CONDITIONS[n][1](a) == expected, f"condition {n}"
    assert len(a.roads) == example["roads"]
    for letter, size in example["largest"].items():
        assert a.largest[ZONE_CODE[letter]] == size, letter
    assert sum(a.largest) - len(a.roads) == example["base_score"]


@pytest.mark.parametrize("example", [e for e in SCORING if "placements" in e],
                         ids=[e["id"] for e in SCORING if "placements" in e])
def test_placements_give_resulting_rows(example: dict) -> None:
    city = cards_city(example["placements"], [])
    r0, c0, r1, c1 = city.bounds()
    from citybuilders.games.sprawlopolis.actions import index_of

    rows = [" ".join(token_of(city.cells[index_of(r, c)]) for c in range(c0, c1 + 1))
            for r in range(r0, r1 + 1)]
    assert rows == example["resulting_rows"]


@pytest.mark.parametrize("example", PLACEMENT, ids=[e["id"] for e in PLACEMENT])
def test_placement_example(example: dict) -> None:
    entries = example["existing"] + [example["new"]]
    if example["legal"]:
        city = cards_city(entries, [])
        assert len(city.placements) == len(entries)
    else:
        with pytest.raises(FormatError) as err:
            cards_city(entries, [])
        msg = str(err.value)
        assert f"cards[{len(entries) - 1}] (card {example['new']['card']})" in msg
        assert "\n" not in msg
