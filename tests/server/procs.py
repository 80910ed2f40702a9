"""Real server processes for the storage tests: start ``serve_for_tests.py`` on a free port,
kill it with SIGKILL, and the small HTTP helpers the tests share."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

import httpx

H = "X-Seat-Token"
SCRIPT = os.path.join(os.path.dirname(__file__), "serve_for_tests.py")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One ``serve_for_tests.py`` process on ``db`` (an SQLAlchemy URL); ``env`` adds
    environment variables (e.g. ``CITYBUILDERS_FINISHED_SECONDS``)."""

    def __init__(self, db: str, env: dict[str, str] | None = None,
                 port: int | None = None) -> None:
        self.db = db
        self.env = env or {}
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.http = httpx.Client(base_url=self.base, timeout=30)
        """One client for every request (a new httpx client per request costs ~0.1 s)."""

    def start(self, timeout: float = 120.0) -> "Server":
        """Start the process and wait until ``/api/health`` answers (RuntimeError with the
        server's stderr if it exits first, or after ``timeout`` seconds: a bound for a server
        that never answers, with room for a loaded machine; a quick start returns at once)."""
        self.proc = subprocess.Popen([sys.executable, SCRIPT, str(self.port), self.db],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     env={**os.environ, **self.env})
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.http.get("/api/health", timeout=0.5).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.05)
            if self.proc.poll() is not None:
                raise RuntimeError(self.proc.stderr.read().decode())
        self.stop()
        raise RuntimeError("server did not start")

    def kill9(self) -> None:
        """SIGKILL (no shutdown hook runs) and reap the process; the client's pooled
        connections die with it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(10)
        self.http.close()
        self.http = httpx.Client(base_url=self.base, timeout=30)

    def stop(self) -> str:
        """Kill the process (if alive); its stderr so far."""
        self.kill9()
        self.http.close()
        err = self.proc.stderr.read().decode() if self.proc and self.proc.stderr else ""
        return err

    def restart(self) -> "Server":
        """``kill9()`` then ``start()`` on the same port and database."""
        self.kill9()
        return self.start()

    # ------------------------------------------------------------------ HTTP
    def get(self, path: str, token: str | None = None, **kw: Any) -> httpx.Response:
        headers = {H: token} if token else {}
        return self.http.get(path, headers=headers, **kw)

    def post(self, path: str, body: Any, token: str | None = None) -> httpx.Response:
        headers = {H: token} if token else {}
        return self.http.post(path, json=body, headers=headers)

    def create(self, game: str, seats: list[dict[str, Any]], **extra: Any
               ) -> tuple[str, list[str]]:
        """Create a game; its id and the tokens of its human/invite seats in seat order."""
        r = self.post("/api/games", {"game": game, "seats": seats, **extra})
        assert r.status_code == 201, r.text
        return r.json()["id"], [s["token"] for s in r.json()["seats"] if "token" in s]

    def view(self, gid: str, token: str) -> dict[str, Any]:
        r = self.get(f"/api/games/{gid}/view", token)
        assert r.status_code == 200, r.text
        return r.json()

    def stats(self) -> dict[str, Any]:
        return self.get("/api/stats").json()
