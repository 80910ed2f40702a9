"""Server memory benchmark: create and finish many all-bot games against a real server process
and print its resident set size (RSS) at start, peak and end.

Starts ``python -m citybuilders serve`` on 127.0.0.1 with a fresh SQLite file and
``--finished-seconds`` (default 1), keeps ``--concurrency`` games running at a time (every seat
a server-side ``random`` bot, so the server plays them to the end by itself), polls each game's
record until it is finished (401 while running: no token), and samples the server's RSS
(``/proc/PID/status`` VmRSS) every 0.2 s. "Start" is measured after a first game was created and
finished (imports and caches warm), "end" once ``/api/stats`` reports no live game. The target:
end within 50 MB of start however many games were played (finished games leave memory).

Usage: ``python benchmarks/bench_server_memory.py [--games 3000] [--concurrency 40]
[--game roll-into-town] [--players 1] [--finished-seconds 1]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

import httpx


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _one(c: httpx.AsyncClient, body: dict, done: list[int]) -> None:
    r = await c.post("/api/games", json=body)
    r.raise_for_status()
    gid = r.json()["id"]
    while True:
        await asyncio.sleep(0.3)
        r = await c.get(f"/api/games/{gid}/record")
        if r.status_code == 200:
            done[0] += 1
            return
        if r.status_code != 401:
            raise RuntimeError(f"game {gid}: {r.status_code} {r.text}")


async def _play(base: str, games: int, concurrency: int, body: dict) -> None:
    done = [0]
    sem = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=60,
                                 limits=httpx.Limits(max_connections=concurrency)) as c:
        async def task() -> None:
            async with sem:
                await _one(c, body, done)

        t0 = time.time()
        pending = [asyncio.create_task(task()) for _ in range(games)]
        while pending:
            _, still = await asyncio.wait(pending, timeout=10)
            pending = list(still)
            print(f"  {done[0]}/{games} games finished ({time.time() - t0:.0f} s)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--concurrency", type=int, default=40)
    ap.add_argument("--game", default="roll-into-town")
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--finished-seconds", type=float, default=1.0)
    args = ap.parse_args()
    body = {"game": args.game, "seats": [{"kind": "bot", "bot": "random"}] * args.players}
    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        proc = subprocess.Popen(
            [sys.executable, "-m", "citybuilders", "serve", "--port", str(port), "--db",
             f"sqlite:///{os.path.join(tmp, 'mem.sqlite3')}", "--finished-seconds",
             str(args.finished_seconds)], stdout=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            asyncio.run(_play(base, 1, 1, body))  # warm up
            time.sleep(args.finished_seconds + 1)
            start = _rss_mb(proc.pid)
            peak = [start]
            stop = threading.Event()

            def sample() -> None:
                while not stop.wait(0.2):
                    peak[0] = max(peak[0], _rss_mb(proc.pid))

            threading.Thread(target=sample, daemon=True).start()
            t0 = time.time()
            asyncio.run(_play(base, args.games, args.concurrency, body))
            played = time.time() - t0
            for _ in range(600):
                mem = httpx.get(f"{base}/api/stats").json()["memory"]
                if mem["live_games"] == 0:
                    break
                time.sleep(0.1)
            time.sleep(1.0)
            stop.set()
            end = _rss_mb(proc.pid)
            print(f"{args.games} all-bot {args.game} games ({args.players} player(s)) in "
                  f"{played:.0f} s; live games at the end: {mem['live_games']}, "
                  f"evictions: {mem['evictions']}")
            print(f"server RSS: start {start:.1f} MB, peak {peak[0]:.1f} MB, end {end:.1f} MB "
                  f"(end - start: {end - start:+.1f} MB)")
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
