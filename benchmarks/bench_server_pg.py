"""Web server throughput on PostgreSQL with 1 and 2 processes, and on SQLite, in one run.

Starts a throw-away PostgreSQL cluster (``tests/pgcluster.py``: initdb + pg_ctl in a temporary
folder, every commit flushed to disk as by default) and, one configuration after the other,

1. SQLite, one server process (the default ``citybuilders serve``);
2. PostgreSQL, one server process;
3. PostgreSQL, two server processes on the same database, every request of every game sent
   to a random process (no sticky sessions: a move on one process reaches the other through
   LISTEN/NOTIFY, and a request on a cached game checks the stored state id first);

4. the same two processes with every game's requests on one of them (as a load balancer that
   hashes the game id sends them; docs/server.md);

then plays ``--games`` (default 100) concurrent two-seat games on each, with no think time
(a closed loop: the server is saturated) for ``--seconds`` (default 30) or ``--moves`` moves a
game. Each game is one client that fetches the view of the seat to move when the last reply
was another seat's and POSTs a random legal move. Prints moves/s, the POST /act round trip
p50/p99, the 409s (a stale view), and the servers' CPU; ratios against SQLite side by side.

Usage: ``python benchmarks/bench_server_pg.py [--games 100] [--seconds 30] [--moves 40]
[--game kingdom-builder]`` (needs the ``[postgres]`` extra and PostgreSQL's server binaries).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from bench_server import Conn, _loads, cpu_seconds, free_port, pct, start_server  # noqa: E402
from pgcluster import Cluster  # noqa: E402


async def play(ports: list[int], game: str, moves: int, deadline: float, lat: list[float],
               stale: list[int], errors: list[str], rng: random.Random,
               sticky: bool = False) -> int:
    """One two-seat game; each request to a random process of ``ports`` (``sticky``: every
    request of the game to one process, as a load balancer hashing the game id does)."""
    if sticky:
        ports = [rng.choice(ports)]
    conns = {p: Conn("127.0.0.1", p) for p in ports}

    def pick() -> Conn:
        return conns[rng.choice(ports)]

    try:
        st, data = await pick().request("POST", "/api/games", body={
            "game": game, "seats": [{"kind": "human"}, {"kind": "human"}]})
        if st != 201:
            errors.append(f"create {st}: {data[:200]!r}")
            return 0
        made = _loads(data)
        toks = [s["token"] for s in made["seats"]]
        gid = made["id"]
        view = _loads((await pick().request("GET", f"/api/games/{gid}/view", toks[0]))[1])
        done = 0
        while done < moves and time.perf_counter() < deadline and not view["terminal"]:
            seat = view["active_players"][0]
            if view["seat"] != seat:
                view = _loads((await pick().request("GET", f"/api/games/{gid}/view",
                                                     toks[seat]))[1])
                continue
            move = rng.choice(view["legal"])["action"]
            t0 = time.perf_counter()
            st, data = await pick().request("POST", f"/api/games/{gid}/act", toks[seat],
                                            {"state_id": view["state_id"], "action": move})
            lat.append(time.perf_counter() - t0)
            if st == 409:  # the view was older than the stored game: fetch it again
                stale[0] += 1
                view = _loads((await pick().request("GET", f"/api/games/{gid}/view",
                                                     toks[seat]))[1])
                continue
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
        for c in conns.values():
            await c.close()


async def saturate(ports: list[int], game: str, games: int, moves: int,
                   seconds: float, sticky: bool) -> dict[str, float]:
    lat: list[float] = []
    stale = [0]
    errors: list[str] = []
    deadline = time.perf_counter() + seconds
    t0 = time.perf_counter()
    counts = await asyncio.gather(*[
        play(ports, game, moves, deadline, lat, stale, errors, random.Random(i), sticky)
        for i in range(games)])
    wall = time.perf_counter() - t0
    for e in errors[:3]:
        print("  error:", e)
    n = sum(counts)
    return {"moves": n, "wall": wall, "rate": n / wall, "p50": pct(lat, .5),
            "p99": pct(lat, .99), "stale": stale[0], "errors": len(errors)}


def run_config(label: str, db: str, processes: int, args: argparse.Namespace,
               sticky: bool = False) -> dict:
    ports = [free_port() for _ in range(processes)]
    procs = [start_server(p, db) for p in ports]
    try:
        c0 = sum(cpu_seconds(p.pid) for p in procs)
        r = asyncio.run(saturate(ports, args.game, args.games, args.moves, args.seconds,
                                 sticky))
        r["cpu"] = (sum(cpu_seconds(p.pid) for p in procs) - c0) / r["wall"]
    finally:
        for p in procs:
            p.kill()
            p.wait()
    print(f"{label}: {r['moves']} moves in {r['wall']:.1f} s = {r['rate']:.0f} moves/s, "
          f"POST /act p50 {r['p50']:.1f} ms, p99 {r['p99']:.1f} ms, {r['stale']} stale (409), "
          f"{r['errors']} errors; servers' CPU {r['cpu'] * 100:.0f}% of a core", flush=True)
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--moves", type=int, default=40, help="moves per game at most")
    ap.add_argument("--seconds", type=float, default=30.0, help="time bound of each run")
    ap.add_argument("--game", default="kingdom-builder")
    args = ap.parse_args()
    print(f"{args.games} concurrent {args.game} games, no think time (saturated), "
          f"{args.seconds:g} s or {args.moves} moves a game per configuration; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}", flush=True)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        results["sqlite"] = run_config("SQLite, 1 process", f"sqlite:///{tmp}/bench.sqlite3",
                                       1, args)
    cluster = Cluster(durable=True).start()
    try:
        results["pg1"] = run_config("PostgreSQL, 1 process", cluster.create_database("b"), 1,
                                    args)
        results["pg2"] = run_config("PostgreSQL, 2 processes (random process per request)",
                                    cluster.create_database("b"), 2, args)
        results["pg2-sticky"] = run_config(
            "PostgreSQL, 2 processes (each game on one process: a balancer hashing the id)",
            cluster.create_database("b"), 2, args, sticky=True)
    finally:
        cluster.stop()
    base = results["sqlite"]["rate"]
    print("throughput relative to SQLite: " + ", ".join(
        f"{k} {v['rate'] / base:.2f}x" for k, v in results.items()))
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
