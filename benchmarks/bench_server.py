"""Web server benchmark (loopback only): move round-trip latency and game page load time.

Starts ``citybuilders.server`` with uvicorn in a subprocess on 127.0.0.1 (fresh SQLite file),
then

1. plays ``--games`` (default 100) concurrent bot-vs-bot games: every seat of every game is a
   client-side random bot that fetches its view and POSTs a move over HTTP (asyncio + httpx);
   the round trip of each POST /act (validate, commit to SQLite, resolve chance, build the
   reply view) is timed, and the other seat's GET /view; bounded by ``--moves`` per game and
   ``--seconds`` in all;
2. loads a Kingdom Builder game page (HTML + static files + first view over the API) ``--loads``
   times and reports the median (the toy game if Kingdom Builder is not installed).

Each client bot "thinks" ``--think`` seconds on average (default 1) before a move (uniform
0..2x), as
bots and people do; ``--think 0`` saturates the server instead (a closed loop of 100 clients
with no pause: latency is then queueing, ~ games / throughput by Little's law). The client is
one asyncio process with a minimal HTTP/1.1 client, one keep-alive connection per game
(orjson when installed); the server's and the client's CPU use are
printed so a saturated client is visible.

Usage: ``python benchmarks/bench_server.py [--games 100] [--moves 30] [--seconds 60]
[--think 1]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx

H = "X-Seat-Token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, db: str) -> subprocess.Popen:
    code = ("import sys; sys.path.insert(0, 'tests/core'); "
            "from toygame import ToyGame; from citybuilders.core.registry import register_game;"
            " register_game(ToyGame); from citybuilders.server import run; "
            f"run('127.0.0.1', {port}, {db!r})")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL)
    for _ in range(200):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=0.5)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


try:
    from orjson import loads as _loads
except ImportError:  # pragma: no cover
    from json import loads as _loads


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (Linux /proc), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Conn:
    """A minimal HTTP/1.1 keep-alive client connection (asyncio streams): the benchmark's
    client must cost far less CPU than the server it measures (httpx spent ~13 ms of CPU per
    move here, more than the server, and starved the 2 cores)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, token: str | None = None,
                      body: dict | None = None) -> tuple[int, bytes]:
        """Send a request and read the whole reply: (status, body bytes)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
        if token:
            head += f"{H}: {token}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        assert self.reader is not None
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.split(b"\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        return status, await self.reader.readexactly(length)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def runqueue_seconds(pid: int) -> float:
    """Time the threads of process ``pid`` spent runnable but waiting for a CPU (Linux
    schedstat), in seconds: how much other load on the machine delayed the server."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[1])
        except (OSError, IndexError, ValueError):
            pass
    return total / 1e9


