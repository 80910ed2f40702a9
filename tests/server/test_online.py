"""Online play: invite claims, re-issued links, spectator links without hidden information,
presence over websockets, rematches, seat names in records (issue 12, item 5)."""

from __future__ import annotations

import json
import re
import time

from helpers import CARDS

H = "X-Seat-Token"


def _new(client, game="toy", seats=None, **extra):
    body = {"game": game, "seats": seats or [{"kind": "human", "name": "Ana"},
                                             {"kind": "invite", "name": "Bea"}]}
    body.update(extra)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    d = r.json()
    return d["id"], [s.get("token") for s in d["seats"]]


class _Browser:
    """Another browser on the same test client: its own owner cookie, no redirects
    followed (one app, one event loop: a second TestClient would restart the app)."""

    def __init__(self, client, owner):
        self.client, self.owner = client, owner

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def _call(self, method, url, **kw):
        self.client.cookies.clear()
        headers = dict(kw.pop("headers", {}), Cookie=f"cb_owner={self.owner}")
        return self.client.request(method, url, headers=headers, follow_redirects=False, **kw)

    def get(self, url, **kw):
        return self._call("GET", url, **kw)

    def post(self, url, **kw):
        return self._call("POST", url, **kw)


_N = [0]


def _browser(client) -> _Browser:
    _N[0] += 1
    return _Browser(client, f"browser{_N[0]}")


def _open(browser, gid, tok):
    """Open a play link; follow its one redirect; (final token, page html)."""
    r = browser.get(f"/play/{gid}?t={tok}")
    if r.status_code == 303:
        loc = r.headers["location"]
        tok = re.search(r"t=([^&]+)", loc).group(1)
        r = browser.get(loc)
    assert r.status_code == 200, r.text
    return tok, r.text


def _online(html):
    return json.loads(re.search(r'id="online-data">(.*?)</script>', html).group(1))


def test_an_invite_link_is_claimed_by_the_first_browser_only(app, client):
    gid, (host, invite) = _new(client)
    with _browser(client) as bea, _browser(client) as eve:
        tok, html = _open(bea, gid, invite)
        assert tok != invite  # Bea's browser got a secret of its own
        info = _online(html)
        assert info["tokens"] == {"1": tok} and not info["spectator"] and not info["host"]
        assert client.get(f"/api/games/{gid}/view", headers={H: tok}).json()["seat"] == 1
        # the link itself no longer holds the seat: no move, no seat view through the API
        assert client.get(f"/api/games/{gid}/view", headers={H: invite}).status_code == 403
        # a third browser opening the same link gets the spectator view
        spec, html = _open(eve, gid, invite)
        info = _online(html)
        assert info["spectator"] and list(info["tokens"]) == ["-1"]
        assert 'id="spectator-note"' in html
        v = eve.get(f"/api/games/{gid}/view", headers={H: spec}).json()
        assert v["seat"] == -1 and v["spectator"] is True and v["legal"] == []
        r = eve.post(f"/api/games/{gid}/act", headers={H: spec}, json={"state_id": 0,
                                                                       "action": 0})
        assert r.status_code == 403 and "spectator link" in r.json()["error"]
        # the claiming browser opening the link again gets its seat back
        again, _ = _open(bea, gid, invite)
        assert again == tok


def test_reissue_revokes_the_old_link_and_the_claimed_browser(app, client):
    gid, (host, invite) = _new(client)
    with _browser(client) as bea, _browser(client) as cal:
        tok, _ = _open(bea, gid, invite)
        # only the host may re-issue
        r = bea.post(f"/api/games/{gid}/seats/1/reissue", headers={H: tok})
        assert r.status_code == 403
        r = client.post(f"/api/games/{gid}/seats/0/reissue", headers={H: host})
        assert r.status_code == 400 and "not an invite seat" in r.json()["error"]
        r = client.post(f"/api/games/{gid}/seats/1/reissue", headers={H: host})
        assert r.status_code == 200
        url = r.json()["url"]
        assert url.startswith("http://testserver/play/")  # the host's own address
        new = re.search(r"t=([^&]+)", url).group(1)
        assert bea.get(f"/api/games/{gid}/view", headers={H: tok}).status_code == 403
        assert bea.get(f"/play/{gid}?t={invite}").status_code == 403
        tok2, html = _open(cal, gid, new)
        assert _online(html)["tokens"] == {"1": tok2}


