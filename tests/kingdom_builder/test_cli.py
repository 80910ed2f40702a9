"""CLI: score, moves, play (scripted input) and simulate for kingdom-builder, bad files included."""

from __future__ import annotations

import io
import json
from pathlib import Path

import citybuilders
from citybuilders.terminal import play_terminal

from .helpers import cli_moves, run_cli
from .test_scorefile import example


def test_score_json_and_table(tmp_path: Path, capsys) -> None:
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(example()))
    code, out, _ = run_cli(capsys, "score", "kingdom-builder", str(f), "--json")
    assert code == 0
    assert json.loads(out)["players"][0]["total"] == 36
    code, out, _ = run_cli(capsys, "score", "kingdom-builder", str(f))
    assert code == 0 and "total" in out and "36" in out


def test_score_bad_files(tmp_path: Path, capsys) -> None:
    bad = example()
    bad["settlements"][0].append([3, 3])
    cases = {
        "castle.json": (json.dumps(bad), "castle hex"),
        "syntax.json": ("{not json", "not valid JSON"),
        "cards.json": (json.dumps({**example(), "cards": ["fishermen"]}), "'cards'"),
        "off.json": (json.dumps({**example(), "settlements": [[[0, 25]]]}), "off the board"),
        "section.json": (json.dumps({**example(), "sections": [["x", 0]] * 4}),
                         "unknown section"),
    }
    for name, (text, needle) in cases.items():
        f = tmp_path / name
        f.write_text(text)
        code, out, err = run_cli(capsys, "score", "kingdom-builder", str(f))
        assert code == 2, (name, err)
        assert "Traceback" not in err and needle in err
        assert len(err.strip().splitlines()) == 1, err


def test_moves_of_saved_position(tmp_path: Path, capsys) -> None:
    g = citybuilders.load_game("kingdom-builder", preset="first-game", start_player=0)
    s = g.new_initial_state(2, 3)
    s.apply_action(0)  # grass for player 0
    s.apply_action(1)
    code, lines, f = cli_moves(capsys, tmp_path, s)
    assert code == 0
    assert len(lines) == 61 and lines[0] == "build 3,4"  # every grass hex; first is 3,4
    f.write_text(json.dumps({"game": "kingdom-builder"}))
    code, _, err = run_cli(capsys, "moves", str(f))
    assert code == 2 and "neither a record" in err and "saved position" in err


def test_play_bots_to_the_end(capsys) -> None:
    code, out, err = run_cli(capsys, "play", "kingdom-builder", "--players", "random,greedy",
                         "--seed", "4", "--preset", "first-game", "--no-color")
    assert code == 0, err
    assert "tavern:0 paddock:0 oasis:0 farm:0" in out


def test_play_human_scripted() -> None:
    g = citybuilders.load_game("kingdom-builder", preset="first-game", start_player=0)
    script = iter(["bogus 1,2", "build 99,99", "build 0,0", "hint", "help", "quit"])
    buf = io.StringIO()
    play_terminal(g, ["human", "random"], seed=2, color=False, inp=lambda _: next(script),
                  out=buf)
    text = buf.getvalue()
    assert "unknown move 'bogus'" in text
    assert "off the board" in text
    assert "hint: " in text
    assert " 0   1   2   3" in text  # the board with coordinates
    assert "Traceback" not in text


def test_play_bad_option(capsys) -> None:
    code, _, err = run_cli(capsys, "play", "kingdom-builder", "--sections", "tavern,mars,oasis,farm")
    assert code == 2 and "unknown section 'mars'" in err


def test_simulate_small(tmp_path: Path, capsys) -> None:
    out = tmp_path / "rows.jsonl"
    code, _, err = run_cli(capsys, "simulate", "kingdom-builder", "--games", "3", "--players",
                       "greedy,random", "--seed", "1", "--out", str(out), "--no-progress")
    assert code == 0, err
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 3
