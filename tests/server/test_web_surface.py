"""The HTTP/WebSocket surface: security headers, Origin check, binary frames, body limit,
create rate limit, validation before allocation, 4xx (never 5xx) for hostile inputs."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient

from citybuilders.server.app import CSP, RateLimiter

H = "X-Seat-Token"


def create(client, game="toy", seats=None, **extra):
    seats = seats or [{"kind": "human"}, {"kind": "human"}]
    r = client.post("/api/games", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    d = r.json()
    return d["id"], [s.get("token") for s in d["seats"]]


@pytest.mark.parametrize("path", ["/", "/api/games", "/static/play.js", "/nope", "/api/nope",
                                  "/play/abc?t=x"])
def test_every_response_carries_the_security_headers(client, path):
    r = client.get(path)
    assert r.headers["content-security-policy"] == CSP
    assert "frame-ancestors 'none'" in CSP and "script-src 'self';" in CSP
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_pages_have_no_inline_script(client):
    gid, toks = create(client)
    for url in ("/", f"/play/{gid}?t={toks[0]}", f"/replay/{gid}?t={toks[0]}"):
        html = client.get(url).text
        # the only <script> elements: static files, and the JSON data blocks (not executed)
        for chunk in html.split("<script")[1:]:
            assert (chunk.startswith(' src="/static/')
                    or chunk.startswith(' type="application/json" id="page-data">')
                    or chunk.startswith(' type="application/json" id="strings">')
                    or chunk.startswith(' type="application/json" id="online-data">')
                    ), chunk[:80]


def test_websocket_origin_must_be_this_host(client):
    gid, toks = create(client)
    url = f"/ws/games/{gid}?token={toks[0]}"
    with client.websocket_connect(url, headers={"Origin": "http://evil.example"}) as ws:
        msg = ws.receive_json()
    assert msg["type"] == "error" and msg["status"] == 403 and msg["error"].startswith("Origin:")
    with client.websocket_connect(url, headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "view"
    with client.websocket_connect(url) as ws:  # no Origin: a non-browser client
        assert ws.receive_json()["type"] == "view"


def test_websocket_binary_frames_and_huge_numbers_get_an_error_and_the_socket_stays(client):
    gid, toks = create(client)
    with client.websocket_connect(f"/ws/games/{gid}?token={toks[0]}") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_bytes(b"\x00\xff binary")
        m = ws.receive_json()
        assert m == {"type": "error", "status": 400,
                     "error": "frame: expected a text frame holding JSON, got a binary frame"}
        ws.send_text('{"type": ' + "9" * 5000 + "}")
        m = ws.receive_json()
        assert m["status"] == 400 and m["error"].startswith("message:")
        ws.send_text("[" * 100000)
        assert ws.receive_json()["status"] == 400
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json() == {"type": "pong"}


def test_stats_count_websockets(client):
    gid, toks = create(client)
    assert client.get("/api/stats").json()["websockets"] == 0
    with client.websocket_connect(f"/ws/games/{gid}?token={toks[0]}") as ws:
        ws.receive_json()
        assert client.get("/api/stats").json()["websockets"] == 1


def test_rate_limiter_window():
    rl = RateLimiter(2, window=60)
    assert rl.hit("a", now=0) is None and rl.hit("a", now=1) is None
    assert rl.hit("a", now=2) == 58
    assert rl.hit("b", now=2) is None
    assert rl.hit("a", now=60.5) is None  # the first one left the window


def test_create_rate_limit_gives_429_with_retry_after(tmp_path):
    from citybuilders.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'r.sqlite3'}", create_rate=3)
    with TestClient(app) as c:
        for _ in range(3):
            create(c)
        r = c.post("/api/games", json={"game": "toy"})
        assert r.status_code == 429
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert r.json()["error"].startswith("rate limit: at most 3 new games per minute")
        r = c.post("/new", data={"game": "toy"}, follow_redirects=False)
        assert r.status_code == 429 and "Retry-After" in r.headers


def test_declared_body_over_the_limit_is_413_before_reading(tmp_path):
    from citybuilders.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'b.sqlite3'}", max_body=1000)
    with TestClient(app) as c:
        r = c.post("/api/games", content=b"{" + b" " * 2000 + b"}",
                   headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json() == {"error": "body: larger than 1000 bytes"}

        def chunks():  # no Content-Length: counted while it streams
            for _ in range(50):
                yield b" " * 100

        r = c.post("/api/records", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json() == {"error": "body: larger than 1000 bytes"}


@pytest.mark.parametrize("body, message", [
    ({"game": "toy", "seats": [{}, {"kind": "bot", "bot": ["random"]}]},
     "seats[1].bot: unknown bot a JSON list; allowed: "),
    ({"game": "toy", "seats": [{"kind": ["human"]}, {}]},
     "seats[0].kind: bad value a JSON list; allowed: human, invite, bot"),
    ({"game": "toy", "num_players": 100_000_000},
     "num_players: expected an integer from 2 to 3 for toy, got 100000000"),
    ({"game": "toy", "num_players": -1}, "num_players: expected an integer from 2 to 3"),
    ({"game": "toy", "seats": [{}] * 1000}, "seats: at most 3 seats for toy, got 1000"),
    ({"game": "toy", "seed": 2**63}, "seed: expected an integer from 0 to 2**63-1"),
    ({"game": "toy", "seed": -1}, "seed: expected an integer from 0 to 2**63-1, got -1"),
    ({"game": "toy", "options": []}, "options: expected an object of option name -> value"),
    ({"game": ["toy"]}, "game: expected a game id string"),
])
def test_hostile_create_bodies_are_4xx_naming_the_field(client, body, message):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith(message), r.json()


def test_the_largest_seed_is_accepted(client):
    gid, toks = create(client, seed=2**63 - 1)
    rec = client.get(f"/api/games/{gid}/record", headers={H: toks[0]}).json()
    assert rec["seed"] == 2**63 - 1


@pytest.mark.parametrize("change, message", [
    ({"seed": 2**63}, "record: seed: expected an integer from 0 to 2**63-1"),
    ({"seed": 10**30}, "record: seed: expected an integer from 0 to 2**63-1, got a larger one"),
    ({"num_players": 10**9}, "record: num_players: expected an integer from 2 to 3 for toy"),
    ({"options": {"turns": [1]}}, "record: option 'turns' of toy: bad value a JSON list"),
    ({"actions": [[0, [1]]]}, "record: move 1: expected an action number"),
])
def test_hostile_records_are_4xx(client, change, message):
    rec = {"game": "toy", "rules_version": "1", "options": {}, "num_players": 2, "seed": 1,
           "actions": [], **change}
    r = client.post("/api/records", json=rec)
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith(message), r.json()


def test_huge_integers_in_any_body_are_400(client):
    gid, toks = create(client)
    big = b"1" + b"0" * 5000
    for url in ("/api/games", "/api/records", f"/api/games/{gid}/act", f"/api/games/{gid}/undo"):
        r = client.post(url, content=b'{"state_id": %s, "seed": %s}' % (big, big),
                        headers={"content-type": "application/json", H: toks[0]})
        assert r.status_code == 400 and r.json() == {
            "error": "body: a number has too many digits"}, (url, r.text)


def test_the_form_refuses_a_huge_player_count_before_building_seats(client):
    t0 = time.monotonic()
    r = client.post("/new", data={"game": "toy", "num_players": "100000000"})
    assert r.status_code == 400 and "num_players: expected an integer from 2 to 3" in r.text
    assert time.monotonic() - t0 < 2
