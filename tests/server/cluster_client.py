"""Clients of several real server processes on one database (tests/server/test_cluster.py):
a small asyncio HTTP/1.1 keep-alive client (httpx costs more CPU per request than the server
it tests on 2 cores), a player that sends each request of a game to a random process, and
the check that every acknowledged move is stored exactly where it was acknowledged."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

H = "X-Seat-Token"


class Lost(Exception):
    """The connection broke or timed out (the process died?): the request's outcome is
    unknown."""


class Http:
    """One keep-alive connection to ``127.0.0.1:port`` (reopened after a failure)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _request(self, method: str, path: str, token: str | None,
                       body: Any) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
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
        payload = await self.reader.readexactly(length)
        return status, json.loads(payload) if payload else None

    async def request(self, method: str, path: str, token: str | None = None,
                      body: Any = None, timeout: float = 20.0) -> tuple[int, Any]:
        """(status, parsed JSON body); Lost if the connection fails or ``timeout`` passes."""
        try:
            return await asyncio.wait_for(self._request(method, path, token, body), timeout)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError,
                asyncio.TimeoutError, ValueError, IndexError) as exc:
            self.close()
            raise Lost(f"{type(exc).__name__}: {exc}") from None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Tally:
    """What the clients saw: acknowledged moves ``(game, history index, seat, action)``,
    moves whose reply was lost (``unknown`` per game), 409s, requests to each process."""

    acks: list[tuple[str, int, int, int]] = field(default_factory=list)
    unknown: dict[str, int] = field(default_factory=dict)
    stale: int = 0
    lost: int = 0
    per_port: dict[int, int] = field(default_factory=dict)
    games: list[tuple[str, dict[int, str]]] = field(default_factory=list)
    """(game id, {human seat: token})."""

    def human_seats(self) -> dict[str, set[int]]:
        return {gid: set(tokens) for gid, tokens in self.games}


class Player:
    """Plays one game through random processes of ``ports`` (those ``alive()`` says are up)."""

    def __init__(self, ports: list[int], rng: random.Random, tally: Tally,
                 alive: Any = None) -> None:
        self.ports = ports
        self.rng = rng
        self.tally = tally
        self.alive = alive or (lambda port: True)
        self.conns = {p: Http(p) for p in ports}

    def _pick(self) -> Http:
        up = [p for p in self.ports if self.alive(p)] or self.ports
        port = self.rng.choice(up)
        self.tally.per_port[port] = self.tally.per_port.get(port, 0) + 1
        return self.conns[port]

    async def call(self, method: str, path: str, token: str | None = None,
                   body: Any = None, retry: bool = True) -> tuple[int, Any]:
        """A request to a random live process; a GET (``retry``) is retried elsewhere when the
        connection is lost, a POST raises Lost (its outcome is unknown)."""
        for attempt in range(200):
            try:
                return await self._pick().request(method, path, token, body)
            except Lost:
                self.tally.lost += 1
                if not retry:
                    raise
                await asyncio.sleep(0.05)
        raise AssertionError(f"{method} {path}: no process answered")

    async def play(self, game: str, seats: list[dict[str, Any]], options: dict[str, Any],
                   deadline: float) -> str:
        """Create the game (retrying elsewhere if the process dies) and play its human seats
        with random legal moves until it ends; returns the game id."""
        while True:
            try:
                st, made = await self.call("POST", "/api/games", body={
                    "game": game, "seats": seats, "options": options}, retry=False)
            except Lost:
                await asyncio.sleep(0.05)
                continue
            assert st == 201, made
            break
        gid = made["id"]
        tokens = {s["seat"]: s["token"] for s in made["seats"] if "token" in s}
        self.tally.games.append((gid, dict(tokens)))
        any_token = next(iter(tokens.values()))
        loop = asyncio.get_running_loop()
        view: dict[str, Any] = {}
        while loop.time() < deadline:
            st, view = await self.call("GET", f"/api/games/{gid}/view", any_token)
            assert st == 200, view
            if view["terminal"]:
                return gid
            humans = [p for p in view["active_players"] if p in tokens]
            if not humans:  # a bot's turn (some process drives it)
                await asyncio.sleep(0.02)
                continue
            seat = self.rng.choice(humans)
            if view["seat"] != seat:
                st, view = await self.call("GET", f"/api/games/{gid}/view", tokens[seat])
                assert st == 200, view
                if seat not in view["active_players"]:
                    continue
            move = self.rng.choice(view["legal"])["action"]
            try:
                st, reply = await self.call("POST", f"/api/games/{gid}/act", tokens[seat],
                                            {"state_id": view["state_id"], "action": move},
                                            retry=False)
            except Lost:
                self.tally.unknown[gid] = self.tally.unknown.get(gid, 0) + 1
                continue
            if st == 200:
                self.tally.acks.append((gid, view["move_number"], seat, move))
                assert reply["state_id"] > view["state_id"]
            elif st == 409:
                self.tally.stale += 1
            else:
                raise AssertionError(f"act {st}: {reply}")
        raise AssertionError(
            f"game {gid} did not finish in time: state {view.get('state_id')}, to move "
            f"{view.get('active_players')}, seats {[s['kind'] for s in view.get('seats', [])]}"
            f", bot error {view.get('bot_error')!r}")

    def close(self) -> None:
        for c in self.conns.values():
            c.close()


def stored_histories(url: str) -> dict[str, list[tuple[int, int]]]:
    """Every game's stored history, read straight from the database."""
    engine = sa.create_engine(url)
    out: dict[str, list[tuple[int, int]]] = {}
    try:
        with engine.connect() as conn:
            for gid, idx, actor, action in conn.execute(sa.text(
                    "SELECT game_id, idx, actor, action FROM actions ORDER BY game_id, idx")):
                hist = out.setdefault(gid, [])
                assert idx == len(hist), f"game {gid}: a gap before entry {idx}"
                hist.append((actor, action))
    finally:
        engine.dispose()
    return out


def check_acknowledged(tally: Tally, histories: dict[str, list[tuple[int, int]]]) -> int:
    """Every acknowledged move is stored at the history index it was acknowledged at, and
    (no duplicate) each stored human entry is an acknowledged move or one of that game's
    moves whose reply was lost. Returns the number of acknowledged moves checked."""
    acked: dict[str, dict[int, tuple[int, int]]] = {}
    for gid, idx, seat, action in tally.acks:
        assert idx not in acked.setdefault(gid, {}), f"game {gid}: entry {idx} acked twice"
        acked[gid][idx] = (seat, action)
        hist = histories.get(gid, [])
        assert idx < len(hist) and hist[idx] == (seat, action), (
            f"game {gid}: acknowledged move {seat}:{action} at entry {idx} is not stored "
            f"there ({hist[idx] if idx < len(hist) else 'missing'})")
    human_seats = tally.human_seats()
    for gid, hist in histories.items():
        humans = human_seats.get(gid, set())
        extra = [i for i, (actor, _) in enumerate(hist)
                 if actor in humans and i not in acked.get(gid, {})]
        assert len(extra) <= tally.unknown.get(gid, 0), (
            f"game {gid}: stored human entries {extra} were never acknowledged")
    return len(tally.acks)
