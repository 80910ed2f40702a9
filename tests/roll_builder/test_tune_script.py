"""benchmarks/tune_roll_builder.py: the games it writes are bench_bots.py's games for the same
seeds, ``--pair`` is the paired difference, ``--set`` refuses a name the strategy lacks."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from citybuilders.bots import make_bot
from citybuilders.core.registry import load_game
from citybuilders.core.runner import play_out

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "tune_roll_builder.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=300)


def test_the_games_are_the_seeded_games_of_the_level(tmp_path):
    out = tmp_path / "g.json"
    r = _run(str(out), "--sheet", "rivermouth", "--seeds", "7", "9", "--level", "normal")
    assert r.returncode == 0, r.stderr
    games = json.loads(out.read_text())["games"]
    assert [g[0] for g in games] == [7, 8]
    for seed, score, parts, *_ in games:
        state = load_game("roll-builder", sheet="rivermouth").new_initial_state(1, seed)
        play_out(state, [make_bot("normal", seed)], random.Random(seed))
        assert score == state.scores()[0].total
        assert sum(parts.values()) == score
    assert "over 2 games" in r.stdout


def test_pair_is_the_mean_difference_over_the_shared_seeds(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps({"games": [[1, 70.0, {}, 0, 0], [2, 72.0, {}, 0, 0], [3, 60, {}, 0, 0]]}))
    b.write_text(json.dumps({"games": [[1, 71.0, {}, 0, 0], [2, 75.0, {}, 0, 0]]}))
    r = _run("--pair", str(a), str(b))
    assert r.returncode == 0, r.stderr
    assert "+2.00 ± 1.96 over 2 games (71.00 -> 73.00)" in r.stdout


def test_an_unknown_constant_is_refused_by_name(tmp_path):
    r = _run(str(tmp_path / "x.json"), "--set", "NO_SUCH_KNOB=1")
    assert r.returncode != 0
    assert "NO_SUCH_KNOB" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "x.json").exists()


def test_pair_names_a_file_it_cannot_read(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    for a, b in ((tmp_path / "missing.json", bad), (bad, bad)):
        r = _run("--pair", str(a), str(b))
        assert r.returncode != 0
        assert str(a) in r.stderr and "Traceback" not in r.stderr
