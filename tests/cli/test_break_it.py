"""Findings of the second break-it trial on the command line (reports/breakit.md), each fixed:
control characters from files reaching the terminal, output paths that cannot be written
(an internal error after the whole run), records and saved positions whose errors named the
wrong field. Every case runs ``python -m citybuilders`` as a user would."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from citybuilders.core.records import record_of
from citybuilders.core.registry import load_game

ROOT = Path(__file__).resolve().parents[2]
ESCAPES = "\u001b]0;pwned\u0007\u001b[31mRED"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "citybuilders", *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd, stdin=subprocess.DEVNULL,
                          env=dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8"))


def one_error(out: subprocess.CompletedProcess[str], message: str) -> None:
    """Exit 2, one line ``error: ...`` containing ``message``, no raw control character."""
    assert out.returncode == 2, (out.stdout[-500:], out.stderr[-2000:])
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1, out.stderr
    assert message in out.stderr, out.stderr
    assert "\x1b" not in out.stdout + out.stderr and "\r" not in out.stdout + out.stderr


def write(path: Path, data) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# ---------------------------------------------------------------- control characters
def _score_file(name: str) -> dict:
    data = json.loads((ROOT / "examples" / "score" / "roll-into-town.json").read_text())
    data["name"] = name
    return data


@pytest.mark.parametrize("name, message", [
    ("\u001b]0;pwned\u0007Ann\r\nFAKE", "f.json.name: control character U+001B"),
    ("Ann\nFAKE", "name: control character U+000A; a name is one line of text"),
])
def test_a_score_file_name_with_control_characters_is_an_error(tmp_path, name, message):
    f = write(tmp_path / "f.json", _score_file(name))
    one_error(run("score", "roll-into-town", str(f)), message)
    ok = run("score", "roll-into-town", str(write(tmp_path / "g.json", _score_file("Ann"))))
    assert ok.returncode == 0 and "Ann" in ok.stdout


def _sheet(name: str) -> dict:
    doc = json.loads(resources.files("citybuilders.games.roll_builder").joinpath(
        "data/goldplain.json").read_text(encoding="utf-8"))
    doc.update(id="mine", name=name)
    return doc


@pytest.mark.parametrize("name, message", [
    (ESCAPES, "s.json.name: control character U+001B"),
    ("My\tCity", "name: control character U+0009; a name is one line of text"),
])
def test_a_sheet_name_with_control_characters_is_an_error(tmp_path, name, message):
    s = write(tmp_path / "s.json", _sheet(name))
    one_error(run("sheets", "check", str(s)), message)
    one_error(run("play", "roll-builder", "-p", "human", "-o", f"sheet_file={s}"), message)


def test_a_sections_file_with_escapes_is_an_error(tmp_path):
    sections = json.loads((ROOT / "examples" / "score" / "kingdom-builder.json").read_text())
    doc = {"sections": [{"id": "meadow", "name": ESCAPES}]}
    f = write(tmp_path / "sec.json", doc)
    one_error(run("score", "kingdom-builder", "-o", f"sections_file={f}",
                  str(write(tmp_path / "k.json", sections))),
              "sec.json.sections[0].name: control character U+001B")


def test_a_record_with_escapes_in_a_name_is_an_error(tmp_path):
    rec = {"game": "kingdom-builder", "rules_version": "1", "options": {}, "num_players": 2,
           "seed": 7, "players": ["Ann", "B\u0007"], "actions": []}
    one_error(run("replay", str(write(tmp_path / "r.json", rec))),
              "r.json.players[1]: control character U+0007")
    rec["players"] = ["Ann", "B\tC"]
    one_error(run("replay", str(write(tmp_path / "r.json", rec))),
              "record: players[1]: control character U+0009; a name is one line of text")


# ---------------------------------------------------------------- records and positions
@pytest.fixture(scope="module")
def kb_state():
    state = load_game("kingdom-builder").new_initial_state(2, 7)
    rng = random.Random(3)
    while state.move_number() < 12:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("seed, shown", [(-5, "-5"), (2**64, str(2**64))])
@pytest.mark.parametrize("command", ["moves", "replay"])
def test_a_record_seed_out_of_range_names_the_seed(tmp_path, kb_state, command, seed, shown):
    rec = dict(record_of(kb_state).to_json(), seed=seed)
    one_error(run(command, str(write(tmp_path / "r.json", rec))),
              f"record: seed: expected an integer from 0 to 2**63-1, got {shown}")


def test_moves_names_what_a_file_lacks(tmp_path, kb_state):
    rec = record_of(kb_state).to_json()
    del rec["actions"]
    one_error(run("moves", str(write(tmp_path / "r.json", rec))),
              "r.json: neither a record (its 'actions' are missing) nor a saved position (its "
              "'position' and 'history' are missing)")
    pos = kb_state.to_json()
    del pos["history"]
    one_error(run("moves", str(write(tmp_path / "p.json", pos))), "p.json: missing key 'history'")
    ok = run("moves", str(write(tmp_path / "q.json", kb_state.to_json())))
    assert ok.returncode == 0, ok.stderr


# ---------------------------------------------------------------- outputs that cannot be written
@pytest.mark.parametrize("args", [
    ["simulate", "sprawlopolis", "-n", "3", "-p", "random", "-q", "--out", "{dir}.csv"],
    ["simulate", "sprawlopolis", "-n", "3", "-p", "random", "-q", "--plot", "{dir}.png"],
    ["simulate", "sprawlopolis", "-n", "3", "-p", "random", "-q", "--out", "ok.csv",
     "--report", "{dir}.html"],
    ["tournament", "sprawlopolis", "-p", "random,greedy", "-n", "1", "--json", "{dir}.json"],
])
def test_an_output_that_is_a_directory_is_refused_before_the_run(tmp_path, args):
    suffix = next(a for a in args if a.startswith("{dir}"))[5:]
    (tmp_path / f"dir{suffix}").mkdir()
    out = run(*[a.replace("{dir}", "dir") for a in args], cwd=tmp_path)
    one_error(out, f"dir{suffix}: cannot write (Is a directory)")
    assert out.stdout == ""  # refused before the run: no table
    assert not (tmp_path / "ok.csv").exists()


@pytest.mark.parametrize("args", [
    ["simulate", "sprawlopolis", "-n", "3", "-p", "random", "-q", "--out", "/proc/x.csv"],
    ["tournament", "sprawlopolis", "-p", "random,greedy", "-n", "1", "--json", "/proc/version"],
])
def test_an_output_that_cannot_be_written_is_refused_before_the_run(args):
    out = run(*args)
    one_error(out, ": cannot write (")
    assert out.stdout == ""


# ---------------------------------------------------------------- options that were ignored
def test_simulate_by_an_unknown_field_lists_the_allowed_ones(tmp_path):
    out = run("simulate", "sprawlopolis", "-n", "3", "-p", "random", "-q", "--by", "nonsense",
              "--out", str(tmp_path / "r.csv"))
    one_error(out, "--by 'nonsense': not a field of the rows; allowed: conditions, length, "
                   "setup, target, won")
    assert not (tmp_path / "r.csv").exists()
    ok = run("simulate", "sprawlopolis", "-n", "3", "-p", "random", "-q", "--by", "won")
    assert ok.returncode == 0 and "by won" in ok.stdout


def test_simulate_address_needs_the_ray_executor():
    one_error(run("simulate", "sprawlopolis", "-n", "3", "-p", "random", "-q", "--address",
                  "1.2.3.4"), "--address '1.2.3.4': only with --executor ray")


@pytest.mark.parametrize("seed", ["-5", str(10**27)])
def test_tournament_seed_has_the_platform_range(seed):
    out = run("tournament", "sprawlopolis", "-p", "random,greedy", "-n", "1", "--seed", seed)
    one_error(out, "--seed")
    assert out.stdout == ""
