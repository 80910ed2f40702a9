"""Shared helpers for the robustness tests: run the CLI in-process, make mid-game states."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from citybuilders import load_game
from citybuilders.cli import main
from citybuilders.core.game import State


def run_cli(capsys: Any, *args: str) -> tuple[int, str, str]:
    """Run ``citybuilders ARGS`` in-process; return (exit code, stdout, stderr).

    An exception escaping ``main`` (a traceback for the user) fails the calling test.
    """
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def assert_user_error(code: int, err: str, *fragments: str) -> None:
    """Exit code 2 and exactly one line ``error: ...`` containing every fragment."""
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for f in fragments:
        assert f in err, (f, err)


def write_json(tmp_path: Path, data: Any, name: str = "in.json") -> str:
    """Write ``data`` as JSON into ``tmp_path/name``; return the path as a string."""
    p = tmp_path / name
    p.write_text(json.dumps(data), encoding="utf-8")
    return str(p)


def midgame(name: str, num_players: int, steps: int, seed: int = 1, **options: Any) -> State:
    """A state after ``steps`` random actions (chance included) of a fresh game."""
    g = load_game(name, **options)
    s = g.new_initial_state(num_players=num_players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
        else:
            p = s.active_players()[0]
            s.apply_action(rng.choice(s.legal_actions(p)), p)
    return s
