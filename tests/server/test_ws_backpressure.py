"""A websocket that never reads must not slow anyone down (bounded per-connection outbox).

A real server process; a raw TCP client (plain ``socket``, tiny receive buffer) does the
websocket handshake for seat 0 and then never reads, while two human seats play 200 moves
over HTTP against a bot seat. Their move round trips stay fast, the bot keeps moving, and the
stuck socket is dropped from the game's connections.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import socket
import time

import httpx
from realserver import long_server  # noqa: F401 - a fixture

H = "X-Seat-Token"


def stuck_websocket(port: int, path: str) -> socket.socket:
    """Open a websocket with a plain socket, read the 101 reply, then never read again."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def _play(port: int, gid: str, toks: list[str], moves: int) -> list[float]:
    """Seats 0 and 1 move in turn (``moves`` moves); the round trip of each POST /act.

    A light client (``http.client``, one keep-alive connection): on this 2-core machine a
    heavy client's CPU would be measured as server latency."""
    times: list[float] = []
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(method: str, path: str, token: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={H: token,
                                                       "Content-Type": "application/json"})
        r = conn.getresponse()
        return r.status, json.loads(r.read())

    done = 0
    while done < moves:
        for seat in (0, 1):
            deadline = time.time() + 20
            while True:  # wait for our turn (the bot seat 2 moves in between)
                _, v = call("GET", f"/api/games/{gid}/view", toks[seat])
                if v["legal"]:
                    break
                assert time.time() < deadline, "the bot stopped moving"
                time.sleep(0.01)
            t0 = time.perf_counter()
            status, reply = call("POST", f"/api/games/{gid}/act", toks[seat],
                                 {"state_id": v["state_id"], "action": done % 10})
            times.append(time.perf_counter() - t0)
            assert status == 200, reply
            done += 1
    conn.close()
    return times


def test_an_unread_websocket_never_delays_moves_or_bots(long_server):
    base, port, _ = long_server
    r = httpx.post(base + "/api/games", json={
        "game": "long", "options": {"turns": 2000},
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    toks = [s.get("token") for s in r.json()["seats"]]
    stuck = stuck_websocket(port, f"/ws/games/{gid}?token={toks[0]}")
    try:
        times = _play(port, gid, toks, 200)
        times.sort()
        p99 = times[int(0.99 * (len(times) - 1))]
        assert len(times) == 200
        print(f"\nPOST /act with an unread websocket: p50 {times[100] * 1000:.1f} ms, "
              f"p99 {p99 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")
        assert p99 < 0.100, f"p99 {p99 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms"
        v = httpx.get(f"{base}/api/games/{gid}/view", headers={H: toks[0]}).json()
        assert v["move_number"] >= 300  # 200 human moves and the bot's ~100 between them
        # the unread socket was dropped: no websocket is left on the server
        assert httpx.get(base + "/api/stats").json()["websockets"] == 0
    finally:
        stuck.close()
