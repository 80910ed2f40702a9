"""Score calculator (both input forms, exact --json output, errors) and CLI integration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citybuilders.cli import main
from citybuilders.core.errors import FormatError
from citybuilders.core.registry import load_game

GAME = load_game("sprawlopolis")

# card 1 alone (X01): groups 1 each, 2 roads; conditions 10 The Strip 1, 12 Superhighway 1, 18: 4
CARD1_JSON = {"total": 4 - 2 + 1 + 1 + 4, "target": 40, "won": False,
              "groups": {"commercial": 1, "industrial": 1, "residential": 1, "park": 1},
              "roads": 2, "conditions": {"10": 1, "12": 1, "18": 4}}


def score(data: dict) -> dict:
    return GAME.score_file(data).to_json()


def test_cards_form_exact_json() -> None:
    data = {"game": "sprawlopolis", "conditions": [10, 12, 18],
            "cards": [{"card": 1, "row": 0, "col": 0, "rot": 0}]}
    assert score(data) == CARD1_JSON


def test_grid_form_equals_cards_form() -> None:
    data = {"game": "sprawlopolis", "conditions": [10, 12, 18], "grid": ["P I-NE", "C-EW R-EW"]}
    assert score(data) == CARD1_JSON


def test_rotation_and_covering_in_cards_form() -> None:
    cards = [{"card": 1, "row": 0, "col": 0, "rot": 0}, {"card": 2, "row": 0, "col": 1, "rot": 0},
             {"card": 3, "row": -2, "col": 0, "rot": 180}]
    # card 3 at rot 180: TL,TR,BL,BR = R-NS, P, C-NS, I-SE over rows -2..-1, cols 0..1
    grid = ["R-NS P .", "C-NS I-SE .", "P R-NS P", "C-EW C-NE I-EW"]
    a = score({"conditions": [4, 5, 6], "cards": cards})
    b = score({"conditions": [4, 5, 6], "grid": grid})
    assert a == b
    # roads: R-NS+C-NS in column 0; I-SE, R-NS, C-NE, I-EW; the lone C-EW (T contact at C-NE)
    assert a["roads"] == 3
    assert a["groups"] == {"commercial": 2, "industrial": 1, "residential": 1, "park": 1}


def test_translation_does_not_matter() -> None:
    cards = [{"card": 1, "row": 0, "col": 0, "rot": 0}, {"card": 2, "row": 1, "col": 2, "rot": 180}]
    far = [dict(c, row=c["row"] - 40, col=c["col"] + 70) for c in cards]
    assert score({"conditions": [3, 4, 5], "cards": cards}) == score({"conditions": [3, 4, 5], "cards": far})


def test_file_options() -> None:
    rows = ["R R R", "R C R", "R . R", "R R R"]
    assert score({"conditions": [17, 1, 2], "grid": rows})["conditions"]["17"] == 1
    outer = score({"conditions": [17, 1, 2], "grid": rows, "options": {"city_edge": "outer"}})
    assert outer["conditions"]["17"] == 0


def test_fifteen_card_city() -> None:
    state = load_game("sprawlopolis", conditions=[1, 2, 3]).new_initial_state(1, 0)
    import random

    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(state.sample_chance(rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    data = {"conditions": [1, 2, 3], "cards": state.placements_json()}
    assert score(data) == state.breakdown().to_json()
    r0, c0, rows = state.grid_rows()
    assert score({"conditions": [1, 2, 3], "grid": rows}) == state.breakdown().to_json()


@pytest.mark.parametrize("data, message", [
    ({"conditions": [1, 2], "grid": ["C"]}, "conditions: expected a list of 3"),
    ({"conditions": [1, 2, 2], "grid": ["C"]}, "conditions[2]: card 2 is listed twice"),
    ({"conditions": [1, 2, 30], "grid": ["C"]}, "conditions[2]: unknown card 30"),
    ({"conditions": [1, 2, 3]}, "exactly one of 'cards'"),
    ({"conditions": [1, 2, 3], "grid": ["C"], "cards": []}, "exactly one of 'cards'"),
    ({"conditions": [1, 2, 3], "grid": ["C X"]}, "grid[0] column 1: bad block token 'X'"),
    ({"conditions": [1, 2, 3], "grid": ["C C", "C"]}, "grid[1]: has 1 tokens"),
    ({"conditions": [1, 2, 3], "grid": [". ."]}, "grid: no blocks"),
    ({"conditions": [1, 2, 3], "grid": "C"}, "grid: expected"),
    ({"conditions": [1, 2, 3], "cards": [{"card": 19, "row": 0, "col": 0}]}, "cards[0]: unknown card 19"),
    ({"conditions": [1, 2, 3], "cards": [{"card": 4, "row": 0, "col": 0},
                                         {"card": 4, "row": 0, "col": 2}]},
     "cards[1] (card 4): card 4 is used twice"),
    ({"conditions": [1, 2, 3], "cards": [{"card": 2, "row": 0, "col": 0}]},
     "cards[0] (card 2): card 2 is a scoring condition"),
    ({"conditions": [1, 2, 3], "cards": [{"card": 4, "row": 0, "col": 0},
                                         {"card": 5, "row": 0, "col": 2, "rot": 90}]},
     "cards[1] (card 5): rotation 90 is not allowed"),
    ({"conditions": [1, 2, 3], "cards": [{"card": 4, "row": 0, "col": 0},
                                         {"card": 5, "row": 2, "col": 2}]},
     "cards[1] (card 5) at 2,2: illegal placement, touches the city only at a corner"),
    ({"conditions": [1, 2, 3], "cards": [{"card": 4, "row": 0, "col": 0},
                                         {"card": 5, "row": 0, "col": 3}]},
     "cards[1] (card 5) at 0,3: illegal placement, does not touch the city"),
    ({"conditions": [1, 2, 3], "cards": [{"card": 4, "row": "0", "col": 0}]},
     "cards[0] (card 4).row: expected an integer"),
    ({"conditions": [1, 2, 3], "cards": [{"card": 4, "col": 0}]}, "cards[0]: missing 'row'"),
    ({"conditions": [1, 2, 3], "cards": [{"card": 4, "row": 0, "col": 0, "flip": 1}]},
     "cards[0]: unknown key 'flip'"),
    ({"conditions": [1, 2, 3], "grid": ["C"], "colour": 1}, "unknown key 'colour'"),
    ({"conditions": [1, 2, 3], "grid": ["C"], "options": {"city_edge": "x"}}, "options: option 'city_edge'"),
])
def test_bad_files(data: dict, message: str) -> None:
    with pytest.raises(FormatError) as err:
        GAME.score_file(data)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_cover_whole_card_forbidden_in_file() -> None:
    game = load_game("sprawlopolis", cover_whole_card="forbidden")
    data = {"conditions": [1, 2, 3], "cards": [{"card": 4, "row": 0, "col": 0},
                                               {"card": 5, "row": 0, "col": 0}]}
    with pytest.raises(FormatError, match="covers every visible block"):
        game.score_file(data)
    assert GAME.score_file(data).to_json()["groups"]["park"] == 1


def test_text_output() -> None:
    text = GAME.score_file({"conditions": [10, 12, 18], "grid": ["P I-NE", "C-EW R-EW"]}).to_text()
    assert "largest commercial" in text and "12 Superhighway" in text and "LOST" in text
    assert "total" in text and " 8" in text


# ------------------------------------------------------------------ CLI
def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_cli_score_json_and_text(tmp_path: Path, capsys) -> None:
    f = tmp_path / "city.json"
    f.write_text(json.dumps({"game": "sprawlopolis", "conditions": [10, 12, 18],
                             "cards": [{"card": 1, "row": 0, "col": 0, "rot": 0}]}))
    code, out, err = run(capsys, "score", "sprawlopolis", str(f), "--json")
    assert code == 0 and json.loads(out) == CARD1_JSON
    code, out, _ = run(capsys, "score", "sprawlopolis", str(f))
    assert code == 0 and "Superhighway" in out


@pytest.mark.parametrize("content, message", [
    ('{"conditions": [1, 2, 3], "cards": [{"card": 4, "row": 0, "col": 0}, '
     '{"card": 5, "row": 2, "col": 2}]}', "card 5"),
    ('{"conditions": [1, 2, 3], "cards": [{"card": 4, "row": 0, "col": 0, "rot": 90}]}', "rotation 90"),
    ('{"conditions": [1, 2, 3], "grid": ["Q"]}', "grid[0]"),
    ('{"conditions": [1, 2, 3], ', ""),
    ('[1, 2]', ""),
])
def test_cli_score_bad_files(tmp_path: Path, capsys, content: str, message: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(content)
    code, out, err = run(capsys, "score", "sprawlopolis", str(f), "--json")
    assert code == 2
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_cli_options_listed(capsys) -> None:
    code, out, _ = run(capsys, "options", "sprawlopolis")
    assert code == 0
    for name in ("conditions", "difficulty", "harder_zone", "cover_whole_card", "city_edge",
                 "tourist_corner", "outskirts_loop", "park_hopping_parks", "burbs_tie", "mini_marts"):
        assert name in out


def test_cli_simulate_by_conditions(capsys) -> None:
    code, out, err = run(capsys, "simulate", "sprawlopolis", "--games", "4", "--players", "random",
                         "--by", "conditions", "--no-progress")
    assert code == 0, err
    assert "target reached" in out and "by conditions" in out


def test_cli_simulate_coop_with_fixed_conditions(capsys) -> None:
    code, out, err = run(capsys, "simulate", "sprawlopolis", "-n", "2", "-p", "random,greedy",
                         "--conditions", "1,2,3", "--no-progress")
    assert code == 0, err
    assert "target reached" in out


def test_cli_play_scripted(monkeypatch, capsys) -> None:
    import io

    moves = ["moves", "hint", "play 99 at 0,0", "undo", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(moves) + "\n"))
    code, out, err = run(capsys, "play", "sprawlopolis", "--players", "human", "--seed", "3",
                         "--no-color")
    assert "Traceback" not in out + err
    assert "legal top-left positions" in out and "hint: play" in out
