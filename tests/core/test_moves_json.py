"""``citybuilders moves FILE --json``: the legal moves as structured data."""

from __future__ import annotations

import json

from citybuilders.cli import main
from citybuilders.core import load_game, record_of


def run(capsys, *args):
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_moves_json_at_a_chance_node(tmp_path, capsys):
    state = load_game("kingdom-builder", preset="first-game").new_initial_state(2, seed=1)
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(state.to_json()))
    code, out, _ = run(capsys, "moves", str(f), "--json")
    data = json.loads(out)
    assert code == 0
    assert data == {
        "game": "kingdom-builder", "move_number": 0, "terminal": False, "chance": True,
        "to_act": [], "moves": [],
        "chance_outcomes": [{"action": a, "notation": f"card {t}", "probability": 0.2}
                            for a, t in enumerate(["grass", "canyon", "desert", "flower_field",
                                                   "forest"])],
    }


def test_moves_json_of_a_record_matches_the_text_listing(tmp_path, capsys):
    state = load_game("kingdom-builder", preset="first-game").new_initial_state(2, seed=1)
    state.apply_action(0)
    state.apply_action(1)
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(record_of(state).to_json()))
    code, out, _ = run(capsys, "moves", str(f), "--json")
    data = json.loads(out)
    assert code == 0 and data["to_act"] == [0] and data["move_number"] == 2
    assert data["moves"][0] == {"player": 0, "action": 96, "notation": "build 3,4"}
    assert data["chance_outcomes"] == []
    _, text, _ = run(capsys, "moves", str(f))
    assert [m["notation"] for m in data["moves"]] == text.split("\n")[:-1]


def advance(state, rng, stop=lambda s: False):
    """Random moves (the lowest active player's) until ``stop(state)`` or the end."""
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            p = state.active_players()[0]
            state.apply_action(rng.choice(state.legal_actions(p)), p)


def test_moves_json_simultaneous_players_and_game_over(tmp_path, capsys):
    import random

    state = load_game("roll-builder").new_initial_state(2, seed=3)
    rng = random.Random(1)
    advance(state, rng, lambda s: len(s.active_players()) == 2)
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(state.to_json()))
    code, out, _ = run(capsys, "moves", str(f), "--json")
    data = json.loads(out)
    assert code == 0 and data["to_act"] == [0, 1]
    assert {m["player"] for m in data["moves"]} == {0, 1}
    assert len(data["moves"]) == len(state.legal_actions(0)) + len(state.legal_actions(1))
    advance(state, rng)
    f.write_text(json.dumps(state.to_json()))
    code, out, _ = run(capsys, "moves", str(f), "--json")
    data = json.loads(out)
    assert data["terminal"] is True and data["moves"] == [] and data["to_act"] == []


def test_moves_json_bad_file_is_one_error_line(tmp_path, capsys):
    f = tmp_path / "bad.json"
    f.write_text("{")
    code, out, err = run(capsys, "moves", str(f), "--json")
    assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1
