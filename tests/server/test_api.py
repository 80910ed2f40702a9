"""HTTP API of the web server: creating, playing, bad input, undo, records, replays, bots."""

from __future__ import annotations

import json
import time

import pytest
from helpers import wait_view

H = "X-Seat-Token"


def create(client, game="toy", seats=None, **extra):
    body = {"game": game, "seats": seats or [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
    body.update(extra)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    d = r.json()
    return d["id"], [s.get("token") for s in d["seats"]]


def view(client, gid, tok):
    r = client.get(f"/api/games/{gid}/view", headers={H: tok})
    assert r.status_code == 200, r.text
    return r.json()


def act(client, gid, tok, **body):
    return client.post(f"/api/games/{gid}/act", headers={H: tok}, json=body)


def test_catalog_lists_games_options_and_bots(client):
    d = client.get("/api/games").json()
    toy = next(g for g in d["games"] if g["id"] == "toy")
    assert toy["min_players"] == 2 and toy["max_players"] == 3
    assert [o["name"] for o in toy["options"]] == ["turns", "bonus"]
    assert toy["options"][0]["minimum"] == 1 and toy["options"][0]["kind"] == "setup"
    assert {"random", "greedy"} <= set(d["bots"])


def test_home_page_has_a_form_per_game_built_from_option_specs(client):
    html = client.get("/").text
    assert 'data-game="toy"' in html and 'name="opt.turns"' in html
    assert 'type="checkbox" id="o-toy-bonus" name="opt.bonus"' in html
    assert "a friend, by invite link" in html and 'value="bot:greedy"' in html
    assert "cb_owner" in client.cookies


def test_play_vs_bot_to_the_end(client):
    gid, (tok, _) = create(client, seed=5)
    v = view(client, gid, tok)
    assert v["seat"] == 0 and v["game"] == "toy" and v["svg"].startswith("<svg")
    moves = 0
    while not v["terminal"]:
        if v["legal"]:
            assert all(l["path"] == [l["text"]] for l in v["legal"])  # default action_path
            r = act(client, gid, tok, state_id=v["state_id"], action=v["legal"][0]["action"])
            assert r.status_code == 200, r.text
            moves += 1
        v = wait_view(client, gid, tok, lambda w: w["terminal"] or w["legal"])
    assert moves == 3  # 6 turns alternate between seat 0 and the bot
    assert v["status"] == "finished" and v["result"]["winners"]
    assert [s["total"] for s in v["scores"]] == [s["parts"]["points"] for s in v["scores"]]
    rec = client.get(f"/api/games/{gid}/record").json()
    assert rec["complete"] is True and rec["game"] == "toy" and rec["seed"] == 5
    assert len(rec["actions"]) == v["move_number"]


def test_act_by_notation_and_by_click_path(client):
    gid, toks = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    v = view(client, gid, toks[0])
    me = v["active_players"][0]
    r = act(client, gid, toks[me], state_id=v["state_id"], move="  ROLL ")
    assert r.status_code == 200, r.text
    assert [e["text"] for e in r.json()["log"][-2:]][0] == "roll"
    v = view(client, gid, toks[1 - me])
    r = act(client, gid, toks[1 - me], state_id=v["state_id"], path=["build"])
    assert r.status_code == 200, r.text
    assert r.json()["log"][-2]["text"] == "build" and r.json()["log"][-2]["actor"] == 1 - me


def test_form_create_redirects_to_play_page_and_lists_my_games(client):
    client.get("/")
    r = client.post("/new", data={"game": "toy", "num_players": "3", "seat0": "human",
                                  "seat1": "invite", "seat2": "bot:greedy", "opt.turns": "4",
                                  "opt.bonus": "1"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    url = r.headers["location"]
    assert url.startswith("/play/") and "?t=" in url
    page = client.get(url)
    assert page.status_code == 200 and "Invite links" in page.text
    gid = url.split("/")[2].split("?")[0]
    lg = client.app.state.manager.live[gid]
    assert lg.game.options == {"turns": 4, "bonus": True}
    assert [s.kind for s in lg.row.seats] == ["human", "invite", "bot"]
    home = client.get("/").text
    assert gid in home and "resume" in home


def test_form_with_bad_option_shows_a_clear_error_page(client):
    r = client.post("/new", data={"game": "toy", "num_players": "2", "opt.turns": "99"})
    assert r.status_code == 400
    assert "option &#39;turns&#39; of toy: bad value 99" in r.text
    assert "Traceback" not in r.text


# ---------------------------------------------------------------------------- bad input
def snapshot(client, gid):
    lg = client.app.state.manager.live[gid]
    return (lg.version, list(lg.state.history()), client.app.state.store.load_game(gid).actions)


@pytest.mark.parametrize(
    "body, status, message",
    [
        (b"{not json", 400, "malformed JSON"),
        (b"", 400, "empty body"),
        (b"[1, 2]", 400, "expected a JSON object"),
        (json.dumps({"game": "chess"}).encode(), 400, "unknown game 'chess'; registered games:"),
        (json.dumps({"game": "toy", "options": {"speed": 3}}).encode(), 400,
         "unknown option 'speed' for toy; allowed: bonus, turns"),
        (json.dumps({"game": "toy", "options": {"turns": 0}}).encode(), 400,
         "option 'turns' of toy: bad value 0; allowed: an integer from 1 to 50"),
        (json.dumps({"game": "toy", "num_players": 7}).encode(), 400, "num_players"),
        (json.dumps({"game": "toy", "seats": [{"kind": "robot"}, {}]}).encode(), 400,
         "seats[0].kind: bad value 'robot'; allowed: human, invite, bot"),
        (json.dumps({"game": "toy", "seats": [{}, {"kind": "bot", "bot": "hal"}]}).encode(), 400,
         "seats[1].bot: unknown bot 'hal'"),
        (json.dumps({"game": "toy", "colour": "red"}).encode(), 400, "unknown field 'colour'"),
    ],
)
def test_bad_create_requests(client, body, status, message):
    r = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == status
    assert message in r.json()["error"]
    assert "\n" not in r.json()["error"]


@pytest.mark.parametrize(
    "body, headers, status, message",
    [
        (b"{oops", "own", 400, "malformed JSON"),
        (json.dumps({"state_id": "abc", "action": 0}).encode(), "own", 400,
         "state_id: expected the integer state id"),
        (json.dumps({"state_id": "STATE", "action": 77}).encode(), "own", 400,
         "action: expected an action id from 0 to 10, got 77"),
        (json.dumps({"state_id": "STATE", "action": 5}).encode(), "own", 400,
         "illegal move: 'die 1' is not a legal action now"),
        (json.dumps({"state_id": "STATE", "action": "build"}).encode(), "own", 400,
         "action: expected an integer"),
        (json.dumps({"state_id": "STATE", "move": "fly"}).encode(), "own", 400,
         "illegal move: 'fly' is not a legal move; legal: build, roll"),
        (json.dumps({"state_id": "STATE", "path": ["nowhere"]}).encode(), "own", 400,
         "matches 0 legal moves"),
        (json.dumps({"state_id": "STATE"}).encode(), "own", 400, "give one of 'action'"),
        (json.dumps({"state_id": "STATE", "action": 0}).encode(), "other", 400,
         "not seat 1's turn"),
        (json.dumps({"state_id": "STATE", "action": 0}).encode(), "missing", 401,
         "missing seat token"),
        (json.dumps({"state_id": "STATE", "action": 0}).encode(), "wrong", 403,
         "does not hold a seat of this game"),
        (json.dumps({"state_id": "STATE", "action": 0}).encode(), "foreign", 403,
         "does not hold a seat"),
        (json.dumps({"state_id": "OLD", "action": 0}).encode(), "own", 409, "stale"),
    ],
)
def test_bad_moves_leave_the_game_untouched(client, body, headers, status, message):
    gid, toks = create(client, seats=[{"kind": "human"}, {"kind": "human"}], seed=4)
    _, (foreign, _) = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    me = view(client, gid, toks[0])["active_players"][0]
    tok = {"own": toks[me], "other": toks[1 - me], "missing": None, "wrong": "x" * 24,
           "foreign": foreign}[headers]
    before = snapshot(client, gid)
    sid = before[0]
    body = body.replace(b'"STATE"', str(sid).encode()).replace(b'"OLD"', str(sid - 1).encode())
    hdr = {"Content-Type": "application/json"}
    if tok:
        hdr[H] = tok
    r = client.post(f"/api/games/{gid}/act", content=body, headers=hdr)
    assert r.status_code == status, r.text
    assert message in r.json()["error"]
    assert snapshot(client, gid) == before


def test_double_click_and_two_tabs_are_refused_as_stale(client):
    gid, toks = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    v = view(client, gid, toks[0])
    me = v["active_players"][0]
    tok = toks[me]
    assert act(client, gid, tok, state_id=v["state_id"], action=1).status_code == 200
    after = snapshot(client, gid)
    r = act(client, gid, tok, state_id=v["state_id"], action=1)  # the second click
    assert r.status_code == 409 and "stale" in r.json()["error"]
    assert snapshot(client, gid) == after


def test_unknown_game_id_and_bad_query_parameters(client):
    assert client.get("/api/games/0123abcd/view", headers={H: "x"}).status_code == 404
    assert client.get("/api/games/../etc/view", headers={H: "x"}).status_code == 404
    r = client.get("/play/ffffffff?t=abc")
    assert r.status_code == 404 and "not found" in r.text
    gid, (tok, _) = create(client)
    r = client.get(f"/api/games/{gid}/replay?step=abc", headers={H: tok})
    assert r.status_code == 400 and r.json()["error"] == "step: expected an integer, got 'abc'"
    r = client.get(f"/api/games/{gid}/replay?step=999", headers={H: tok})
    assert r.status_code == 400 and "step: expected 0 to" in r.json()["error"]
    assert client.get(f"/play/{gid}").status_code == 401
    assert client.get(f"/play/{gid}?t=nope").status_code == 403


def test_finished_game_refuses_moves(client):
    gid, toks = create(client, seats=[{"kind": "human"}, {"kind": "human"}],
                       options={"turns": 1})
    v = view(client, gid, toks[0])
    me = v["active_players"][0]
    assert act(client, gid, toks[me], state_id=v["state_id"], action=1).status_code == 200
    v = view(client, gid, toks[me])
    assert v["terminal"] and v["legal"] == []
    r = act(client, gid, toks[me], state_id=v["state_id"], action=1)
    assert r.status_code == 409 and r.json()["error"] == "the game is over"


# ---------------------------------------------------------------------------- simultaneous + undo
def test_simultaneous_round_advances_when_everyone_is_done(client):
    gid, toks = create(client, game="simul",
                       seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])
    v0 = wait_view(client, gid, toks[0], lambda v: 2 not in v["active_players"])
    die = v0["observation"]["die"]
    assert v0["active_players"] == [0, 1] and die in range(1, 7)
    v1 = view(client, gid, toks[1])
    assert [l["text"] for l in v1["legal"]] == ["write 0", "write 1", "write 2"]
    r = act(client, gid, toks[0], state_id=v0["state_id"], action=2)
    assert r.status_code == 200
    v = r.json()
    assert v["active_players"] == [1] and v["legal"] == [] and v["undoable"] == 1
    assert v["observation"]["sheets"][0] == [0, 0, die]
    # seat 0 takes it back and writes elsewhere, seat 1 then acts; the round advances
    r = client.post(f"/api/games/{gid}/undo", headers={H: toks[0]}, json={"state_id": v["state_id"]})
    assert r.status_code == 200 and r.json()["observation"]["sheets"][0] == [0, 0, 0]
    v = r.json()
    v = act(client, gid, toks[0], state_id=v["state_id"], action=0).json()
    v1 = view(client, gid, toks[1])
    r = act(client, gid, toks[1], state_id=v1["state_id"], action=1)
    assert r.status_code == 200
    v = r.json()
    assert v["observation"]["round"] == 1 and v["active_players"][:2] == [0, 1]
    assert v["observation"]["sheets"][:2] == [[die, 0, 0], [0, die, 0]]
    assert v["log"][-1]["who"] == "chance" and v["log"][-1]["text"].startswith("roll ")
    # undo never crosses the roll or the other player's move
    v = wait_view(client, gid, toks[0], lambda w: 2 not in w["active_players"])
    r = client.post(f"/api/games/{gid}/undo", headers={H: toks[0]}, json={"state_id": v["state_id"]})
    assert r.status_code == 400 and r.json()["error"].startswith("undo: nothing to undo")
    r = client.post(f"/api/games/{gid}/undo", headers={H: toks[0]}, json={"state_id": 0})
    assert r.status_code == 409


# ---------------------------------------------------------------------------- bots
def test_a_slow_bot_does_not_block_other_games(client):
    gid_slow, (tok_slow, _) = create(client, game="simul",
                                     seats=[{"kind": "human"}, {"kind": "bot", "bot": "slow"}])
    gid, toks = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    time.sleep(0.1)  # the slow bot is now thinking
    lg = client.app.state.manager.live[gid_slow]
    assert lg.driver is not None and not lg.driver.done()
    t0 = time.perf_counter()
    for _ in range(4):
        v = view(client, gid, toks[0])
        me = v["active_players"][0]
        v = view(client, gid, toks[me])
        assert act(client, gid, toks[me], state_id=v["state_id"], action=1).status_code == 200
    elapsed = time.perf_counter() - t0
    assert elapsed < 1.0, elapsed  # the slow bot sleeps 1.5 s
    v = wait_view(client, gid_slow, tok_slow, lambda w: 1 not in w["active_players"], 5)
    assert 1 not in v["active_players"]


# ---------------------------------------------------------------------------- records, replays
def test_record_export_import_and_replay(client):
    gid, (tok, _) = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    # wait for our turn: the bot may still be moving (the state must not change under us)
    v = wait_view(client, gid, tok, lambda w: w["terminal"] or w["legal"])
    # running game: hidden outcomes of the other seat are null, nothing public is omitted
    rec = client.get(f"/api/games/{gid}/record", headers={H: tok}).json()
    assert rec["complete"] is False and len(rec["actions"]) == v["move_number"]
    lg = client.app.state.manager.live[gid]
    for (actor, action), entry in zip(lg.state.history(), rec["actions"]):
        assert entry == (None if actor == -11 else action)  # -11: a draw only seat 1 sees
    assert client.get(f"/api/games/{gid}/record").status_code == 401
    # import the running export: replay stops before the first hidden draw
    r = client.post("/api/records", json=rec)
    assert r.status_code == 201 and "replay stops before it" in r.json()["note"]
    while not v["terminal"]:
        if v["legal"]:
            act(client, gid, tok, state_id=v["state_id"], action=v["legal"][0]["action"])
        v = wait_view(client, gid, tok, lambda w: w["terminal"] or w["legal"])
    full = client.get(f"/api/games/{gid}/record").json()
    assert full["complete"] is True and None not in full["actions"]
    r = client.post("/api/records", json=full)
    assert r.status_code == 201 and r.json()["steps"] == len(full["actions"])
    rid = r.json()["id"]
    steps = []
    for step in (0, 1, len(full["actions"])):
        rv = client.get(f"/api/games/{rid}/replay?step={step}&seat=1").json()
        assert rv["step"] == step and len(rv["log"]) == step and rv["legal"] == []
        steps.append(rv)
    assert steps[-1]["terminal"] and steps[-1]["scores"] == v["scores"]
    assert client.get(f"/replay/{rid}").status_code == 200
    r = act(client, rid, "x", state_id=0, action=0)
    assert r.status_code == 403


@pytest.mark.parametrize(
    "record, message",
    [
        ({"game": "toy", "num_players": 2, "seed": 1}, "record: missing key 'actions'"),
        ({"game": "toy", "num_players": 2, "seed": 1, "actions": [0]}, "record: move 1:"),
        ({"game": "toy", "num_players": 2, "seed": 1, "actions": [], "rules_version": "9"},
         "rules version 9"),
        ({"game": "nope", "num_players": 2, "seed": 1, "actions": []}, "unknown game"),
        ([1], "record: expected a JSON object"),
    ],
)
def test_bad_records_are_refused(client, record, message):
    r = client.post("/api/records", json=record)
    assert r.status_code == 400 and message in r.json()["error"]


def test_import_form_redirects_to_replay_page(client):
    rec = {"game": "toy", "num_players": 2, "seed": 3, "options": {}, "actions": [2, 3, 0, 4]}
    r = client.post("/import", files={"file": ("r.json", json.dumps(rec), "application/json")},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/replay/")
    page = client.get(r.headers["location"])
    assert page.status_code == 200 and "first" in page.text
    r = client.post("/import", files={"file": ("r.json", "{bad", "application/json")})
    assert r.status_code == 400 and "malformed JSON" in r.text


def test_running_game_replay_needs_a_token_and_shows_only_that_seat(client):
    gid, (tok, _) = create(client, game="secrets",
                           seats=[{"kind": "human"}, {"kind": "bot"}])
    assert client.get(f"/api/games/{gid}/replay?step=0&seat=1").status_code == 401
    assert client.get(f"/replay/{gid}").status_code == 401
    rv = client.get(f"/api/games/{gid}/replay?step=1", headers={H: tok}).json()
    assert rv["seat"] == 0 and rv["step"] == 1


def test_schema_is_versioned_by_alembic(tmp_path):
    import sqlalchemy as sa

    from citybuilders.server.store import Store

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    Store(url).close()
    s = Store(url)  # upgrading an up-to-date database is a no-op
    with s.engine.connect() as c:
        assert c.execute(sa.text("select version_num from alembic_version")).scalar() == "0002_online"
        assert c.execute(sa.text("pragma journal_mode")).scalar() == "wal"
        names = {r[0] for r in c.execute(sa.text("select name from sqlite_master"))}
    assert {"games", "seats", "actions"} <= names
    s.close()


def test_games_survive_a_new_app_on_the_same_database(db_url):
    from fastapi.testclient import TestClient

    from citybuilders.server import create_app

    url = db_url
    with TestClient(create_app(url)) as c:
        gid, toks = create(c, seats=[{"kind": "human"}, {"kind": "human"}], seed=9)
        for _ in range(3):
            v = view(c, gid, toks[0])
            me = v["active_players"][0]
            act(c, gid, toks[me], state_id=v["state_id"], action=0)
        before = view(c, gid, toks[0])
    with TestClient(create_app(url)) as c:
        after = view(c, gid, toks[0])
    assert after == before


def test_import_form_without_a_file_asks_for_one(client):
    r = client.post("/import", files={"file": ("", b"", "application/octet-stream")})
    assert r.status_code == 400
    assert 'Choose a record file (JSON, from "Export record") to import.' in r.text.replace("&#34;", '"').replace("&quot;", '"')
    assert "malformed" not in r.text
    r = client.post("/import", data={"other": "x"})
    assert r.status_code == 400 and "Choose a record file" in r.text


def test_play_page_carries_the_first_view_and_the_websocket_skips_it(client):
    import re

    gid, (tok, _) = create(client, seats=[{"kind": "human"}, {"kind": "human", "name": "<b>Bo"}])
    page = client.get(f"/play/{gid}?t={tok}")
    assert page.status_code == 200
    block = re.search(r'<script type="application/json" id="page-data">(.*?)</script>',
                      page.text, re.S).group(1)
    assert "<b>" not in block  # escaped inside the data block
    data = json.loads(block)
    view = client.get(f"/api/games/{gid}/view", headers={H: tok}).json()
    assert data["view"]["seat"] == 0 and data["view"]["state_id"] == view["state_id"]
    assert data["view"]["svg"] == view["svg"] and data["view"]["legal"] == view["legal"]
    # the page holds that state: no view is pushed on connect; a stale or missing one is
    with client.websocket_connect(f"/ws/games/{gid}?token={tok}&have={view['state_id'] - 1}") as ws:
        assert ws.receive_json()["type"] == "view"
    with client.websocket_connect(f"/ws/games/{gid}?token={tok}&have={view['state_id']}") as ws:
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"
