"""Streaming runs: byte-identical rows whatever the jobs/batch size, shards, resume, summary."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

from citybuilders.sim.batch import BatchSpec, run_batch, summarize
from citybuilders.sim.executor import LocalExecutor
from citybuilders.sim.run import (RunError, batch_ranges, iter_rows, parse_shard, progress_path,
                                  run_to_file, shard_range)

from .conftest import cli_process

SPEC = BatchSpec("sprawlopolis", ("random",), {})


def _sim(cli, out: Path, *extra: str, games: int = 120) -> str:
    code, stdout, err = cli("simulate", "sprawlopolis", "-p", "random", "-n", str(games),
                            "--seed", "7", "--out", str(out), "-q", *extra)
    assert code == 0, err
    return stdout


def test_shard_and_batch_helpers() -> None:
    assert parse_shard("2/5") == (2, 5)
    for bad in ("0/3", "4/3", "x", "1/"):
        with pytest.raises(RunError):
            parse_shard(bad)
    assert [shard_range(10, (i, 3)) for i in (1, 2, 3)] == [(0, 3), (3, 6), (6, 10)]
    assert list(batch_ranges(3, 10, 4)) == [(3, 7), (7, 10)]


def test_rows_identical_whatever_jobs_and_batch_size(cli, tmp_path: Path) -> None:
    ref = tmp_path / "ref.jsonl"
    _sim(cli, ref)
    for extra in (["-j", "2"], ["-j", "2", "--batch-size", "7"], ["--batch-size", "1"]):
        other = tmp_path / "other.jsonl"
        _sim(cli, other, *extra)
        assert other.read_bytes() == ref.read_bytes(), extra
    rows = [json.loads(line) for line in ref.read_text().splitlines()]
    assert [r["index"] for r in rows] == list(range(120))
    # the same rows as the old in-memory batch, plus the bots column
    old = run_batch(SPEC, 120, 7, jobs=1)
    assert [dict(r, bots=["random"]) for r in old] == rows


def test_iter_rows_reorders_batches() -> None:
    rows = list(iter_rows(SPEC, 3, 5, 45, LocalExecutor(2), batch_size=3))
    assert [r["index"] for r in rows] == list(range(5, 45))


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_shards_concatenate_to_the_whole(cli, tmp_path: Path, suffix: str) -> None:
    whole = tmp_path / f"whole{suffix}"
    _sim(cli, whole, games=50)
    parts = []
    for i in (1, 2, 3):
        part = tmp_path / f"part{i}{suffix}"
        out = _sim(cli, part, "--shard", f"{i}/3", games=50)
        assert f"{[16, 17, 17][i - 1]} games" in out
        parts.append(part.read_bytes())
    assert b"".join(parts) == whole.read_bytes()
    assert whole.read_bytes().count(b"\n") == 50 + (suffix == ".csv")


def test_more_shards_than_games_is_an_error(cli, tmp_path: Path) -> None:
    code, _, err = cli("simulate", "sprawlopolis", "-p", "random", "-n", "5", "-q",
                       "--shard", "1/1000000", "--out", str(tmp_path / "r.jsonl"))
    assert code == 2
    assert err.strip() == ("error: --shard 1/1000000: 5 games cannot be split into 1000000 "
                           "shards (some shards would get no game); allowed: N from 1 to 5")
    assert not (tmp_path / "r.jsonl").exists()
    out = _sim(cli, tmp_path / "last.jsonl", "--shard", "5/5", games=5)  # N = games: 1 each
    assert "1 games" in out or "1 game" in out


def test_stream_summary_matches_in_memory_summary(tmp_path: Path) -> None:
    spec = BatchSpec("roll-builder", ("random",), {})
    summ = run_to_file(spec, 40, 2, LocalExecutor(1), tmp_path / "r.jsonl", by="sheet")
    old = summarize(run_batch(spec, 40, 2), ["random"], by="sheet")
    new = summ.result()
    assert new["games"] == old["games"] == 40 and new["ranks"] == old["ranks"]
    assert new["groups"].keys() == old["groups"].keys()
    for a, b in zip(new["seats"], old["seats"]):
        assert a == pytest.approx(b)
    assert new["mean_length"] == pytest.approx(old["mean_length"])


def test_resume_truncates_partial_rows_and_refuses_other_commands(cli, tmp_path: Path) -> None:
    ref = tmp_path / "ref.csv"
    _sim(cli, ref, games=60)
    out = tmp_path / "out.csv"
    _sim(cli, out, "--shard", "1/1", games=60)  # a different command (shard) ...
    code, _, err = cli("simulate", "sprawlopolis", "-p", "random", "-n", "60", "--seed", "7",
                       "--out", str(out), "-q", "--resume")
    assert code == 2 and err.startswith("error: --resume:") and "(shard differ)" in err
    # a run stopped after 20 games, with a torn row after the recorded range
    ex = LocalExecutor(1)
    state_ref = ref.read_bytes()
    _sim(cli, out, games=60)
    prog = json.loads(progress_path(out).read_text())
    assert prog["done"] == [[0, 60]] and prog["complete"] is True
    lines = state_ref.splitlines(keepends=True)
    cut = sum(len(x) for x in lines[:21])  # header + 20 rows
    prog.update(done=[[0, 20]], bytes=cut, complete=False)
    from citybuilders.sim.summary import StreamSummary
    s20 = StreamSummary(["random"])
    for row in iter_rows(SPEC, 7, 0, 20, ex, batch_size=20):
        s20.add(row)
    prog["summary"] = s20.to_json()
    progress_path(out).write_text(json.dumps(prog))
    out.write_bytes(state_ref[:cut] + b"20,12345,torn ro")
    stdout = _sim(cli, out, "--resume", games=60)
    assert out.read_bytes() == state_ref
    assert "60 games" in stdout and "wrote 60 rows" in stdout
    code, _, err = cli("simulate", "sprawlopolis", "-p", "random", "-n", "60", "--seed", "8",
                       "--out", str(out), "-q", "--resume")
    assert code == 2 and "(seed differ)" in err
    other = tmp_path / "other.csv"
    other.write_text("x\n")
    code, _, err = cli("simulate", "sprawlopolis", "-p", "random", "-n", "60", "--out",
                       str(other), "-q", "--resume")
    assert code == 2 and "has no progress file" in err


def _wait_for_rows(out: Path, proc, minimum: int = 1, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        prog = progress_path(out)
        if prog.exists():
            try:
                done = json.loads(prog.read_text())["done"][0][1]
            except (ValueError, KeyError):
                done = 0
            if done >= minimum:
                return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError("no progress recorded")


# long enough (one job, tasks of 20 games) that the signal always lands mid-run: 1,500 games
# were not once the engine played ~2,000 random games a second (the run had ended, CI)
KB_GAMES = 6000


@pytest.fixture(scope="module")
def kb_reference(tmp_path_factory):
    ref = tmp_path_factory.mktemp("ref") / "ref.jsonl"
    spec = BatchSpec("kingdom-builder", ("random", "random"), {})
    summ = run_to_file(spec, KB_GAMES, 11, LocalExecutor(2), ref)
    return ref, summ


# a kill moment drawn once (seeded, so every collection of the suite sees the same test ids) and
# short beside the run (6,000 random games take about 3 s on an idle machine)
KILL_DELAY = round(random.Random(2026).uniform(0.0, 0.15), 3)


@pytest.mark.parametrize("sig,extra_delay", [(signal.SIGKILL, KILL_DELAY),
                                             (signal.SIGINT, 0.05)])
def test_resume_after_kill_or_interrupt(cli, tmp_path: Path, kb_reference, sig: int,
                                        extra_delay: float) -> None:
    games = KB_GAMES
    ref, summ = kb_reference
    out = tmp_path / "out.jsonl"
    args = ["simulate", "kingdom-builder", "-p", "random,random", "-n", str(games), "--seed", "11",
            "--out", str(out), "-q", "-j", "1", "--resume", "--batch-size", "20"]
    proc = cli_process(*args)
    try:
        _wait_for_rows(out, proc, minimum=1)
        time.sleep(extra_delay)
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)  # Ctrl-C reaches the whole foreground process group
        else:
            os.kill(proc.pid, sig)  # kill -9 of the driver alone
        proc.wait(timeout=60)
        if sig == signal.SIGKILL:
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # its orphaned pool workers
            except ProcessLookupError:
                pass  # they had already left
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # pool workers of a killed driver
        except ProcessLookupError:
            pass
    if sig == signal.SIGINT:
        assert proc.returncode == 130 and "interrupted" in stderr
    else:
        assert proc.returncode == -signal.SIGKILL
    prog = json.loads(progress_path(out).read_text())
    assert 0 < prog["done"][0][1] < games, "the run was not interrupted mid-way"
    code, stdout, err = cli(*args)
    assert code == 0, err
    assert out.read_bytes() == ref.read_bytes()
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["index"] for r in rows] == list(range(games))
    assert f"{games} games" in stdout
    assert json.loads(progress_path(out).read_text())["summary"]["hist"] == json.loads(json.dumps(summ.to_json()["hist"]))


def test_pool_workers_end_with_a_killed_driver(tmp_path: Path) -> None:
    """``kill -9`` of a ``--jobs 2`` driver: its pool workers leave within seconds (they would
    otherwise wait on the task queue for ever)."""
    out = tmp_path / "out.jsonl"
    proc = cli_process("simulate", "kingdom-builder", "-p", "random,random", "-n", "200000",
                       "--seed", "3", "--out", str(out), "-q", "-j", "2")
    try:
        _wait_for_rows(out, proc, minimum=1)
        workers = [int(p) for p in Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
                   .read_text().split()]
        assert len(workers) == 2, workers
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        deadline = time.monotonic() + 20
        alive = workers
        while alive and time.monotonic() < deadline:
            time.sleep(0.2)
            alive = [w for w in workers if Path(f"/proc/{w}").exists()
                     and "Z" not in Path(f"/proc/{w}/stat").read_text().split()[2]]
        assert alive == [], f"pool workers {alive} outlived their driver"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate(timeout=60)


def test_missing_ray_is_one_line(cli, monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    code, _, err = cli("simulate", "sprawlopolis", "-p", "random", "-n", "3", "--executor", "ray")
    assert code == 2 and err == "error: --executor ray needs Ray: pip install 'citybuilders[ray]'\n"
    code, _, err = cli("simulate", "sprawlopolis", "-p", "random", "-n", "3", "--executor", "dask")
    assert code == 2 and "allowed: local, ray" in err


def _stderr_on_a_terminal(args: list[str]) -> str:
    """Run ``args`` with stderr on a pseudo-terminal; returns what was written there."""
    import pty
    import subprocess

    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="120", TERM="xterm")
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    assert proc.wait(120) == 0
    os.close(master)
    return seen.decode("utf-8", "replace")


def test_progress_only_on_a_terminal(tmp_path: Path) -> None:
    import subprocess
    import sys

    args = [sys.executable, "-m", "citybuilders", "simulate", "sprawlopolis", "-p", "random",
            "-n", "400", "--batch-size", "50", "--out", str(tmp_path / "r.jsonl")]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""  # stderr is not a terminal: quiet
    text = _stderr_on_a_terminal(args)
    assert "games/s" in text and "400/400" in text
    assert _stderr_on_a_terminal([*args, "--quiet"]) == ""
