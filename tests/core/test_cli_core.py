from __future__ import annotations

import json

import pytest
from toygame import ToyGame

from citybuilders.cli import main
from citybuilders.core import load_game, record_of, register_game
from citybuilders.core.runner import play_out
from citybuilders.bots import make_bot
import random




def run(capsys, *args):
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_games_and_options(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0 and "toy" in out
    code, out, _ = run(capsys, "options", "toy")
    assert code == 0 and "turns = 6" in out
    code, out, _ = run(capsys, "options", "toy", "--markdown")
    assert "| **Bonus** | — | `bonus` = `False` |" in out  # no label given: the name in words


def test_options_show_labels_questions_and_expansion(capsys):
    code, out, _ = run(capsys, "options", "kingdom-builder")
    assert code == 0
    assert ("    Terrain card with no free hex: What happens when your terrain card shows a "
            "terrain with no empty hex left?\n      rare_exception = 'redraw'") in out
    assert "    Wagon on mountains (Crossroads only): May the wagon" in out
    assert out.index("  Setup\n") < out.index("  Rule variants\n")
    code, out, _ = run(capsys, "options", "kingdom-builder", "--markdown")
    assert "### Rule variants" in out and "| **Wagon on mountains** (Crossroads only) |" in out


def test_unknown_game_and_option(capsys):
    code, _, err = run(capsys, "simulate", "chess")
    assert code == 2 and "unknown game 'chess'" in err and "Traceback" not in err
    code, _, err = run(capsys, "simulate", "toy", "-o", "speed=3")
    assert code == 2 and err.strip() == "error: unknown option 'speed' for toy; allowed: bonus, turns"
    code, _, err = run(capsys, "simulate", "toy", "-o", "turns=abc")
    assert code == 2 and "expected an integer" in err
    code, _, err = run(capsys, "simulate", "toy", "--players", "greedy,wizard")
    assert code == 2 and "unknown seat 'wizard'" in err


def test_simulate_outputs(tmp_path, capsys):
    out_csv = tmp_path / "rows.csv"
    code, out, _ = run(capsys, "simulate", "toy", "-n", "20", "--players", "greedy,random",
                       "--seed", "4", "--no-progress", "--out", str(out_csv), "-j", "2")
    assert code == 0 and "win rate" in out and "greedy" in out
    lines = out_csv.read_text().splitlines()
    assert len(lines) == 21 and lines[0].startswith("index,seed,setup,scores")
    out_jsonl = tmp_path / "rows.jsonl"
    run(capsys, "simulate", "toy", "-n", "20", "--players", "greedy,random", "--seed", "4",
        "--no-progress", "--out", str(out_jsonl))
    rows = [json.loads(x) for x in out_jsonl.read_text().splitlines()]
    # deterministic whatever the number of processes
    assert [r["scores"] for r in rows] == [
        [int(x) for x in line.split(",")[3].split(";")] for line in lines[1:]
    ]


def test_moves_and_replay(tmp_path, capsys):
    g = load_game("toy")
    s = g.new_initial_state(2, 1)
    s.apply_action(3)
    s.apply_action(4)
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(s.to_json()))
    code, out, _ = run(capsys, "moves", str(f))
    assert code == 0 and out.split() == ["build", "roll"]
    state = play_out(g.new_initial_state(2, 2), [make_bot("random", 1)] * 2, random.Random(2))
    rec = tmp_path / "rec.json"
    rec.write_text(json.dumps(record_of(state).to_json()))
    code, out, _ = run(capsys, "replay", str(rec))
    assert code == 0 and "total" in out
    moves = [line.split(None, 2) for line in out.splitlines() if line[:5].strip().endswith(".")]
    assert len(moves) == len(state.history())
    assert moves[0][1] == "chance" and moves[0][2].startswith("card ")
    assert {m[2] for m in moves if m[1].startswith("P")} <= {"build", "roll"}
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2 and "not valid JSON" in err
    code, _, err = run(capsys, "moves", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in err


def test_play_scripted(monkeypatch, capsys):
    answers = iter(["help", "moves", "fly", "hint", "build", "undo", "build", "score", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, _ = run(capsys, "play", "toy", "--players", "human,random", "--seed", "2",
                       "--no-color")
    assert code == 0
    assert "error: 'fly' is not a legal move" in out
    assert "hint:" in out and "game abandoned" in out


def test_play_to_the_end(monkeypatch, capsys):
    monkeypatch.setattr("builtins.input", lambda prompt="": "roll")
    code, out, _ = run(capsys, "play", "toy", "--players", "human,greedy", "--seed", "3",
                       "--no-color")
    assert code == 0 and "Final scores" in out


def test_simulate_plot_and_groups(tmp_path, capsys):
    png = tmp_path / "p.png"
    code, out, _ = run(capsys, "simulate", "toy", "-n", "12", "--no-progress", "--plot", str(png),
                       "--by", "setup")
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG"
    assert "by setup" in out
    code, _, err = run(capsys, "simulate", "toy", "-n", "2", "--plot", str(tmp_path / "p.gif"))
    assert code == 2 and "use a .png" in err


def test_simulate_csv_parts_are_json(tmp_path, capsys):
    out_csv = tmp_path / "rows.csv"
    run(capsys, "simulate", "toy", "-n", "3", "--no-progress", "--out", str(out_csv))
    import csv

    rows = list(csv.DictReader(out_csv.open()))
    assert json.loads(rows[0]["parts"])[0]["points"] == int(rows[0]["scores"].split(";")[0])


def test_internal_error_is_one_line(monkeypatch, capsys):
    import citybuilders.cli as cli

    def boom(*a, **k):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(cli, "registered_games", boom)
    monkeypatch.delenv("CITYBUILDERS_DEBUG", raising=False)
    code, out, err = run(capsys, "games")
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert "internal error (ZeroDivisionError" in err and "CITYBUILDERS_DEBUG" in err
    monkeypatch.setenv("CITYBUILDERS_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        main(["games"])
