"""--executor ray against a real local Ray head (started here, bound to 127.0.0.1, stopped after).

Skipped when ray is not installed (``pip install citybuilders[ray]``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from citybuilders.sim.batch import BatchSpec
from citybuilders.sim.executor import LocalExecutor
from citybuilders.sim.run import progress_path, run_to_file

from .conftest import cli_process
from .rayhead import LOOPBACK_ENV, cmdline, descendants, free_port, start_head, stop_head

pytestmark = pytest.mark.ray

GAMES = 2000


@pytest.fixture(scope="module")
def ray_head():
    pytest.importorskip("ray", reason="ray not installed (pip install 'citybuilders[ray]')")
    temp = Path(f"/tmp/cbray{os.getpid()}")
    proc, address = start_head(temp)
    try:
        yield {"address": address, "pid": proc.pid}
    finally:
        stop_head(proc)
        shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture(scope="module")
def local_rows(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("local") / "local.jsonl"
    run_to_file(BatchSpec("sprawlopolis", ("random",), {}), GAMES, 5, LocalExecutor(2), out)
    return out


def _ray_args(out: Path, address: str, *extra: str) -> list[str]:
    return ["simulate", "sprawlopolis", "-p", "random", "-n", str(GAMES), "--seed", "5",
            "--out", str(out), "-q", "--executor", "ray", "--address", address, *extra]


def test_ray_rows_identical_to_local(ray_head, local_rows: Path, tmp_path: Path) -> None:
    out = tmp_path / "ray.jsonl"
    proc = cli_process(*_ray_args(out, ray_head["address"]), env=LOOPBACK_ENV)
    stdout, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 0, stderr[-2000:]
    assert out.read_bytes() == local_rows.read_bytes()
    assert f"{GAMES} games" in stdout


def _task_workers(head_pid: int) -> list[int]:
    """Ray worker processes of this head now running a batch (process title ray::play_range)."""
    return [p for p in descendants(head_pid) if cmdline(p).startswith("ray::play_range")]


def _niceness(pid: int) -> int:
    """The nice value of process ``pid`` (field 19 of /proc/PID/stat)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_lost_ray_worker_loses_no_game(ray_head, local_rows: Path, tmp_path: Path) -> None:
    out = tmp_path / "ray.jsonl"
    proc = cli_process(*_ray_args(out, ray_head["address"], "--batch-size", "25"),
                       env=LOOPBACK_ENV)
    killed = None
    try:
        deadline = time.time() + 120
        while killed is None and time.time() < deadline and proc.poll() is None:
            workers = _task_workers(ray_head["pid"])
            done = 0
            if progress_path(out).exists():
                try:
                    done = json.loads(progress_path(out).read_text())["done"][0][1]
                except (ValueError, KeyError):
                    pass
            if workers and done < GAMES // 2:
                killed = workers[0]
                niceness = _niceness(killed)
                os.kill(killed, signal.SIGKILL)
            time.sleep(0.02)
        stdout, stderr = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert killed is not None, "no Ray worker was running a batch"
    # the run's workers have the head's priority (Ray's default puts task workers 15 below)
    assert niceness == _niceness(ray_head["pid"])
    assert proc.returncode == 0, stderr[-2000:]
    assert out.read_bytes() == local_rows.read_bytes()
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["index"] for r in rows] == list(range(GAMES))


def test_unreachable_address_is_one_quick_line(cli) -> None:
    pytest.importorskip("ray")
    t0 = time.time()
    code, _, err = cli("simulate", "sprawlopolis", "-p", "random", "-n", "3", "--executor", "ray",
                       "--address", f"127.0.0.1:{free_port()}")
    assert code == 2 and time.time() - t0 < 10
    assert err.startswith("error: --address 127.0.0.1:") and "cannot reach a Ray cluster" in err
    code, _, err = cli("simulate", "sprawlopolis", "-n", "3", "-p", "random", "--executor", "ray",
                       "--address", "nohostport")
    assert code == 2 and "expected auto, host:port or ray://host:port" in err


def test_custom_sections_travel_to_the_ray_workers(ray_head, tmp_path: Path) -> None:
    """The sections file is read once by the driver; the workers get the document in the run's
    options (the engine opens no file) and give the local pool's rows."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from kingdom_builder.test_custom_sections import doc

    f = tmp_path / "mine.json"
    f.write_text(json.dumps(doc()))
    args = ["simulate", "kingdom-builder", "-p", "random,random", "-n", "24", "--seed", "3",
            "-q", "-o", f"sections_file={f}", "--sections", "meadow,paddock,oasis,farm",
            "--batch-size", "4"]
    local = tmp_path / "local.jsonl"
    proc = cli_process(*args, "--out", str(local))
    assert proc.wait(240) == 0, proc.stderr.read()[-2000:]
    out = tmp_path / "ray.jsonl"
    proc = cli_process(*args, "--out", str(out), "--executor", "ray", "--address",
                       ray_head["address"], env=LOOPBACK_ENV)
    _, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 0, stderr[-2000:]
    assert out.read_bytes() == local.read_bytes()
    assert all(json.loads(x)["setup"].startswith("meadow:") for x in out.read_text().splitlines())
