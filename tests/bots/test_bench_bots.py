"""benchmarks/bench_bots.py: the Kingdom Builder duels resume from their JSON-lines file."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_bots.py"


@pytest.fixture(scope="module")
def bench():
    # importable by name: the worker processes of ``--jobs 2`` unpickle its functions
    sys.path.insert(0, str(BENCH.parent))
    try:
        yield importlib.import_module("bench_bots")
    finally:
        sys.path.remove(str(BENCH.parent))


def _figure(out: str) -> str:
    return [line for line in out.splitlines() if line.startswith("kb-random")][-1]


def test_a_cut_duel_resumes_and_gives_the_figure_of_one_whole_run(bench, tmp_path, capsys):
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    bench.duel("kb-random", "kingdom-builder", {}, "random", "random", 6, 1, str(whole))
    fresh = _figure(capsys.readouterr().out)
    bench.duel("kb-random", "kingdom-builder", {}, "random", "random", 4, 1, str(cut))
    capsys.readouterr()
    with open(cut, "a", encoding="utf-8") as f:
        f.write('{"figure": "kb-random", "game": 5, "res')  # a line cut by a kill
    bench.duel("kb-random", "kingdom-builder", {}, "random", "random", 6, 2, str(cut))
    resumed = _figure(capsys.readouterr().out)
    rows = [json.loads(line) for line in whole.read_text().splitlines()]
    assert sorted(r["game"] for r in rows) == [0, 1, 2, 3, 4, 5]
    cut_rows = [line for line in cut.read_text().splitlines() if line.endswith("}")]
    assert len(cut_rows) == 6  # 4 games, then only the 2 missing ones
    # the same seeded games: the same win rate and interval over 6 games
    assert resumed.split(" over ")[0] == fresh.split(" over ")[0]
    assert " over 6 games" in resumed and " over 6 games" in fresh


def test_time_estimate_of_the_final_kingdom_builder_runs(bench):
    # 37 searched moves of 1 s and greedy's 1.3 s per base game; 42 and 4.7 s with Crossroads
    assert bench.estimate_seconds("expert", "greedy", {}, 200, 2) == pytest.approx(3830.0)
    assert bench.estimate_seconds("expert", "greedy", {"expansions": ["crossroads"]}, 200, 2) \
        == pytest.approx(4670.0)
    assert bench.estimate_seconds("expert", "hard", {}, 10, 1) == pytest.approx(462.5)


def test_duels_record_the_cpu_seconds_of_the_measured_bots_moves(bench, tmp_path, capsys):
    out = tmp_path / "cpu.jsonl"
    bench.duel("kb-random", "kingdom-builder", {}, "random", "greedy", 2, 1, str(out))
    line = _figure(capsys.readouterr().out)
    rows = [json.loads(r) for r in out.read_text().splitlines()]
    for r in rows:
        assert r["moves"] > 20 and 0 <= r["cpu_max"] <= r["cpu"] < 5
        assert r["margin"] == int(r["margin"]) and (r["margin"] > 0) == (r["result"] == 1.0)
    assert "CPU s/move of the measured bot mean " in line
    assert f"over {sum(r['moves'] for r in rows)} moves" in line
    # the summary line over given rows: (result, wall s, CPU s, slowest CPU s, moves, margin)
    assert bench.cpu_summary([(1.0, 9.0, 2.0, 0.5, 10, 4.0), (0.0, 9.0, 1.0, 0.25, 20, -1.0)]) \
        == "; CPU s/move of the measured bot mean 0.100, max 0.500 over 30 moves; mean margin +1.5"
    assert bench.cpu_summary([(1.0, 9.0, 0.0, 0.0, 0, float("nan"))]) == ""


def test_roll_into_town_progress_prints_a_running_mean(bench, capsys, monkeypatch):
    # --progress on the solo scores: a running mean line per game (it used to compute a win
    # share's interval of the scores and stop with a math domain error)
    monkeypatch.setattr(bench, "PROGRESS", True)
    bench.rit_solo("rit-normal", "normal", 2, 1)
    out = capsys.readouterr()
    lines = [ln.strip() for ln in out.err.splitlines()]
    assert [ln.split(":")[0] for ln in lines] == ["rit-normal 1/2", "rit-normal 2/2"]
    first = bench._rit_game(("normal", 0))[0]
    assert lines[0].startswith(f"rit-normal 1/2: mean {first:.1f} (95 % CI {first:.1f}-")
    assert " s CPU)" in lines[1] and "over 2 games" in out.out
