"""Score calculator input/output (issue §4; docs/formats.md)."""

from __future__ import annotations

import pytest

import citybuilders
from citybuilders.core.errors import FormatError

GAME = citybuilders.load_game("kingdom-builder")


def example() -> dict:
    return {
        "game": "kingdom-builder",
        "sections": [["tavern", 0], ["paddock", 0], ["oasis", 0], ["farm", 0]],
        "cards": ["fishermen", "knights", "lords"],
        "settlements": [
            [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [14, 5]],
            [[0, 5], [0, 6], [0, 12], [0, 13], [0, 14], [3, 0]],
        ],
        "options": {},
    }


def test_example_scores() -> None:
    res = GAME.score_file(example()).to_json()
    # p0: fishermen 0, knights 2*3, lords TL 12 + TR 6 + BL 12 = 30, castles 0
    # p1: fishermen (0,14) touches water (0,15)/(1,14)? (0,14) even: (0,15) W -> 1;
    #     (3,0) stands on water -> 0; knights 2*5 (row 0); lords TL 6 + TR 12 + BL 6 = 24
    assert res == {"players": [
        {"total": 36, "cards": {"fishermen": 0, "knights": 6, "lords": 30}, "castles": 0},
        {"total": 35, "cards": {"fishermen": 1, "knights": 10, "lords": 24}, "castles": 0},
    ]}
    text = GAME.score_file(example()).to_text()
    assert "Lords" in text and "36" in text  # the card names of texts.py


def test_rotation_changes_score() -> None:
    d = example()
    d["sections"][3] = ["farm", 180]
    d["settlements"] = [[[17, 18], [18, 17]], []]  # next to the farm castle at (18,18)
    res = GAME.score_file(d).to_json()
    assert res["players"][0]["castles"] == 3


def test_options_in_file() -> None:
    d = example()
    d["options"] = {"lords_zero_scores": "never"}
    res = GAME.score_file(d).to_json()
    assert res["players"][0]["cards"]["lords"] == 24


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d.pop("cards"), "missing key 'cards'"),
    (lambda d: d.update(sections=[["mars", 0]] + d["sections"][1:]), "unknown section 'mars'"),
    (lambda d: d["sections"].__setitem__(0, ["tavern", 90]), "rotation must be 0 or 180"),
    (lambda d: d.update(cards=["fishermen", "knights", "pirates"]), "unknown card 'pirates'"),
    (lambda d: d["settlements"][0].append([20, 3]), "off the board"),
    (lambda d: d["settlements"][1].append([0, 0]), "already holds a settlement of P1 \\(settlements\\[0\\]\\)"),
    (lambda d: d["settlements"][0].append([3, 3]), "castle hex"),
    (lambda d: d["settlements"][0].append([6, 2]), "location hex"),
    (lambda d: d["settlements"][0].append(["a", 1]), "expected \\[row, col\\] integers"),
    (lambda d: d.update(settlements="x"), "'settlements' must be a list"),
    (lambda d: d.update(options={"bogus": 1}), "options: unknown option"),
    (lambda d: d.update(game="sprawlopolis"), "'game' must be 'kingdom-builder'"),
])
def test_bad_files(mutate, needle: str) -> None:
    d = example()
    mutate(d)
    with pytest.raises(FormatError, match=needle) as exc:
        GAME.score_file(d)
    assert "\n" not in str(exc.value)


def test_water_settlement_accepted() -> None:
    d = example()
    d["settlements"] = [[[3, 0]], []]
    assert GAME.score_file(d).to_json()["players"][0]["total"] == 2 + 12 + 0  # knights+lords
