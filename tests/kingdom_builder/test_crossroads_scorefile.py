"""Crossroads score-file extension (docs/formats.md) and its CLI: exact values by hand, bad files.

Layout CR (all Crossroads sections, 0°); see test_crossroads_game.py for the rows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import citybuilders
from citybuilders.core.errors import FormatError

from .helpers import cli_moves, run_cli

CITY_HALL = [[18, 5], [18, 4], [18, 6], [17, 4], [17, 5], [19, 4], [19, 5]]


def example() -> dict:
    """Player 0: settlement 0,0, wagon 0,1, city hall around 18,5, warrior 10,19.
    Player 1: settlements down the left column 1..7 (without 5,0) and the ship on water 5,0."""
    return {
        "game": "kingdom-builder",
        "sections": [["lighthouse_foresters_lodge", 0], ["barracks_crossroads", 0],
                     ["city_hall_fort", 0], ["monastery_wagon", 0]],
        "cards": ["knights", "lords", "hermits"],
        "settlements": [[[0, 0]], [[1, 0], [2, 0], [3, 0], [4, 0], [6, 0], [7, 0]]],
        "wagons": [[[0, 1]], []],
        "ships": [[], [[5, 0]]],
        "warriors": [[[10, 19]], []],
        "city_hall": [CITY_HALL, []],
        "tasks": ["compass_points", "advance"],
        "options": {},
    }


def score(data: dict) -> dict:
    g = citybuilders.load_game("kingdom-builder")
    return g.score_file(data).to_json()


def test_example_exact_values() -> None:
    got = score(example())
    p0, p1 = got["players"]
    # knights: p0's fullest row is 18 (3 city-hall hexes) -> 6; p1 one per row -> 2
    # lords: TL p1 7 vs p0 2 (12/6); BL p0 7 (12, p1 6); BR p0 1 (12, p1 6)
    # hermits: p0 {0,0 + wagon}, city hall, warrior = 3; p1 column + ship = 1
    assert p0["cards"] == {"knights": 6, "lords": 30, "hermits": 3}
    assert p1["cards"] == {"knights": 2, "lords": 24, "hermits": 1}
    assert p0["castles"] == 0 and p1["castles"] == 0
    # compass points: p0 top (0,0), left (0,0), bottom (19,4), right (10,19)
    # advance: p1 has 7 pieces on the left edge (the ship included)
    assert p0["tasks"] == {"compass_points": 10, "advance": 0}
    assert p1["tasks"] == {"compass_points": 0, "advance": 9}
    assert p0["total"] == 6 + 30 + 3 + 10 and p1["total"] == 2 + 24 + 1 + 9


def test_text_output_lists_tasks() -> None:
    g = citybuilders.load_game("kingdom-builder")
    text = g.score_file(example()).to_text()
    assert "task Compass points" in text and "task Advance" in text  # the names of texts.py
    assert text.splitlines()[-1].split()[-2:] == ["49", "36"]


def test_without_crossroads_keys_the_output_is_unchanged() -> None:
    data = example()
    for k in ("wagons", "ships", "warriors", "city_hall", "tasks"):
        del data[k]
    got = score(data)
    assert "tasks" not in got["players"][0]


def test_city_hall_counts_seven_for_lords_and_knights() -> None:
    data = example()
    data["cards"] = ["lords", "knights", "citizens"]
    data["settlements"] = [[], [[15, 0], [15, 1], [16, 2], [13, 0], [13, 1], [12, 2]]]
    data["wagons"] = [[], []]
    data["ships"] = [[], []]
    data["warriors"] = [[], []]
    data["tasks"] = ["fortress"]
    p0, p1 = score(data)["players"]
    assert p0["cards"]["lords"] == 12 and p1["cards"]["lords"] == 6  # 7 beat 6 in BL
    assert p0["cards"]["citizens"] == 3 and p0["cards"]["knights"] == 6
    assert p0["tasks"] == {"fortress": 6}  # the centre 18,5 is surrounded by its 6 hexes
    assert p1["tasks"] == {"fortress": 0}


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"wagons": [[[1, 0]], []]}, "already holds a settlement of P2"),
        ({"ships": [[[1, 1]], []]}, "must be a water hex"),
        ({"wagons": [[[4, 4]], []]}, "must be a buildable or mountain hex"),
        ({"warriors": [[[2, 9]], []]}, "must be a buildable hex"),
        ({"warriors": [[[9, 9], [9, 8], [9, 7]], []]}, "at most 2"),
        ({"wagons": [[[2, 7]], []]}, "castle hex"),
        ({"city_hall": [CITY_HALL[:6], []]}, "7 hexes"),
        ({"city_hall": [CITY_HALL[:6] + [[19, 6]], []]}, "7 hexes"),
        ({"tasks": ["road", "road"]}, "must differ"),
        ({"tasks": ["harbour"]}, "unknown task"),
        ({"tasks": "road"}, "'tasks' must be a list"),
        ({"wagons": [[[0, 20]], []]}, "off the board"),
        ({"wagons": [[["a", 1]], []]}, "expected [row, col]"),
        ({"ships": [[], [], []]}, "'settlements' has 2 players"),
    ],
)
def test_bad_crossroads_keys(change: dict, needle: str) -> None:
    data = {**example(), **change}
    with pytest.raises(FormatError) as err:
        score(data)
    assert needle in str(err.value)
    assert "\n" not in str(err.value)


def test_cli_score_json_and_bad_file(tmp_path: Path, capsys) -> None:
    f = tmp_path / "cr.json"
    f.write_text(json.dumps(example()))
    code, out, _ = run_cli(capsys, "score", "kingdom-builder", str(f), "--json")
    assert code == 0
    got = json.loads(out)
    assert [p["total"] for p in got["players"]] == [49, 36]
    assert got["players"][1]["tasks"] == {"compass_points": 0, "advance": 9}
    f.write_text(json.dumps({**example(), "ships": [[[1, 1]], []]}))
    code, _, err = run_cli(capsys, "score", "kingdom-builder", str(f))
    assert code == 2 and "Traceback" not in err and "water" in err
    assert len(err.strip().splitlines()) == 1


def test_cli_moves_of_a_crossroads_position(tmp_path: Path, capsys) -> None:
    g = citybuilders.load_game(
        "kingdom-builder", expansions=["crossroads"], tasks=["road", "advance", "fortress",
                                                             "compass_points"],
        sections=["lighthouse_foresters_lodge:0", "barracks_crossroads:0", "city_hall_fort:0",
                  "monastery_wagon:0"], start_player=0)
    s = g.new_initial_state(2, 0)
    s.apply_action(4)  # forest for player 0
    s.apply_action(0)
    code, lines, _ = cli_moves(capsys, tmp_path, s)
    assert code == 0
    assert len(lines) == 55 and lines[0] == "build 0,0"  # every forest hex


def test_cli_play_and_simulate_with_crossroads(tmp_path: Path, capsys) -> None:
    code, out, _ = run_cli(capsys, "play", "kingdom-builder", "--players", "random,greedy",
                        "--expansions", "crossroads", "--sections",
                        "lighthouse_foresters_lodge,barracks_crossroads,tavern,farm",
                        "--seed", "2", "--no-color")
    assert code == 0
    assert "fortress" in out and "road" in out  # the two tasks of this setup in the breakdown
    assert "Crossroads tasks: Fortress (6 gold); Road (7 gold)" in out
    rows = tmp_path / "rows.jsonl"
    code, out, _ = run_cli(capsys, "simulate", "kingdom-builder", "--games", "2", "--players",
                        "greedy,random", "--expansions", "crossroads", "--no-progress",
                        "--out", str(rows))
    assert code == 0
    lines = rows.read_text().strip().splitlines()
    assert len(lines) == 2


def test_cli_play_human_uses_crossroads_notation(capsys, monkeypatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("wagon 0,0\nhelp\nquit\n"))
    code, out, err = run_cli(capsys, "play", "kingdom-builder", "--players", "human,random",
                          "--expansions", "crossroads", "--seed", "11", "--no-color")
    assert "Traceback" not in out + err
    assert "you hold no Wagon tile" in out + err
