"""Nothing saved is lost (reports/breakit.md, item 8): a plain rerun of ``simulate --out F``
used to overwrite the rows of an interrupted run in F without a word. Now it is refused in one
line naming ``--resume`` and ``--overwrite``; a finished run is still rerun over."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

from citybuilders.sim.run import progress_path

from .conftest import cli_process

# 6,000 games in tasks of 20: the run lasts seconds (the engine plays ~2,000 random games a
# second), and the progress file moves every few milliseconds, so the Ctrl-C lands mid-run
ARGS = ["simulate", "kingdom-builder", "-p", "random,random", "-n", "6000", "--seed", "11",
        "-q", "-j", "1", "--batch-size", "20"]


def _interrupted(out: Path) -> int:
    """Start the run into ``out``, Ctrl-C it once rows are written; the games done."""
    proc = cli_process(*ARGS, "--out", str(out))
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            prog = progress_path(out)
            try:
                if json.loads(prog.read_text())["done"][0][1] > 0:
                    break
            except (OSError, ValueError, KeyError):
                pass
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    prog = json.loads(progress_path(out).read_text())
    assert prog["complete"] is False
    return prog["done"][0][1]


def test_a_plain_rerun_keeps_an_interrupted_runs_rows(cli, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    done = _interrupted(out)
    before = out.read_bytes()
    code, stdout, err = cli(*ARGS, "--out", str(out))
    assert code == 2 and stdout == ""
    assert err == (f"error: --out {out}: holds an interrupted run ({done} games done, "
                   "rows.jsonl.progress.json); add --resume to complete it, or --overwrite to "
                   "start again\n")
    assert out.read_bytes() == before  # not a row lost
    code, _, err = cli(*ARGS, "--out", str(out), "--resume", "--overwrite")
    assert code == 2 and "give one of them" in err
    code, _, err = cli("simulate", "kingdom-builder", "-p", "random,random", "-n", "20",
                       "--out", str(out), "-q", "--overwrite")
    assert code == 0, err
    assert len(out.read_text().splitlines()) == 20
    code, _, err = cli("simulate", "kingdom-builder", "-p", "random,random", "-n", "10",
                       "--out", str(out), "-q")  # the finished run of 20: rerun over it
    assert code == 0, err
    assert len(out.read_text().splitlines()) == 10
