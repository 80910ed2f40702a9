"""Simulation throughput and driver memory: ``local --jobs 1``, ``local --jobs 2`` and Ray with 2
workers on the same run, and the driver's peak RSS on a long streaming run.

Run: ``python benchmarks/bench_sim.py [--game kingdom-builder] [--players random,random]
[--games 3000] [--rounds 1] [--rss-games 100000] [--rss-executor local|ray] [--no-ray]
[--no-jobs1]``. Each figure is one ``citybuilders simulate``
subprocess (wall time, driver start-up included); the Ray run starts its own local head with
2 CPUs bound to 127.0.0.1 and stops it afterwards. Peak RSS is the driver's ``VmHWM`` (pool
workers excluded), sampled every 0.1 s. "steady" is the rate after the first checkpoint
(start-up, connection and the driver's measuring excluded). Prints the figures; not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOOPBACK_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


def _status_kib(pid: int, field: str = "VmHWM") -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _hwm_kib(pid: int) -> int:
    return _status_kib(pid, "VmHWM")


def _done(progress: Path) -> int:
    try:
        return int(json.loads(progress.read_text())["done"][0][1])
    except (OSError, ValueError, KeyError, IndexError):
        return 0


def run(args: list[str], env: dict[str, str] | None = None,
        out: Path | None = None, trace: list[tuple[int, int]] | None = None
        ) -> tuple[float, int, float]:
    """Wall seconds, the driver's peak RSS (KiB) and the steady rate (games/s after the first
    checkpoint, start-up excluded; 0 if unknown) of ``citybuilders ARGS`` writing ``out``.
    ``trace`` (a list) receives ``(games done, driver RSS KiB)`` about every 10 s."""
    progress = out.with_name(out.name + ".progress.json") if out else None
    for old in (out, progress):  # an earlier round's files would fake the steady rate
        if old is not None and old.exists():
            old.unlink()
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "citybuilders", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, **(env or {})))
    peak = 0
    first: tuple[float, int] | None = None
    next_trace = time.perf_counter() + 10
    while proc.poll() is None:
        peak = max(peak, _hwm_kib(proc.pid))
        if trace is not None and progress is not None and time.perf_counter() >= next_trace:
            next_trace += 10
            trace.append((_done(progress), _status_kib(proc.pid, "VmRSS")))
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
    """A local Ray head with 2 CPUs on 127.0.0.1 (context manager), started with this
    interpreter (``python -m ray.scripts.scripts``, so its workers import this checkout) and
    stopped by killing exactly its process tree (never ``ray stop``, which stops every Ray on
    the machine). Entering returns once a throwaway driver has connected: the timed run pays
    for its own connection and workers, not for the head's start-up."""

    def __enter__(self) -> str:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.temp = Path(tempfile.mkdtemp(prefix="cbr", dir="/tmp"))
        # a busy machine's dashboard agent may take more than the default 30 s to start
        env = dict(os.environ, **LOOPBACK_ENV, RAY_agent_register_timeout_ms="300000")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--num-cpus", "2",
             "--port", str(self.port), "--node-ip-address", "127.0.0.1",
             "--include-dashboard=false", "--temp-dir", str(self.temp),
             "--object-store-memory", "100000000", "--disable-usage-stats", "--block"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            env=env)
        address = f"127.0.0.1:{self.port}"
        deadline = time.time() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.proc.poll() is not None or time.time() > deadline:
                    self.__exit__()
                    raise SystemExit("Ray head did not start")
                time.sleep(0.2)
        code = ("import ray, sys; ray.init(address=sys.argv[1], logging_level='ERROR', "
                "log_to_driver=False); ray.shutdown()")
        for _ in range(3):  # a busy machine may need more than one try
            probe = subprocess.Popen([sys.executable, "-c", code, address], env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.time() + 300
            while probe.poll() is None and self.proc.poll() is None and time.time() < deadline:
                time.sleep(0.2)
            if probe.poll() is None:
                probe.kill()
                probe.wait()
            if probe.returncode == 0:
                return address
            if self.proc.poll() is not None:
                break
        self.__exit__()
        raise SystemExit("cannot connect a driver to the Ray head (it exited or did not answer)")

    def __exit__(self, *exc: object) -> None:
        family = _descendants(self.proc.pid)
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        for pid in set(family + _descendants(self.proc.pid)):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(10)
        shutil.rmtree(self.temp, ignore_errors=True)


def _descendants(pid: int) -> list[int]:
    """Living descendants of ``pid`` (from /proc; Ray workers run in sessions of their own)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parents.items() if pp == p]
        found += kids
        todo += kids
    return found


def _cpu_seconds(pids: list[int]) -> dict[str, float]:
    """CPU seconds (user + system) used so far by ``pids``, summed per process kind: ``workers``
    (Ray task workers, ``ray::...`` titles other than the agents) and ``ray`` (the head's own
    processes: raylet, GCS, agents, monitors)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {"workers": 0.0, "ray": 0.0}
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            title = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
        except (OSError, UnicodeDecodeError):
            continue
        kind = ("workers" if title.startswith("ray::") and "Agent" not in title else "ray")
        out[kind] += (int(stat[11]) + int(stat[12])) / tick
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="kingdom-builder")
    ap.add_argument("--players", default="random,random")
    ap.add_argument("--games", type=int, default=3000, help="games of the throughput runs")
    ap.add_argument("--rss-games", type=int, default=100_000, help="games of the RSS run (0: skip)")
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray run")
    ap.add_argument("--no-jobs1", action="store_true", help="skip the local --jobs 1 run")
    ap.add_argument("--rss-executor", choices=("local", "ray"), default="local",
                    help="executor of the RSS run (ray: through the benchmark's head, 2 CPUs)")
    ap.add_argument("--only-rss", action="store_true", help="only the RSS run")
    ap.add_argument("--rounds", type=int, default=1,
                    help="repeat the three runs this many times (order reversed every other "
                         "round: the machine's load drifts) and print the medians")
    opts = ap.parse_args()
    print("command: python benchmarks/bench_sim.py " + " ".join(sys.argv[1:]), flush=True)
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        base = ["simulate", opts.game, "-p", opts.players, "--seed", "1", "-q"]
        address: str | None = None
        head: RayHead | None = None
        if not opts.only_rss:
            runs: list[tuple[str, list[str], dict[str, str] | None]] = [
                ("local --jobs 1", ["-j", "1"], None), ("local --jobs 2", ["-j", "2"], None)]
            if opts.no_jobs1:
                runs = runs[1:]
            if not opts.no_ray:
                try:
                    import ray  # noqa: F401
                except ImportError:
                    print("ray              not installed (pip install 'citybuilders[ray]')")
                else:
                    # the head starts once, before any timed run, and stays up between rounds
                    head = RayHead()
                    address = stack.enter_context(head)
                    runs.append(("ray (2 workers)", ["--executor", "ray", "--address", address],
                                 LOOPBACK_ENV))
            rates: dict[str, list[float]] = {label: [] for label, _, _ in runs}
            for rnd in range(opts.rounds):
                order = list(enumerate(runs))
                for k, (label, extra, env) in (order if rnd % 2 == 0 else order[::-1]):
                    out = Path(tmp) / f"rows{k}.jsonl"
                    head_pid = (head.proc.pid if head is not None and "--executor" in extra
                                else None)
                    before = (_cpu_seconds(_descendants(head_pid)) if head_pid is not None
                              else None)
                    sec, rss, steady = run([*base, "-n", str(opts.games), "--out", str(out),
                                            *extra], env, out)
                    if head_pid is not None and before is not None:
                        # the job's workers exit with its driver (their seconds go with
                        # them); the head's own processes stay: Ray's overhead on this node
                        after = _cpu_seconds(_descendants(head_pid))
                        print(f"        CPU seconds used meanwhile by the head's own processes "
                              f"(raylet, GCS, agents): {after['ray'] - before['ray']:.1f} "
                              f"(wall {sec:.1f} s)", flush=True)
                    rates[label].append(opts.games / sec)
                    print(f"round {rnd + 1} {label:16} {opts.games} games: {sec:7.2f} s  "
                          f"{opts.games / sec:8.1f} games/s (steady {steady:6.1f})  driver peak "
                          f"RSS {rss / 1024:.0f} MiB", flush=True)
                if "ray (2 workers)" in rates:
                    print(f"round {rnd + 1} ray / local --jobs 2 (wall games/s): "
                          f"{rates['ray (2 workers)'][-1] / rates['local --jobs 2'][-1]:.3f}",
                          flush=True)
            if opts.rounds > 1:
                for label, xs in rates.items():
                    print(f"median {label:16} {statistics.median(xs):8.1f} games/s "
                          f"(rounds: {', '.join(f'{x:.1f}' for x in xs)})", flush=True)
                if "ray (2 workers)" in rates:
                    # the figure to quote: the round ratios swing by +-10 % on a shared machine
                    ratios = [r / q for r, q in zip(rates["ray (2 workers)"],
                                                    rates["local --jobs 2"])]
                    print(f"ray / local --jobs 2: ratio of the medians "
                          f"{statistics.median(rates['ray (2 workers)']) / statistics.median(rates['local --jobs 2']):.3f}, "
                          f"median of the round ratios {statistics.median(ratios):.3f} "
                          f"(rounds: {', '.join(f'{x:.3f}' for x in ratios)})", flush=True)
        if opts.rss_games:
            out = Path(tmp) / "big.jsonl"
            if opts.rss_executor == "ray":
                if address is None:
                    address = stack.enter_context(RayHead())
                extra, env, label = (["--executor", "ray", "--address", address], LOOPBACK_ENV,
                                     "ray (2 workers)")
            else:
                extra, env, label = ["-j", "2"], None, "local --jobs 2"
            trace: list[tuple[int, int]] = []
            sec, rss, _ = run([*base, "-n", str(opts.rss_games), "--out", str(out), *extra],
                              env, out, trace)
            print(f"RSS run          {opts.rss_games} games, {label}, --out .jsonl: "
                  f"{sec:7.1f} s, driver peak RSS {rss / 1024:.1f} MiB, output "
                  f"{out.stat().st_size / 2**20:.0f} MiB", flush=True)
            step = max(1, len(trace) // 10)
            print("RSS over the run (games: MiB): " + ", ".join(
                f"{d}: {k / 1024:.1f}" for d, k in trace[::step] + trace[-1:]), flush=True)


if __name__ == "__main__":
    main()
