"""Simulation throughput and driver memory: ``local --jobs 1``, ``local --jobs 2`` and Ray with 2
workers on the same run, and the driver's peak RSS on a long streaming run.

Run: ``python benchmarks/bench_sim.py [--game kingdom-builder] [--players random,random]
[--games 3000] [--rss-games 100000] [--no-ray]``. Each figure is one ``citybuilders simulate``
subprocess (wall time, driver start-up included); the Ray run starts its own local head with
2 CPUs bound to 127.0.0.1 and stops it afterwards. Peak RSS is the driver's ``VmHWM`` (pool
workers excluded), sampled every 0.1 s. "steady" is the rate after the first checkpoint
(start-up, connection and the driver's measuring excluded). Prints the figures; not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOOPBACK_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


def _hwm_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _done(progress: Path) -> int:
    try:
        return int(json.loads(progress.read_text())["done"][0][1])
    except (OSError, ValueError, KeyError, IndexError):
        return 0


def run(args: list[str], env: dict[str, str] | None = None,
        out: Path | None = None) -> tuple[float, int, float]:
    """Wall seconds, the driver's peak RSS (KiB) and the steady rate (games/s after the first
    checkpoint, start-up excluded; 0 if unknown) of ``citybuilders ARGS`` writing ``out``."""
    progress = out.with_name(out.name + ".progress.json") if out else None
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "citybuilders", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, **(env or {})))
    peak = 0
    first: tuple[float, int] | None = None
    while proc.poll() is None:
        peak = max(peak, _hwm_kib(proc.pid))
        if progress is not None and first is None:
            d = _done(progress)
            if d > 0:
                first = (time.perf_counter(), d)
        time.sleep(0.1)
    end = time.perf_counter()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr.read()[-500:]}")  # type: ignore[union-attr]
    steady = 0.0
    if first is not None and progress is not None and end > first[0]:
        steady = (_done(progress) - first[1]) / (end - first[0])
    return end - t0, peak, steady


class RayHead:
    """A local Ray head with 2 CPUs on 127.0.0.1 (context manager)."""

    def __enter__(self) -> str:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.temp = Path(tempfile.mkdtemp(prefix="cbr", dir="/tmp"))
        self.proc = subprocess.Popen(
            [str(Path(sys.executable).with_name("ray")), "start", "--head", "--num-cpus", "2",
             "--port", str(self.port), "--node-ip-address", "127.0.0.1",
             "--include-dashboard=false", "--temp-dir", str(self.temp),
             "--object-store-memory", "100000000", "--disable-usage-stats", "--block"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            env=dict(os.environ, **LOOPBACK_ENV))
        deadline = time.time() + 90
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return f"127.0.0.1:{self.port}"
            except OSError:
                if self.proc.poll() is not None or time.time() > deadline:
                    raise SystemExit("Ray head did not start")
                time.sleep(0.2)

    def __exit__(self, *exc: object) -> None:
        import psutil

        family = psutil.Process(self.proc.pid).children(recursive=True)
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        for p in family:
            try:
                p.kill()
            except psutil.NoSuchProcess:
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(10)
        shutil.rmtree(self.temp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="kingdom-builder")
    ap.add_argument("--players", default="random,random")
    ap.add_argument("--games", type=int, default=3000, help="games of the throughput runs")
    ap.add_argument("--rss-games", type=int, default=100_000, help="games of the RSS run (0: skip)")
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray run")
    ap.add_argument("--only-rss", action="store_true", help="only the RSS run")
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = ["simulate", opts.game, "-p", opts.players, "--seed", "1", "-q"]
        if not opts.only_rss:
            runs = [("local --jobs 1", ["-j", "1"], None), ("local --jobs 2", ["-j", "2"], None)]
            for k, (label, extra, env) in enumerate(runs):
                out = Path(tmp) / f"rows{k}.jsonl"
                sec, rss, steady = run([*base, "-n", str(opts.games), "--out", str(out), *extra],
                                       env, out)
                print(f"{label:16} {opts.games} games: {sec:7.2f} s  {opts.games / sec:8.1f} games/s"
                      f" (steady {steady:6.1f})  driver peak RSS {rss / 1024:.0f} MiB", flush=True)
            if not opts.no_ray:
                try:
                    import ray  # noqa: F401
                except ImportError:
                    print("ray              not installed (pip install 'citybuilders[ray]')")
                else:
                    with RayHead() as address:
                        out = Path(tmp) / "rows-ray.jsonl"
                        args = [*base, "-n", str(opts.games), "--out", str(out), "--executor", "ray",
                                "--address", address]
                        sec, rss, steady = run(args, LOOPBACK_ENV, out)
                        print(f"{'ray (2 workers)':16} {opts.games} games: {sec:7.2f} s  "
                              f"{opts.games / sec:8.1f} games/s (steady {steady:6.1f})  driver peak "
                              f"RSS {rss / 1024:.0f} MiB", flush=True)
        if opts.rss_games:
            out = Path(tmp) / "big.jsonl"
            sec, rss, _ = run([*base, "-n", str(opts.rss_games), "--out", str(out), "-j", "2"])
            print(f"RSS run          {opts.rss_games} games, local --jobs 2, --out .jsonl: "
                  f"{sec:7.1f} s, driver peak RSS {rss / 1024:.0f} MiB, output "
                  f"{out.stat().st_size / 2**20:.0f} MiB", flush=True)


if __name__ == "__main__":
    main()