def test_spectator_view_has_no_hidden_information(app, client):
    gid, toks = _new(client, game="secrets",
                     seats=[{"kind": "human"}, {"kind": "invite"}])
    host = toks[0]
    # play a few turns, so hands and private draws exist
    plays = 0
    while plays < 3:  # 3 of the 6 plays: the game goes on, seat 1 holds a card
        for t in toks:
            v = client.get(f"/api/games/{gid}/view", headers={H: t}).json()
            if v["legal"] and plays < 3:
                plays += 1
                client.post(f"/api/games/{gid}/act", headers={H: t},
                            json={"state_id": v["state_id"], "action": v["legal"][0]["action"]})
    url = client.get(f"/api/games/{gid}/spectator", headers={H: host}).json()["url"]
    spec = re.search(r"t=([^&]+)", url).group(1)
    mine = [client.get(f"/api/games/{gid}/view", headers={H: t}).json() for t in toks]
    held = [c for v in mine for c in v["observation"]["hand"]]
    assert held  # the player to move holds a card...
    raw = client.get(f"/api/games/{gid}/view", headers={H: spec}).text
    seen = json.loads(raw)
    played = {c for p in mine[0]["observation"]["played"] for c in p}
    hidden = [c for c in CARDS if c not in played and c in raw]
    assert hidden == []  # ...that the spectator never sees, in any field
    assert all(e["text"] == "(hidden)" for e in seen["log"] if e["who"].startswith("draw"))
    rec = client.get(f"/api/games/{gid}/record", headers={H: spec}).json()
    assert rec["complete"] is False and None in rec["actions"]
    assert not any(c in json.dumps(rec) for c in CARDS if c not in played)
    # the spectator link is refused moves and undo
    assert client.post(f"/api/games/{gid}/undo", headers={H: spec},
                       json={"state_id": seen["state_id"]}).status_code == 403


def test_presence_follows_websockets(app, client):
    gid, (host, invite) = _new(client)
    assert client.get(f"/api/games/{gid}/presence", headers={H: host}).json() == {
        "online": [False, False]}
    with client.websocket_connect(f"/ws/games/{gid}?presence=1&token={host}") as ws:
        assert ws.receive_json() == {"type": "presence", "online": [True, False]}
        with client.websocket_connect(f"/ws/games/{gid}?token={invite}") as ws2:
            assert ws2.receive_json()["type"] == "view"
            assert ws.receive_json() == {"type": "presence", "online": [True, True]}
        assert ws.receive_json() == {"type": "presence", "online": [True, False]}


def test_rematch_same_players_new_game_own_links(app, client):
    gid, (host, invite) = _new(client, seats=[{"kind": "human", "name": "Ana"},
                                             {"kind": "invite", "name": "Bea"}],
                               options={"turns": 1})
    with _browser(client) as bea:
        tok, _ = _open(bea, gid, invite)
        r = client.post(f"/api/games/{gid}/rematch", headers={H: host})
        assert r.status_code == 409  # not over yet
        for _ in range(20):
            for t in (host, tok):
                v = client.get(f"/api/games/{gid}/view", headers={H: t}).json()
                if v["legal"]:
                    client.post(f"/api/games/{gid}/act", headers={H: t},
                                json={"state_id": v["state_id"],
                                      "action": v["legal"][0]["action"]})
        assert v["terminal"]
        a = client.post(f"/api/games/{gid}/rematch", headers={H: host}).json()
        b = bea.post(f"/api/games/{gid}/rematch", headers={H: tok}).json()
        assert a["id"] == b["id"] != gid  # one rematch, whoever asks
        ta = re.search(r"t=([^&]+)", a["play_url"]).group(1)
        tb = re.search(r"t=([^&]+)", b["play_url"]).group(1)
        va = client.get(f"/api/games/{a['id']}/view", headers={H: ta}).json()
        vb = bea.get(f"/api/games/{a['id']}/view", headers={H: tb}).json()
        assert (va["seat"], vb["seat"]) == (0, 1)
        assert [s["name"] for s in va["seats"]] == ["Ana", "Bea"]
        assert va["options"] == v["options"]
        # Bea's browser keeps its seat in the rematch (no new claim needed)
        same, _ = _open(bea, a["id"], tb)
        assert same == tb


