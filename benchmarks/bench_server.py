"""Web server benchmark (loopback only): move round-trip latency and game page load time.

Starts ``citybuilders.server`` with uvicorn in a subprocess on 127.0.0.1 (fresh SQLite file),
then

1. plays ``--games`` (default 100) concurrent bot-vs-bot games: every seat of every game is a
   client-side random bot that fetches its view and POSTs a move over HTTP (asyncio + httpx);
   the round trip of each POST /act (validate, commit to SQLite, resolve chance, build the
   reply view) is timed; bounded by ``--moves`` per game and ``--seconds`` in all;
2. loads a Kingdom Builder game page (HTML + static files + first view over the API) ``--loads``
   times and reports the median (the toy game if Kingdom Builder is not installed).

Usage: ``python benchmarks/bench_server.py [--games 100] [--moves 30] [--seconds 60]``.
"""

from __future__ import annotations

import argparse
import asyncio
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


async def play_game(client: httpx.AsyncClient, game: str, players: int, moves: int,
                    deadline: float, lat: list[float], rng: random.Random) -> int:
    r = await client.post("/api/games", json={"game": game,
                                              "seats": [{"kind": "human"}] * players})
    r.raise_for_status()
    toks = [s["token"] for s in r.json()["seats"]]
    view = (await client.get(f"/api/games/{r.json()['id']}/view",
                             headers={H: toks[0]})).json()
    gid = view["game_id"]
    done = 0
    while done < moves and time.perf_counter() < deadline and not view["terminal"]:
        seat = view["active_players"][0]
        if view["seat"] != seat:
            view = (await client.get(f"/api/games/{gid}/view", headers={H: toks[seat]})).json()
        move = rng.choice(view["legal"])["action"]
        t0 = time.perf_counter()
        r = await client.post(f"/api/games/{gid}/act", headers={H: toks[seat]},
                              json={"state_id": view["state_id"], "action": move})
        lat.append(time.perf_counter() - t0)
        r.raise_for_status()
        view = r.json()
        done += 1
    return done


async def latency(base: str, game: str, players: int, games: int, moves: int,
                  seconds: float) -> None:
    lat: list[float] = []
    limits = httpx.Limits(max_connections=games, max_keepalive_connections=games)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
        deadline = time.perf_counter() + seconds
        t0 = time.perf_counter()
        counts = await asyncio.gather(*[
            play_game(client, game, players, moves, deadline, lat, random.Random(i))
            for i in range(games)])
        wall = time.perf_counter() - t0
    lat.sort()
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    print(f"{game}: {games} concurrent games, {sum(counts)} moves in {wall:.1f} s "
          f"({sum(counts) / wall:.0f} moves/s)")
    print(f"  move round trip: p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms, "
          f"max {lat[-1] * 1000:.1f} ms")


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
            asyncio.run(latency(base, game, 2, args.games, args.moves, args.seconds))
            page_load(base, game, args.loads)
        finally:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    main()
