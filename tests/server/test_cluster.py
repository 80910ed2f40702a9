"""Several real server processes on one real PostgreSQL database (server/cluster.py).

Clients send every request of a game to a random process; games mix humans and bots (the
bots driven by whichever process holds the game's advisory lock). Checked straight against
the database: every acknowledged move is stored exactly once at the history index it was
acknowledged at, no stored human move was never acknowledged (except moves whose reply a
killed process never sent), every seat's view is identical from every process, a websocket on
one process sees moves made on another within 200 ms, and of two processes racing on one move
exactly one answers 200 and the other 409.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa
from cluster_client import Player, Tally, check_acknowledged, stored_histories
from procs import Server

pytestmark = pytest.mark.postgres

HUMAN = {"kind": "human"}
RANDOM = {"kind": "bot", "bot": "random"}
SLOW = {"kind": "bot", "bot": "slow"}
MIX = [  # (game, seats, options): humans alone, humans and bots, a simultaneous game
    ("toy", [HUMAN, HUMAN], {"turns": 6}),
    ("toy", [HUMAN, RANDOM], {"turns": 6}),
    ("simul", [HUMAN, RANDOM], {"rounds": 3}),
    ("secrets", [HUMAN, HUMAN], {"rounds": 2}),
    ("toy", [RANDOM, HUMAN, RANDOM], {"turns": 6}),
]


def start_servers(url: str, n: int, env: dict[str, str] | None = None) -> list[Server]:
    """``n`` server processes on database ``url``, started side by side."""
    servers = [Server(url, env) for _ in range(n)]
    with ThreadPoolExecutor(n) as ex:  # (a generous start time: the machine may be busy)
        list(ex.map(lambda s: s.start(timeout=120), servers))
    return servers


def stop_all(servers: list[Server]) -> None:
    for s in servers:
        s.stop()


def stored_statuses(url: str) -> dict[str, str]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return dict(conn.execute(sa.text("SELECT id, status FROM games")).all())
    finally:
        engine.dispose()


def stored_locks(url: str) -> list[tuple[str, int]]:
    """(session name, key) of every advisory lock held (who drives which game's bots)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(sa.text(
                "SELECT a.application_name, (l.classid::bigint << 32) | l.objid::bigint "
                "FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
                "WHERE l.locktype = 'advisory' AND l.granted"))]
    finally:
        engine.dispose()


async def play_many(ports: list[int], games: int, tally: Tally, concurrency: int,
                    seconds: float, seed: int, mix=MIX, alive=None,
                    until: asyncio.Event | None = None) -> None:
    """Play ``games`` games (or, with ``until``, new games until it is set), ``concurrency``
    at a time, each request to a random process; a game has ``seconds`` to finish."""
    rng = random.Random(seed)
    started = 0

    async def one(i: int) -> None:
        p = Player(ports, random.Random(rng.random()), tally, alive)
        try:
            game, seats, options = mix[i % len(mix)]
            await p.play(game, seats, options, asyncio.get_running_loop().time() + seconds)
        finally:
            p.close()

    async def lane() -> None:
        nonlocal started
        while (started < games) if until is None else not until.is_set():
            started += 1
            await one(started)

    await asyncio.gather(*[lane() for _ in range(concurrency)])


def same_views_everywhere(servers: list[Server], tally: Tally) -> int:
    """Every human seat's view of every game is the same from every process; views compared."""
    n = 0
    for gid, tokens in tally.games:
        for seat, tok in tokens.items():
            views = [s.view(gid, tok) for s in servers]
            for v in views[1:]:
                assert v == views[0], f"game {gid} seat {seat}: processes disagree"
            n += 1
    return n


@pytest.mark.parametrize("processes", [2, 3])
def test_200_games_through_random_processes_lose_and_duplicate_nothing(pg_url, processes):
    servers = start_servers(pg_url, processes)
    try:
        tally = Tally()
        t0 = time.perf_counter()
        asyncio.run(play_many([s.port for s in servers], 200, tally, concurrency=20,
                              seconds=120, seed=processes))
        wall = time.perf_counter() - t0
        histories = stored_histories(pg_url)
        acked = check_acknowledged(tally, histories)
        assert len(tally.games) == 200
        statuses = stored_statuses(pg_url)
        assert all(statuses[gid] == "finished" for gid, _ in tally.games)
        # no reply was lost, so every stored human entry is exactly one acknowledged move
        assert tally.lost == 0 and not tally.unknown
        humans = tally.human_seats()
        stored_human = sum(1 for gid, h in histories.items() for a, _ in h
                           if a in humans.get(gid, ()))
        assert stored_human == acked
        bot_moves = sum(1 for gid, h in histories.items() for a, _ in h
                        if a >= 0 and a not in humans.get(gid, ()))
        assert bot_moves > 100  # bots moved too (driven by whichever process held the lock)
        assert len(tally.per_port) == processes
        compared = same_views_everywhere(servers, tally)
        stats = [s.stats()["cluster"] for s in servers]
        print(f"\n{processes} processes: 200 games, {acked} acknowledged moves + {bot_moves} "
              f"bot moves in {wall:.1f} s, {tally.stale} stale (409) answers, {compared} seat "
              f"views identical on every process; per process: {stats}")
    finally:
        stop_all(servers)