def test_names_in_records_and_imports(app, client):
    gid, (host, _) = _new(client, seats=[{"kind": "human", "name": "  Ana   Maria "},
                                        {"kind": "bot", "bot": "random"}], options={"turns": 1})
    deadline = time.monotonic() + 60  # the bot moves in the background (slower on PostgreSQL)
    while time.monotonic() < deadline:
        v = client.get(f"/api/games/{gid}/view", headers={H: host}).json()
        if v["terminal"]:
            break
        if v["legal"]:
            client.post(f"/api/games/{gid}/act", headers={H: host},
                        json={"state_id": v["state_id"], "action": v["legal"][0]["action"]})
        else:
            time.sleep(0.02)
    assert v["terminal"], "the game did not end (its record is only public at the end)"
    assert [s["name"] for s in v["seats"]] == ["Ana Maria", "Random (bot)"]
    assert any("Ana Maria" in e["who"] for e in v["log"]), v["log"]  # the log names the seat
    rec = client.get(f"/api/games/{gid}/record").json()
    assert rec["players"] == ["Ana Maria", "Random (bot)"]
    imp = client.post("/api/records", json=rec).json()
    rv = client.get(f"/api/games/{imp['id']}/replay?step=0").json()
    assert [s["name"] for s in rv["seats"]] == ["Ana Maria", "Random (bot)"]
    bad = dict(rec, players=["only one"])
    r = client.post("/api/records", json=bad)
    assert r.status_code == 400 and "'players' must be a list of 2 seat names" in r.json()["error"]
    old = {k: v for k, v in rec.items() if k != "players"}  # records before names: still fine
    imp = client.post("/api/records", json=old).json()
    rv = client.get(f"/api/games/{imp['id']}/replay?step=0").json()
    assert [s["name"] for s in rv["seats"]] == ["Player 1", "Player 2"]


def test_rename_a_seat(app, client):
    gid, (host, invite) = _new(client)
    r = client.post(f"/api/games/{gid}/name", headers={H: invite}, json={"name": "Bia"})
    assert r.json() == {"seat": 1, "name": "Bia"}
    v = client.get(f"/api/games/{gid}/view", headers={H: host}).json()
    assert v["seats"][1]["name"] == "Bia"
    r = client.post(f"/api/games/{gid}/name", headers={H: invite}, json={"name": " "})
    assert r.status_code == 400 and r.json()["error"].startswith("name: ")


def test_home_form_names_and_invite_links_use_the_host_address(app, client):
    r = client.post("/new", data={"game": "toy", "num_players": "2", "seat0": "human",
                                  "name0": "Ana", "seat1": "invite", "name1": "Bea"},
                    headers={"Host": "192.168.1.20:8000"}, follow_redirects=False)
    assert r.status_code == 303
    html = client.get(r.headers["location"], headers={"Host": "192.168.1.20:8000"}).text
    info = _online(html)
    assert [s["name"] for s in info["seats"]] == ["Ana", "Bea"]
    assert info["invites"][0]["url"].startswith("http://192.168.1.20:8000/play/")
    assert info["spectator_url"].startswith("http://192.168.1.20:8000/play/")
    assert "127.0.0.1" not in html
    r = client.post("/new", data={"game": "toy", "num_players": "2", "name0": "x" * 41})
    assert r.status_code == 400 and "name0: expected a name of 1 to 40 characters" in r.text


def test_lobby_cards_pictures_and_option_groups(client):
    html = client.get("/").text
    for g in ("kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder"):
        assert f'id="card-{g}"' in html and f'src="/thumb/{g}.svg?lang=en"' in html
        r = client.get(f"/thumb/{g}.svg")
        assert r.status_code == 200 and r.text.startswith("<svg")
    assert client.get("/thumb/chess.svg").status_code == 404
    kb = html[html.index('id="card-kingdom-builder"'):html.index('id="card-roll-builder"')]
    assert "Play vs bot" in kb and "Rule variants" in kb and "Terrain card with no free hex" in kb
    assert "rare_exception" not in kb.split("More about this choice")[0]
    assert 'data-expansion="crossroads"' in kb
    spr = html[html.index('id="card-sprawlopolis"'):]
    assert "Play solo" in spr and "Add a bot" in spr


