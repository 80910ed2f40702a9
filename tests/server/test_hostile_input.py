"""Findings of the second break-it trial on the server (reports/breakit.md), each fixed:
control characters in names (PostgreSQL refused NUL with a 503, SQLite kept it), echoes of
whole client inputs, bad input that was accepted, a presence socket that got views, the
create rate counting refused requests, a page answered with JSON. The PostgreSQL runs use the
session's throw-away cluster (``db_url``, marked ``postgres``)."""

from __future__ import annotations

import json
import socket
import time
from importlib import resources

import httpx
import pytest
from fastapi.testclient import TestClient
from realserver import long_server  # noqa: F401 - a fixture

from citybuilders.core.errors import FormatError
from citybuilders.server.app import create_app
from citybuilders.server.store import SeatRow, Store

H = "X-Seat-Token"


def _game(client, **extra):
    body = {"game": "toy", "seats": [{"kind": "human"}, {"kind": "human"}], **extra}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    d = r.json()
    return d["id"], [s.get("token") for s in d["seats"]]


def _page_error(r) -> str:
    """The message of the HTML error page."""
    assert r.headers["content-type"].startswith("text/html"), r.text[:200]
    return r.text


# ---------------------------------------------------------------- names (both databases)
NUL_NAME = "a\u0000b"


@pytest.mark.parametrize("name, message", [
    (NUL_NAME, "seats[0].name: control character U+0000; a name is one line of text"),
    ("a\tb", "seats[0].name: control character U+0009; a name is one line of text"),
    ("\u001b]0;pwned\u0007Ann", "seats[0].name: control character U+001B"),
    ("x" * 41, "seats[0].name: expected a name of 1 to 40 characters"),
    ("Ann\u202eeoJ", "seats[0].name: text direction control U+202E; a name is shown as it is "
     "typed"),  # would display as "AnnJoe"
    ("\u2067Bob", "seats[0].name: text direction control U+2067"),
])
def test_a_seat_name_with_control_characters_is_400_on_every_database(client, name, message):
    r = client.post("/api/games", json={"game": "toy", "num_players": 2,
                                        "seats": [{"kind": "human", "name": name},
                                                  {"kind": "human"}]})
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith(message)


@pytest.mark.parametrize("name, message", [
    ("x\u0000y", "name: control character U+0000; a name is one line of text"),
    ("x\ny", "name: control character U+000A; a name is one line of text"),
    ("  ", "name: expected a name of 1 to 40 characters"),
    ("x\u202dy", "name: text direction control U+202D"),
])
def test_a_new_name_with_control_characters_is_400(client, name, message):
    gid, toks = _game(client)
    r = client.post(f"/api/games/{gid}/name", json={"name": name}, headers={H: toks[0]})
    assert r.status_code == 400 and r.json()["error"].startswith(message), r.text
    view = client.get(f"/api/games/{gid}/view", headers={H: toks[0]}).json()
    assert view["seats"][0]["name"] == "Player 1"  # unchanged


def test_a_record_with_a_control_character_in_a_name_is_400(client):
    rec = {"game": "toy", "rules_version": "1", "num_players": 2, "seed": 1, "actions": [],
           "players": ["Ann", "b\u0000"]}
    for name, code in (("b\u0000", "U+0000"), ("b\rB", "U+000D"), ("b\tB", "U+0009")):
        r = client.post("/api/records", json=dict(rec, players=["Ann", name]))
        assert r.status_code == 400
        assert r.json()["error"] == (f"record: players[1]: control character {code}; a name is "
                                     "one line of text")


def test_the_lobby_form_refuses_a_control_character_in_a_name(client):
    r = client.post("/new", data={"game": "toy", "num_players": "2", "seat0": "human",
                                  "seat1": "human", "name0": NUL_NAME},
                    follow_redirects=False)
    assert r.status_code == 400
    assert "name0: control character U+0000; a name is one line of text" in _page_error(r)


def test_the_store_refuses_such_a_name_whatever_the_database(db_url):
    store = Store(db_url)
    try:
        header = {"game": "toy", "rules_version": "1", "options": {}, "num_players": 2,
                  "seed": 1}
        seats = [SeatRow(0, "human", None, NUL_NAME, "t0"), SeatRow(1, "human", None, "B", "t1")]
        with pytest.raises(FormatError, match=r"seats\[0\]\.name: control character U\+0000"):
            store.create_game("0123456789abcdef", header, seats, [], "running", None)
        seats[0].name = "A"
        store.create_game("0123456789abcdef", header, seats, [], "running", None)
        with pytest.raises(FormatError, match=r"seats\[1\]\.name: control character"):
            store.set_seat("0123456789abcdef", 1, name="x\u0000")
        assert [s.name for s in store.load_game("0123456789abcdef").seats] == ["A", "B"]
    finally:
        store.close()


