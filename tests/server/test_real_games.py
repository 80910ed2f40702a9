"""Every real game through the server: played to the end over HTTP with the view checked
against the engine (the seat's own observation only; click paths of the legal moves)."""

from __future__ import annotations

import json
import random

import pytest

from citybuilders.core.registry import registered_games

H = "X-Seat-Token"
REAL = ["kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder"]


@pytest.mark.parametrize("name", REAL)
def test_real_game_plays_to_the_end_through_the_api(client, name):
    if name not in registered_games():
        pytest.skip("game not registered")
    from citybuilders.core.registry import game_class
    from citybuilders.server.manager import _jsonable

    cls = game_class(name)
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (
        1 if cls.min_players > 1 or name == "kingdom-builder" else 0)
    r = client.post("/api/games", json={"game": name, "seats": seats})
    assert r.status_code == 201, r.text
    gid, tok = r.json()["id"], r.json()["seats"][0]["token"]
    lg = client.app.state.manager.live[gid]
    rng = random.Random(1)
    moves = 0
    while True:
        v = client.get(f"/api/games/{gid}/view", headers={H: tok}).json()
        if v["terminal"]:
            break
        if not v["legal"]:
            continue  # a bot is thinking
        st = lg.state
        assert v["observation"] == json.loads(json.dumps(_jsonable(st.observation(0))))
        assert sorted(l["action"] for l in v["legal"]) == st.legal_actions(0)
        for l in v["legal"][:20]:
            assert l["path"] and all(isinstance(k, str) and " " not in k or len(l["path"]) == 1
                                     for k in l["path"])
        l = rng.choice(v["legal"])
        r = client.post(f"/api/games/{gid}/act", headers={H: tok},
                        json={"state_id": v["state_id"], "action": l["action"]})
        assert r.status_code == 200, r.text
        moves += 1
        assert moves < 3000
    assert v["result"] is not None and len(v["scores"]) == len(seats)
    rec = client.get(f"/api/games/{gid}/record").json()
    from citybuilders.core.records import replay

    assert replay(rec).scores()[0].total == v["scores"][0]["total"]
