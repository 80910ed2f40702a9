"""On the wire: WebSocket live updates, hidden-information redaction, restart persistence."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest
from helpers import CARDS

H = "X-Seat-Token"


def create(client, game, seats, **extra):
    r = client.post("/api/games", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    d = r.json()
    return d["id"], [s.get("token") for s in d["seats"]]


def test_websocket_pushes_each_seat_its_own_view_and_resumes_on_reconnect(client):
    gid, toks = create(client, "secrets", [{"kind": "human"}, {"kind": "human"}])
    with client.websocket_connect(f"/ws/games/{gid}?token={toks[0]}") as ws0, \
            client.websocket_connect(f"/ws/games/{gid}?token={toks[1]}") as ws1:
        v0 = ws0.receive_json()["view"]
        v1 = ws1.receive_json()["view"]
        assert v0["seat"] == 0 and v1["seat"] == 1 and v0["state_id"] == v1["state_id"]
        assert v0["active_players"] == [0] and len(v0["observation"]["hand"]) == 1
        card = v0["legal"][0]
        r = client.post(f"/api/games/{gid}/act", headers={H: toks[0]},
                        json={"state_id": v0["state_id"], "action": card["action"]})
        assert r.status_code == 200
        u0 = ws0.receive_json()["view"]
        u1 = ws1.receive_json()["view"]
        assert u0["state_id"] == u1["state_id"] == v0["state_id"] + 1
        assert u1["legal"] and u0["legal"] == []
        assert u1["observation"]["played"][0] == [card["text"].split()[1]]
        ws1.send_text("{bad")
        assert ws1.receive_json() == {"type": "error", "status": 400, "error": "malformed JSON"}
        ws1.send_text(json.dumps({"type": "ping"}))
        assert ws1.receive_json() == {"type": "pong"}
    # reconnecting resumes where the player was
    with client.websocket_connect(f"/ws/games/{gid}?token={toks[1]}") as ws1:
        again = ws1.receive_json()["view"]
    assert again == u1


@pytest.mark.parametrize("token, status", [("", 401), ("wrong", 403)])
def test_websocket_refuses_a_bad_token(client, token, status):
    gid, _ = create(client, "toy", [{"kind": "human"}, {"kind": "human"}])
    with client.websocket_connect(f"/ws/games/{gid}?token={token}") as ws:
        msg = ws.receive_json()
    assert msg["type"] == "error" and msg["status"] == status and "token" in msg["error"]


def test_websocket_unknown_game(client):
    with client.websocket_connect("/ws/games/abcdef12?token=x") as ws:
        assert ws.receive_json()["status"] == 404


def test_no_payload_ever_carries_another_seats_hand_or_the_deck(client):
    """Play a whole 'secrets' game between two seats over HTTP + WebSocket and search every
    byte each seat received for card names it may not know (another hand, undrawn cards)."""
    gid, toks = create(client, "secrets", [{"kind": "human"}, {"kind": "human"}],
                       options={"rounds": 4})
    lg = client.app.state.manager.live[gid]
    received: dict[int, list[str]] = {0: [], 1: []}
    leaks = []

    def check(seat):
        # what `seat` may know: its own hand and every card played so far
        st = lg.state
        allowed = {CARDS[c] for c in st.hands[seat]} | {
            CARDS[c] for p in st.played for c in p}
        blob = "\n".join(received[seat])
        for name in CARDS:
            if name in blob and name not in allowed and name not in known[seat]:
                leaks.append((seat, name))
        known[seat] |= allowed

    known = {0: set(), 1: set()}
    with client.websocket_connect(f"/ws/games/{gid}?token={toks[0]}") as ws0, \
            client.websocket_connect(f"/ws/games/{gid}?token={toks[1]}") as ws1:
        sockets = {0: ws0, 1: ws1}
        for seat in (0, 1):
            received[seat].append(sockets[seat].receive_text())
        while True:
            for seat in (0, 1):
                for url in (f"/api/games/{gid}/view", f"/api/games/{gid}/record",
                            f"/api/games/{gid}/replay", f"/play/{gid}?t={toks[seat]}",
                            f"/replay/{gid}?t={toks[seat]}"):
                    received[seat].append(client.get(url, headers={H: toks[seat]}).text)
                check(seat)
                received[seat].clear()
            st = lg.state
            if st.is_terminal():
                break
            p = st.current_player()
            v = json.loads(client.get(f"/api/games/{gid}/view", headers={H: toks[p]}).text)
            r = client.post(f"/api/games/{gid}/act", headers={H: toks[p]},
                            json={"state_id": v["state_id"], "action": v["legal"][-1]["action"]})
            received[p].append(r.text)
            for seat in (0, 1):
                received[seat].append(sockets[seat].receive_text())
                check(seat)
    assert leaks == []
    # the hidden draws of the other seat show as null / (hidden) while the game runs
    assert lg.state.is_terminal()


def test_running_export_hides_the_other_seats_draws_but_nothing_public(client):
    gid, toks = create(client, "secrets", [{"kind": "human"}, {"kind": "human"}])
    lg = client.app.state.manager.live[gid]
    for _ in range(3):
        p = lg.state.current_player()
        v = client.get(f"/api/games/{gid}/view", headers={H: toks[p]}).json()
        client.post(f"/api/games/{gid}/act", headers={H: toks[p]},
                    json={"state_id": v["state_id"], "action": v["legal"][0]["action"]})
    rec = client.get(f"/api/games/{gid}/record", headers={H: toks[0]}).json()
    hist = lg.state.history()
    assert len(rec["actions"]) == len(hist)
    for (actor, action), entry in zip(hist, rec["actions"]):
        if actor == -11:  # a draw only seat 1 may see
            assert entry is None
        else:
            assert entry == action
    view = client.get(f"/api/games/{gid}/view", headers={H: toks[0]}).json()
    hidden = [e for e in view["log"] if e["text"] == "(hidden)"]
    assert hidden and all(e["who"] == "draw for Player 2" for e in hidden)
    assert "position" not in view and "history" not in view and "seed" not in json.dumps(view)


def test_chance_is_drawn_only_when_it_happens_with_an_unseeded_rng(client, monkeypatch):
    """No future die exists: the server draws each outcome at the moment with the OS RNG, so
    two games with the same seed and the same moves get independent dice."""
    from citybuilders.server import manager

    calls = []
    real = manager._SYSRAND.random
    monkeypatch.setattr(manager._SYSRAND, "random", lambda: calls.append(1) or real())
    gid, toks = create(client, "simul", [{"kind": "human"}], seed=1)
    assert len(calls) == 1  # exactly the first die, nothing drawn ahead
    v = client.get(f"/api/games/{gid}/view", headers={H: toks[0]}).json()
    client.post(f"/api/games/{gid}/act", headers={H: toks[0]},
                json={"state_id": v["state_id"], "action": 0})
    assert len(calls) == 2
    assert isinstance(manager._SYSRAND, __import__("random").SystemRandom)


# ---------------------------------------------------------------------------- restart
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(port: int, db: str) -> subprocess.Popen:
    script = os.path.join(os.path.dirname(__file__), "serve_for_tests.py")
    proc = subprocess.Popen([sys.executable, script, str(port), db],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=0.5).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
        if proc.poll() is not None:
            raise RuntimeError(proc.stderr.read().decode())
    proc.kill()
    raise RuntimeError("server did not start")


async def _concurrent_games(base: str, games: int, moves: int) -> dict[str, tuple[str, int, int]]:
    """Play ``games`` secrets games at once (``moves`` moves each) over HTTP; per game the
    acknowledged (token of seat 0, state id, move number) of its last move."""
    import asyncio

    acked: dict[str, tuple[str, int, int]] = {}

    async def play(client: httpx.AsyncClient) -> None:
        r = await client.post("/api/games", json={
            "game": "secrets", "seats": [{"kind": "human"}, {"kind": "human"}],
            "options": {"rounds": 5}})
        gid = r.json()["id"]
        toks = [s["token"] for s in r.json()["seats"]]
        for i in range(moves):
            v = (await client.get(f"/api/games/{gid}/view", headers={H: toks[i % 2]})).json()
            r = await client.post(f"/api/games/{gid}/act", headers={H: toks[i % 2]},
                                  json={"state_id": v["state_id"],
                                        "action": v["legal"][0]["action"]})
            assert r.status_code == 200, r.text
            acked[gid] = (toks[0], r.json()["state_id"], r.json()["move_number"])

    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        await asyncio.gather(*[play(client) for _ in range(games)])
    return acked


def test_kill_9_and_restart_loses_no_game_and_no_move(db_url):
    """One game move by move, and 16 games moving at the same time (their moves share grouped
    commits): after SIGKILL and a restart every acknowledged move is there."""
    import asyncio

    port = _free_port()
    db = db_url
    base = f"http://127.0.0.1:{port}"
    proc = _start(port, db)
    try:
        many = asyncio.run(_concurrent_games(base, 16, 3))
        r = httpx.post(f"{base}/api/games", json={
            "game": "secrets", "seats": [{"kind": "human"}, {"kind": "human"}],
            "options": {"rounds": 5}})
        gid = r.json()["id"]
        toks = [s["token"] for s in r.json()["seats"]]
        acked = {}
        for i in range(5):
            p = i % 2
            v = httpx.get(f"{base}/api/games/{gid}/view", headers={H: toks[p]}).json()
            r = httpx.post(f"{base}/api/games/{gid}/act", headers={H: toks[p]},
                           json={"state_id": v["state_id"], "action": v["legal"][0]["action"]})
            assert r.status_code == 200
            acked[p] = r.json()
        proc.send_signal(signal.SIGKILL)  # no shutdown hook runs
        proc.wait(10)
        proc = _start(port, db)
        assert len(many) == 16
        for other_gid, (tok, state_id, moves) in many.items():
            seen = httpx.get(f"{base}/api/games/{other_gid}/view", headers={H: tok}).json()
            assert (seen["state_id"], seen["move_number"]) == (state_id, moves)
            assert moves == 7  # deal + 3 x (play, draw)
        after = httpx.get(f"{base}/api/games/{gid}/view", headers={H: toks[0]}).json()
        assert after == acked[0]  # same state id, hand, log, scores: every move is there
        assert after["move_number"] == 11  # deal + 5 x (play, draw)
        other = httpx.get(f"{base}/api/games/{gid}/view", headers={H: toks[1]}).json()
        assert other["state_id"] == after["state_id"] and other["legal"]
        # and the game goes on after the restart
        r = httpx.post(f"{base}/api/games/{gid}/act", headers={H: toks[1]},
                       json={"state_id": other["state_id"], "action": other["legal"][0]["action"]})
        assert r.status_code == 200 and r.json()["move_number"] == 13
    finally:
        proc.kill()
        proc.wait(10)