@pytest.mark.parametrize("cookie", ["x" * 100, "a b\tc"])
def test_an_owner_cookie_the_server_never_gave_is_replaced(client, cookie):
    # found with the report's NUL names: stored in a 64-character column, a 100-character
    # cookie was a 503 on PostgreSQL and kept by SQLite
    client.cookies.set("cb_owner", cookie)
    r = client.post("/api/games", json={"game": "toy"})
    assert r.status_code == 201, r.text
    r = client.post("/new", data={"game": "toy"}, follow_redirects=False)
    assert r.status_code == 303, r.text[:300]
    fresh = r.cookies.get("cb_owner")
    assert fresh and fresh != cookie and len(fresh) == 22


# ---------------------------------------------------------------- echoes are cut
def test_errors_echo_at_most_a_short_piece_of_the_input(client):
    gid, toks = _game(client)
    views = [client.get(f"/api/games/{gid}/view", headers={H: t}).json() for t in toks]
    tok = next(t for t, v in zip(toks, views) if v["legal"])  # the seat to move
    sid = views[0]["state_id"]
    for body, start in [
        ({"move": "x" * 1_000_000}, "move: a move's notation has at most 60 characters, got "
                                    "1000000: 'xxx"),
        ({"move": "build " + "9" * 100_000}, "move: a move's notation has at most 60"),
        ({"path": ["x"] * 100_000}, "path: a move's click path has at most 16 keys, got 100000"),
        ({"path": ["y" * 100_000]}, "illegal move: path 'yyy"),
    ]:
        r = client.post(f"/api/games/{gid}/act", json={"state_id": sid, **body},
                        headers={H: tok})
        assert r.status_code == 400 and r.json()["error"].startswith(start), r.text[:300]
        assert len(r.content) < 300
    r = client.post("/api/games", json={"game": "x" * 100_000})
    assert r.status_code == 400 and len(r.content) < 300
    assert r.json()["error"].startswith("game: unknown game 'xxxxxxxx")
    r = client.post("/api/games", json={"game": "toy", "x" * 100_000: 1})
    assert r.status_code == 400 and len(r.content) < 300


def test_the_lobby_form_cuts_a_long_option_value(client):
    r = client.post("/new", data={"game": "toy", "opt.turns": "9" * 5000},
                    follow_redirects=False)
    assert r.status_code == 400
    page = _page_error(r)
    assert "option &#39;turns&#39;: expected an integer, got &#39;99999" in page
    assert "9" * 100 not in page


# ---------------------------------------------------------------- bad input refused
@pytest.mark.parametrize("body, message", [
    ({"num_players": 2, "seats": [{}, {}, {}, {}, {}]}, "seats: 2 players need 2 seats, got 5"),
    ({"num_players": 2, "seats": [{}, {}, {}]}, "seats: 2 players need 2 seats, got 3"),
    ({"seats": [{"kind": "human", "zz": 1}, {}]},
     "seats[0]: unknown key 'zz'; allowed: kind, bot, name"),
])
def test_bad_create_bodies_are_refused(client, body, message):
    r = client.post("/api/games", json={"game": "toy", **body})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == message


def test_an_expansion_given_twice_is_refused(client):
    r = client.post("/api/games", json={"game": "kingdom-builder",
                                        "options": {"expansions": ["crossroads", "crossroads"]}})
    assert r.status_code == 400
    assert r.json()["error"] == ("option 'expansions' of kingdom-builder: 'crossroads' is given "
                                 "twice; each element at most once")


def test_a_record_with_an_unknown_key_is_refused(client):
    rec = {"game": "toy", "rules_version": "1", "num_players": 2, "seed": 1, "actions": [],
           "zz": 1}
    r = client.post("/api/records", json=rec)
    assert r.status_code == 400
    assert r.json()["error"] == ("record: unknown key 'zz'; allowed: game, rules_version, "
                                 "options, num_players, seed, actions, players, complete")


def test_a_checkbox_option_takes_only_a_checkbox_value(client):
    r = client.post("/new", data={"game": "toy", "opt.bonus": "maybe"}, follow_redirects=False)
    assert r.status_code == 400
    assert "option &#39;bonus&#39;: expected true or false, got &#39;maybe&#39;" in _page_error(r)
    for value in ("on", "", "false"):
        r = client.post("/new", data={"game": "toy", "opt.bonus": value}, follow_redirects=False)
        assert r.status_code == 303, (value, r.text[:300])


