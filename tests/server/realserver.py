"""A real server process (``serve_long.py``: the test games and ``long``) as a fixture."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import httpx
import pytest

HERE = os.path.dirname(__file__)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def long_server(tmp_path):
    """``(base_url, port, process)`` of a fresh server on a tmpfs database."""
    port = _free_port()
    # the database on tmpfs: this test measures the websocket path, not the disk's fsync
    db = f"sqlite:////dev/shm/cb-ws-{os.getpid()}-{port}.sqlite3"
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "serve_long.py"), str(port), db],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        # waits on the health check (no cost when the start is quick); the bound only turns a
        # server that never answers into a failure, so it leaves room for a loaded machine
        deadline = time.time() + 120
        while True:
            try:
                if httpx.get(base + "/api/health", timeout=0.5).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
            if proc.poll() is not None or time.time() > deadline:
                proc.kill()  # before reading: a living process never ends its stderr
                proc.wait(10)
                raise RuntimeError("server did not start: " + proc.stderr.read().decode())
        yield base, port, proc
    finally:
        proc.kill()
        proc.wait(10)
        for suffix in ("", "-wal", "-shm"):
            try:
                os.unlink(db[len("sqlite:///"):] + suffix)
            except FileNotFoundError:
                pass