def test_two_processes_racing_on_one_move_one_200_one_409(pg_url):
    a, b = start_servers(pg_url, 2)
    try:
        for _ in range(20):
            gid, toks = a.create("toy", [HUMAN, HUMAN])
            seat = a.view(gid, toks[0])["active_players"][0]
            tok = toks[seat]
            v = a.view(gid, tok)
            assert b.view(gid, tok)["state_id"] == v["state_id"]  # both have it in memory
            legal = [m["action"] for m in v["legal"]]
            bodies = {a: {"state_id": v["state_id"], "action": legal[0]},
                      b: {"state_id": v["state_id"], "action": legal[-1]}}
            barrier = threading.Barrier(2)

            def go(srv: Server):
                barrier.wait()
                return srv, srv.post(f"/api/games/{gid}/act", bodies[srv], tok)

            with ThreadPoolExecutor(2) as ex:
                results = list(ex.map(go, [a, b]))
            codes = sorted(r.status_code for _, r in results)
            assert codes == [200, 409], [r.text for _, r in results]
            (winner, won), = [(s, r) for s, r in results if r.status_code == 200]
            (loser,) = [r for _, r in results if r.status_code == 409]
            assert "stale" in loser.json()["error"]
            hist = stored_histories(pg_url)[gid]
            assert hist[v["move_number"]] == (seat, bodies[winner]["action"])
            # the loser reloaded: both processes now show the winner's move, identically
            assert a.view(gid, tok) == b.view(gid, tok)
            assert a.view(gid, tok)["state_id"] == won.json()["state_id"]
    finally:
        stop_all([a, b])


def test_a_websocket_on_one_process_sees_moves_made_on_another_within_200_ms(pg_url):
    from websockets.sync.client import connect

    a, b = start_servers(pg_url, 2)
    try:
        gid, toks = b.create("toy", [HUMAN, HUMAN], options={"turns": 30})
        with connect(f"ws://127.0.0.1:{a.port}/ws/games/{gid}?token={toks[0]}") as ws:
            seen = [json.loads(ws.recv(timeout=5))["view"]]
            delays = []
            view = b.view(gid, toks[0])
            while not view["terminal"]:
                seat = view["active_players"][0]
                if view["seat"] != seat:
                    view = b.view(gid, toks[seat])
                r = b.post(f"/api/games/{gid}/act",
                           {"state_id": view["state_id"], "action": view["legal"][0]["action"]},
                           toks[seat])
                acked = time.perf_counter()
                assert r.status_code == 200, r.text
                view = r.json()
                while seen[-1]["state_id"] < view["state_id"]:
                    msg = json.loads(ws.recv(timeout=2))
                    assert msg["type"] == "view"
                    seen.append(msg["view"])
                delays.append(time.perf_counter() - acked)
                # seat 0's view pushed by A equals the one B serves at the same state
                assert seen[-1] == b.view(gid, toks[0])
            ids = [v["state_id"] for v in seen]
            assert ids == sorted(set(ids)), "views out of order or repeated"
            assert seen[-1]["terminal"] and len(delays) == 30
            delays.sort()
            print(f"\nmove on B -> websocket on A: p50 {delays[15] * 1000:.1f} ms, "
                  f"max {delays[-1] * 1000:.1f} ms over {len(delays)} moves")
            assert delays[-1] < 0.2
    finally:
        stop_all([a, b])


def test_kill_9_of_one_process_ten_times_loses_nothing_and_games_go_on(pg_url):
    kills_wanted = 10
    env = {"CB_TEST_SLOW_BOT_DELAY": "0.05"}
    servers = start_servers(pg_url, 3, env)
    alive = {s.port: True for s in servers}
    mix = [
        ("toy", [HUMAN, SLOW, SLOW], {"turns": 12}),  # bots think while a process is killed
        ("simul", [HUMAN, SLOW], {"rounds": 4}),
        ("toy", [HUMAN, HUMAN], {"turns": 8}),
        ("toy", [SLOW, HUMAN], {"turns": 10}),
    ]
    rng = random.Random(9)
    tally = Tally()
    kills = []

    async def killer(done: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        try:
            while len(kills) < kills_wanted:
                await asyncio.sleep(rng.uniform(0.2, 1.0))
                srv = rng.choice(servers)
                alive[srv.port] = False
                await loop.run_in_executor(None, srv.kill9)
                kills.append(srv.port)
                await loop.run_in_executor(None, lambda: srv.start(timeout=120))
                alive[srv.port] = True
        finally:
            done.set()

    async def main() -> None:
        done = asyncio.Event()
        await asyncio.gather(killer(done), play_many(
            [s.port for s in servers], 0, tally, concurrency=8, seconds=120, seed=3,
            mix=mix, alive=lambda port: alive[port], until=done))

    try:
        try:
            asyncio.run(main())
        except AssertionError:
            print("\nstats:", [s.stats() for s in servers])
            print("locks:", stored_locks(pg_url))
            raise
        assert len(kills) >= kills_wanted
        histories = stored_histories(pg_url)
        acked = check_acknowledged(tally, histories)
        statuses = stored_statuses(pg_url)
        assert all(statuses[gid] == "finished" for gid, _ in tally.games)
        humans = tally.human_seats()
        bot_moves = sum(1 for gid, h in histories.items() for a, _ in h
                        if a >= 0 and a not in humans.get(gid, ()))
        compared = same_views_everywhere(servers, tally)
        print(f"\n{len(kills)} kill -9: {len(tally.games)} games finished, {acked} acknowledged "
              f"moves all stored, {bot_moves} bot moves, {sum(tally.unknown.values())} moves "
              f"with a lost reply, {tally.lost} lost connections, {compared} views identical")
        assert tally.lost > 0  # the kills did hit requests under way
    finally:
        stop_all(servers)