def test_a_chosen_sheet_and_an_uploaded_sheet_are_not_both_taken(client):
    doc = json.loads(resources.files("citybuilders.games.roll_builder").joinpath(
        "data/goldplain.json").read_text(encoding="utf-8"))
    doc["id"] = "mine"
    files = {"opt.sheet_doc": ("mine.json", json.dumps(doc).encode(), "application/json")}
    r = client.post("/new", data={"game": "roll-builder", "opt.sheet": "highcrag"}, files=files,
                    follow_redirects=False)
    assert r.status_code == 400
    assert ("options.sheet: &#39;highcrag&#39; chosen and a sheet_doc document uploaded; give "
            "one of them") in _page_error(r)
    # the form's default sheet with an upload: the document is played
    r = client.post("/new", data={"game": "roll-builder", "opt.sheet": "rivermouth"},
                    files=files, follow_redirects=False)
    assert r.status_code == 303, r.text[:300]
    r = client.post("/api/games", json={"game": "roll-builder",
                                        "options": {"sheet": "highcrag", "sheet_doc": doc}})
    assert r.status_code == 400 and r.json()["error"].startswith("options.sheet: 'highcrag'")


@pytest.mark.parametrize("colors", ["-1,-2", "0,8", "x"])
def test_score_colours_out_of_range_are_400(client, colors):
    r = client.post(f"/api/score/sprawlopolis?colors={colors}&draw=1", json={})
    assert r.status_code == 400
    assert r.json() == {"error": "colors: expected colour numbers 0-7 separated by commas"}


def test_a_form_without_a_game_names_the_field(client):
    r = client.post("/new", data={"num_players": "2"}, follow_redirects=False)
    assert r.status_code == 400
    assert "game: unknown game &#39;&#39;; registered games:" in _page_error(r)


def test_an_import_page_over_the_body_limit_is_the_html_error_page(db_url):
    with TestClient(create_app(db_url, max_body=1000)) as c:
        r = c.post("/import", files={"file": ("r.json", b" " * 5000, "application/json")})
        assert r.status_code == 413
        assert "body: larger than 1000 bytes" in _page_error(r)
        r = c.post("/api/records", content=b" " * 5000,
                   headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json() == {"error": "body: larger than 1000 bytes"}


def test_refused_creates_do_not_count_against_the_create_rate(db_url):
    with TestClient(create_app(db_url, create_rate=2)) as c:
        for _ in range(4):  # a bad option value: 400, not counted
            r = c.post("/api/games", json={"game": "toy", "options": {"turns": 999}})
            assert r.status_code == 400, r.text
            r = c.post("/new", data={"game": "toy", "opt.turns": "999"}, follow_redirects=False)
            assert r.status_code == 400
        codes = [c.post("/api/games", json={"game": "toy"}).status_code for _ in range(3)]
        assert codes == [201, 201, 429]


def test_a_presence_socket_never_gets_a_view(client):
    gid, toks = _game(client)
    with client.websocket_connect(f"/ws/games/{gid}?presence=1&token={toks[0]}") as ws:
        assert ws.receive_json() == {"type": "presence", "online": [True, False]}
        ws.send_json({"type": "refresh"})
        assert ws.receive_json() == {"type": "presence", "online": [True, False]}
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


# ---------------------------------------------------------------- a client that leaves mid-body
def _cut_off(port: int, head: bytes, body: bytes) -> None:
    """Send ``head`` and part of a body, then close the connection."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(head + body)
        time.sleep(0.05)


def test_a_client_leaving_mid_body_leaves_no_traceback(long_server):
    base, port, proc = long_server
    r = httpx.post(base + "/api/games", json={"game": "toy"}, timeout=30)
    gid, tok = r.json()["id"], r.json()["seats"][0]["token"]
    for path, ctype in [("/api/games", "application/json"),
                        ("/api/score/kingdom-builder", "application/json"),
                        (f"/api/games/{gid}/act", "application/json"),
                        ("/api/records", "application/json"),
                        ("/new", "application/x-www-form-urlencoded")]:
        _cut_off(port, (f"POST {path} HTTP/1.1\r\nHost: x\r\nX-Seat-Token: {tok}\r\n"
                        f"Content-Type: {ctype}\r\nContent-Length: 1000\r\n\r\n").encode(),
                 b'{"game": ')
    _cut_off(port, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n", b"5\r\n{\"gam\r\nzz\r\n")
    time.sleep(0.5)
    assert httpx.get(base + "/api/health", timeout=30).status_code == 200
    proc.kill()
    proc.wait(10)
    log = proc.stderr.read().decode("utf-8", "replace")
    assert "Traceback" not in log and "ClientDisconnect" not in log, log[-3000:]


def test_right_to_left_names_are_kept(client):
    """Hebrew and Arabic letters carry their own direction: such names need no control."""
    for name in ("\u05d3\u05e0\u05d4", "\u0644\u064a\u0644\u0649 Ann"):
        r = client.post("/api/games", json={"game": "toy", "num_players": 2,
                                            "seats": [{"kind": "human", "name": name},
                                                      {"kind": "human"}]})
        assert r.status_code == 201, r.text
