"""Limits checked before allocation, against a real server process: its peak memory
(``VmHWM``) is read from /proc before and after each hostile request."""

from __future__ import annotations

import socket
import time

import httpx
import pytest
from realserver import long_server  # noqa: F401 - a fixture


def peak_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise AssertionError("no VmHWM")


def _reply(s: socket.socket) -> bytes:
    s.settimeout(10)
    data = b""
    try:
        while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    return data


@pytest.mark.parametrize("body, message", [
    (b'{"game": "sprawlopolis", "num_players": 100000000}',
     "num_players: expected an integer from 1 to 4 for sprawlopolis, got 100000000"),
    (b'{"game": "sprawlopolis", "num_players": 1%s}' % (b"0" * 4000,),
     "num_players: expected an integer from 1 to 4 for sprawlopolis, got a very large number"),
    (b'{"game": "sprawlopolis", "num_players": 1%s}' % (b"0" * 5000,),
     "body: a number has too many digits"),
])
def test_a_huge_player_count_is_refused_without_allocating(long_server, body, message):
    base, _, proc = long_server
    before = peak_kib(proc.pid)
    t0 = time.monotonic()
    r = httpx.post(base + "/api/games", content=body, timeout=30,
                   headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json() == {"error": message}
    assert time.monotonic() - t0 < 2
    assert peak_kib(proc.pid) - before < 5_000


def test_a_50_mb_chunked_body_is_cut_off_at_the_limit(long_server):
    base, port, proc = long_server
    before = peak_kib(proc.pid)
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"POST /api/records HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Transfer-Encoding: chunked\r\n\r\n")
    chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
    sent = 0
    try:
        for _ in range(800):  # 50 MiB
            s.sendall(chunk)
            sent += 65536
    except OSError:  # the server answered and closed: the rest is not read
        pass
    reply = _reply(s)
    s.close()
    assert reply.startswith(b"HTTP/1.1 413"), reply[:200]
    assert b'{"error":"body: larger than 2000000 bytes"}' in reply
    assert peak_kib(proc.pid) - before < 12_000  # the old server grew by ~59 MB


def test_a_declared_50_mb_body_is_refused_before_it_is_sent(long_server):
    _, port, proc = long_server
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: 52428800\r\n\r\n")
    reply = _reply(s)
    s.close()
    assert reply.startswith(b"HTTP/1.1 413"), reply[:200]
    assert b"body: larger than 2000000 bytes" in reply
