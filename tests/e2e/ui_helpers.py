"""Helpers of the board/play-page browser tests: games created through the JSON API (not the
home page form), moves sent by the API to reach an end position fast, axe-core injected by
Playwright (tests/e2e/axe.py)."""

from __future__ import annotations

import json
import random
import urllib.request
from pathlib import Path

import pytest
from axe import violations

ROOT = Path(__file__).resolve().parents[2]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _call(url: str, body: object | None = None, token: str | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="POST" if body is not None else "GET")
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("X-Seat-Token", token)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def new_game(base: str, game: str, seats: list[str], options: dict | None = None,
             seed: int = 7) -> dict:
    """Create a game by the API; ``seats``: "human", "invite" or "bot:<name>". Returns the
    API reply plus ``tokens`` (seat -> token) and ``url`` (play page of every human seat)."""
    body = {"game": game, "seats": [{"kind": "bot", "bot": s[4:]} if s.startswith("bot:")
                                    else {"kind": s} for s in seats], "seed": seed}
    if options:
        body["options"] = options
    status, data = _call(base + "/api/games", body)
    assert status == 201, data
    data["tokens"] = {s["seat"]: s["token"] for s in data["seats"] if s.get("token")}
    data["url"] = base + data["play_url"] if data.get("play_url") else None
    return data


def play_by_api(base: str, game: dict, seat: int, max_moves: int = 3000,
                seed: int = 1) -> dict:
    """Play seat ``seat``'s moves (random legal ones) by the API until the game ends or the
    seat has nothing to do for a while (bots move meanwhile); returns the last view."""
    import time

    rng = random.Random(seed)
    tok = game["tokens"][seat]
    view: dict = {}
    idle = 0
    for _ in range(max_moves):
        status, view = _call(f"{base}/api/games/{game['id']}/view", token=tok)
        assert status == 200, view
        if view["terminal"]:
            return view
        if not view["legal"]:
            idle += 1
            assert idle < 400, "the game stopped moving"
            time.sleep(0.05)
            continue
        idle = 0
        a = rng.choice(view["legal"])["action"]
        status, view = _call(f"{base}/api/games/{game['id']}/act",
                             {"state_id": view["state_id"], "action": a}, tok)
        assert status in (200, 409), view
    return view


def axe(page, where: str) -> None:
    """Run axe-core on ``page`` (tests/e2e/axe.py): no serious or critical violation."""
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in violations(page)]
    assert not bad, f"{where}: {bad}"


def wait_ready(page) -> None:
    page.wait_for_function("document.body.dataset.stateId !== undefined")
    page.wait_for_function(
        "document.body.dataset.terminal === 'true' || document.querySelector("
        "'#board [data-key].cb-target, #choices button') || "
        "document.getElementById('status').textContent.startsWith('Waiting') || "
        "document.getElementById('status').classList.contains('thinking')")