def test_kingdom_builder_spectator_never_sees_a_hidden_terrain_card(app, client):
    gid, (a, b) = _new(client, game="kingdom-builder",
                       seats=[{"kind": "human"}, {"kind": "human"}], seed=3)
    url = client.get(f"/api/games/{gid}/spectator", headers={H: a}).json()["url"]
    spec = re.search(r"t=([^&]+)", url).group(1)
    for _ in range(40):  # finish the first player's turn: a new card is drawn in secret
        v = client.get(f"/api/games/{gid}/view", headers={H: a}).json()
        if not v["legal"]:
            break
        client.post(f"/api/games/{gid}/act", headers={H: a},
                    json={"state_id": v["state_id"], "action": v["legal"][-1]["action"]})
    mover = v["current_player"]
    other = 1 - mover
    own = client.get(f"/api/games/{gid}/view", headers={H: (a, b)[other]}).json()
    seen = client.get(f"/api/games/{gid}/view", headers={H: spec}).json()
    assert own["observation"]["players"][other]["card"] is not None  # the owner sees it
    assert seen["observation"]["players"][other]["card"] is None  # the spectator does not
    assert seen["observation"]["players"][mover]["card"] is not None  # played face up
    draws = [e for e in seen["log"] if e["who"].startswith("draw")]
    assert draws and all(e["text"] == "(hidden)" for e in draws)


def test_migration_0002_keeps_games_of_a_0001_database(tmp_path):
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from citybuilders.server.store import MIGRATIONS, Store

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = sa.create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.execute(sa.text(
            "insert into games values ('ab', 'toy', '1', '{}', 2, 7, 'running', 0, 'me', "
            "null, 0, 0)"))
        conn.execute(sa.text("insert into seats values ('ab', 0, 'invite', null, 'Bea', "
                             "'tok', null)"))
    engine.dispose()
    store = Store(url)  # upgrades to head
    row = store.load_game("ab")
    assert row.seats[0].invite_token is None and row.spectator_token is None
    assert row.rematch_id is None and row.seats[0].token == "tok"
    store.set_seat("ab", 0, invite_token="tok", token="new", claimed_by="b")
    store.set_game_links("ab", spectator_token="s1", rematch_id="cd")
    row = store.load_game("ab")
    assert (row.seats[0].invite_token, row.seats[0].token, row.spectator_token,
            row.rematch_id) == ("tok", "new", "s1", "cd")
    store.close()
    with sa.create_engine(url).begin() as conn:  # and back down to 0001
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0001")
        cols = {r[1] for r in conn.execute(sa.text("pragma table_info(seats)"))}
    assert "invite_token" not in cols


def test_seats_with_the_same_name_are_numbered(client):
    """Two bots of one level (or two people who typed the same name) are told apart on every
    page: numbered in seat order; a panel keyed by name keeps every player (it kept one)."""
    r = client.post("/api/games", json={"game": "sprawlopolis", "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "normal"}, {"kind": "bot", "bot": "normal"}]})
    assert r.status_code == 201, r.text
    gid, tok = r.json()["id"], r.json()["seats"][0]["token"]
    v = client.get(f"/api/games/{gid}/view", headers={H: tok}).json()
    assert [s["name"] for s in v["seats"]] == ["Player 1", "Normal (bot) 1", "Normal (bot) 2"]
    hands = next(p["value"] for p in v["display"] if p["title"] == "Cards in hand")
    assert len(hands) == 3, hands
    zh = client.get(f"/api/games/{gid}/view?lang=zh-Hant", headers={H: tok}).json()
    names = [s["name"] for s in zh["seats"]]
    assert len(set(names)) == 3 and names[1].endswith(" 1") and names[2].endswith(" 2"), names
    r = client.post("/api/games", json={"game": "toy", "num_players": 2, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ann"}]})
    gid, tok = r.json()["id"], r.json()["seats"][0]["token"]
    v = client.get(f"/api/games/{gid}/view", headers={H: tok}).json()
    assert [s["name"] for s in v["seats"]] == ["Ann 1", "Ann 2"]