async def play_game(host: str, port: int, game: str, players: int, moves: int,
                    deadline: float, lat: list[float], gets: list[float], think: float,
                    errors: list[str], rng: random.Random) -> int:
    """One bot-vs-bot game on its own connection: each seat waits ``think`` s on average
    (uniform 0..2*think), fetches its view if the last reply was another seat's and POSTs a
    random legal move."""
    c = Conn(host, port)
    try:
        st, data = await c.request("POST", "/api/games", body={
            "game": game, "seats": [{"kind": "human"}] * players})
        if st != 201:
            errors.append(f"create {st}: {data[:200]!r}")
            return 0
        made = _loads(data)
        toks = [s["token"] for s in made["seats"]]
        gid = made["id"]
        view = _loads((await c.request("GET", f"/api/games/{gid}/view", toks[0]))[1])
        done = 0
        while done < moves and time.perf_counter() < deadline and not view["terminal"]:
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            seat = view["active_players"][0]
            if view["seat"] != seat:
                t0 = time.perf_counter()
                st, data = await c.request("GET", f"/api/games/{gid}/view", toks[seat])
                gets.append(time.perf_counter() - t0)
                view = _loads(data)
            move = rng.choice(view["legal"])["action"]
            t0 = time.perf_counter()
            st, data = await c.request("POST", f"/api/games/{gid}/act", toks[seat],
                                       {"state_id": view["state_id"], "action": move})
            lat.append(time.perf_counter() - t0)
            if st != 200:
                errors.append(f"{st}: {data[:200]!r}")
                return done
            view = _loads(data)
            done += 1
        return done
    except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
        errors.append(f"{type(exc).__name__}: {exc}")
        return 0
    finally:
        await c.close()


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` in milliseconds."""
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))] * 1000 if v else float("nan")


async def latency(port: int, game: str, players: int, games: int, moves: int,
                  seconds: float, think: float, server_pid: int) -> None:
    lat: list[float] = []
    gets: list[float] = []
    errors: list[str] = []
    deadline = time.perf_counter() + seconds
    s0, c0, t0 = cpu_seconds(server_pid), time.process_time(), time.perf_counter()
    q0 = runqueue_seconds(server_pid)
    counts = await asyncio.gather(*[
        play_game("127.0.0.1", port, game, players, moves, deadline, lat, gets, think, errors,
                  random.Random(i))
        for i in range(games)])
    wall = time.perf_counter() - t0
    s1, c1 = cpu_seconds(server_pid), time.process_time()
    q1 = runqueue_seconds(server_pid)
    load = os.getloadavg()[0]
    n = sum(counts)
    print(f"{game}: {games} concurrent games, think {think:g} s, {n} moves in {wall:.1f} s "
          f"({n / wall:.0f} moves/s), {len(errors)} errors")
    print(f"  move round trip (POST /act): p50 {pct(lat, .5):.1f} ms, p90 {pct(lat, .9):.1f} ms,"
          f" p99 {pct(lat, .99):.1f} ms, max {pct(lat, 1):.1f} ms")
    print(f"  other seat's view (GET /view): p50 {pct(gets, .5):.1f} ms, "
          f"p99 {pct(gets, .99):.1f} ms")
    print(f"  CPU: server {(s1 - s0) / wall * 100:.0f}% of a core "
          f"({(s1 - s0) / max(n, 1) * 1000:.2f} ms per move incl. its GET), "
          f"client {(c1 - c0) / wall * 100:.0f}% of a core; the server's threads waited "
          f"{(q1 - q0) / wall * 1000:.0f} ms/s for a CPU (load average {load:.1f} on "
          f"{os.cpu_count()} cores)")
    stats = httpx.get(f"http://127.0.0.1:{port}/api/stats")
    if stats.status_code == 200:  # (servers before the group-commit writer have no stats)
        w = stats.json()["writer"]
        print(f"  database writer: {w['writes']} writes in {w['commits']} commits; last "
              f"{w['recent_groups']} groups: {w['mean_group']} writes each, commit (fsync) "
              f"p50 {w['commit_ms_p50']} ms, p99 {w['commit_ms_p99']} ms")
    for e in errors[:3]:
        print("  error:", e)


def page_load(base: str, game: str, loads: int) -> None:
    with httpx.Client(base_url=base, timeout=30) as c:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        d = c.post("/api/games", json={"game": game, "seats": seats}).json()
        tok = d["seats"][0]["token"]
        url = f"/play/{d['id']}?t={tok}"
        times = []
        size = 0
        for _ in range(loads):
            t0 = time.perf_counter()
            html = c.get(url)
            size = len(html.content)
            for asset in ("/static/style.css", "/static/common.js", "/static/play.js"):
                size += len(c.get(asset).content)
            v = c.get(f"/api/games/{d['id']}/view", headers={H: tok})
            size += len(v.content)
            times.append(time.perf_counter() - t0)
    print(f"{game} game page load (HTML + CSS + JS + first view, {size / 1024:.0f} KiB): "
          f"median {statistics.median(times) * 1000:.1f} ms, "
          f"max {max(times) * 1000:.1f} ms over {loads} loads")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--moves", type=int, default=30, help="moves per game at most")
    ap.add_argument("--seconds", type=float, default=60.0, help="time bound of the run")
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean think time of a client bot before each move, s (0 = saturate)")
    ap.add_argument("--loads", type=int, default=30)
    ap.add_argument("--game", default=None, help="game id (default kingdom-builder, else toy)")
    args = ap.parse_args()
    from citybuilders.core.registry import registered_games

    real = registered_games()
    game = args.game or ("kingdom-builder" if "kingdom-builder" in real else "toy")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{os.path.join(tmp, 'bench.sqlite3')}"
        proc = start_server(port, db)
        base = f"http://127.0.0.1:{port}"
        try:
            asyncio.run(latency(port, game, 2, args.games, args.moves, args.seconds,
                                args.think, proc.pid))
            page_load(base, game, args.loads)
        finally:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    main()
