"""Bad command-line usage: wrong flag types, missing arguments, unknown options, bad stdin."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .helpers import assert_user_error, run_cli


@pytest.mark.parametrize("args, fragment", [
    (["play", "kingdom-builder", "--seed", "x"], "--seed"),
    (["simulate", "sprawlopolis", "--games", "x"], "--games"),
    (["simulate", "sprawlopolis", "--games", "-3"], "--games"),
    (["simulate", "sprawlopolis", "--jobs", "0"], "--jobs"),
    (["replay", "x.json", "--upto", "-1"], "--upto"),
    (["serve", "--port", "0"], "--port"),
    (["serve", "--port", "99999"], "--port"),
    (["score", "kingdom-builder"], "Missing argument 'file'"),
    (["score"], "Missing argument 'game'"),
    (["play", "kingdom-builder", "--no-such-flag"], "--no-such-flag"),
    (["no-such-command"], "no-such-command"),
])
def test_usage_errors_are_one_line(capsys, args, fragment: str) -> None:
    """typer bundles its own click (typer._click): its usage errors escaped ``main`` as a
    traceback."""
    code, out, err = run_cli(capsys, *args)
    assert_user_error(code, err, fragment)


def test_usage_error_through_the_console_script() -> None:
    proc = subprocess.run([sys.executable, "-m", "citybuilders", "play", "sprawlopolis", "--seed",
                           "x"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1, proc.stderr


@pytest.mark.parametrize("args", [
    ["play", "kingdom-builder", "--players", "human,wizard"],
    ["play", "kingdom-builder", "-o", "nope"],
    ["play", "kingdom-builder", "-o", "=1"],
    ["play", "kingdom-builder", "--cards", "a,b"],
    ["play", "sprawlopolis", "--conditions", "99,1,2"],
    ["play", "roll-builder", "--sheet", "nope"],
    ["simulate", "kingdom-builder", "--out", "rows.txt", "-n", "1"],
    ["simulate", "kingdom-builder", "--players", "human,greedy", "-n", "1"],
])
def test_bad_options_are_one_line(capsys, args) -> None:
    code, out, err = run_cli(capsys, *args)
    assert_user_error(code, err)


@pytest.mark.parametrize("game", ["kingdom-builder", "sprawlopolis", "roll-into-town",
                                  "roll-builder"])
@pytest.mark.parametrize("stdin", ["", "garbage\n" * 3, "x" * 100000 + "\n", "help\nundo\nundo\n\x00\n",
                                   "save /nonexistent/dir/x.json\n"])
def test_scripted_play_never_tracebacks(game: str, stdin: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "citybuilders", "play", game, "--players",
                           "human,random" if game != "roll-into-town" else "human",
                           "--seed", "1", "--no-color"],
                          input=stdin, capture_output=True, text=True, timeout=60)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.returncode in (0, 2, 130), proc.stderr[-500:]


def test_binary_sheet_file_option(capsys, tmp_path) -> None:
    p = tmp_path / "sheet.json"
    p.write_bytes(bytes(range(200, 256)))
    code, out, err = run_cli(capsys, "simulate", "roll-builder", "-n", "1", "-o",
                             f"sheet_file={p}")
    assert_user_error(code, err, "sheet_file")
