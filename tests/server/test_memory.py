"""Memory bounds: finished and idle games leave memory (``MemoryLimits``) and are replayed from
the database by any request for them (page, view, replay, record, act, websocket)."""

from __future__ import annotations

import json
import time

from procs import H, Server


def _wait_stats(srv: Server, pred, timeout: float = 180.0) -> dict:
    deadline = time.time() + timeout
    while True:
        st = srv.stats()["memory"]
        if pred(st) or time.time() > deadline:
            return st
        time.sleep(0.2)


def test_300_finished_bot_games_leave_memory_and_reload_on_demand(db_url):
    srv = Server(db_url,
                 env={"CITYBUILDERS_FINISHED_SECONDS": "0.5",
                      "CITYBUILDERS_IDLE_SECONDS": "900"}).start()
    try:
        ids = [srv.create("simul", [{"kind": "bot", "bot": "random"}] * 2,
                          options={"rounds": 3})[0] for _ in range(300)]
        st = _wait_stats(srv, lambda s: s["evictions"] >= 300 and s["live_games"] == 0)
        assert (st["live_games"], st["evictions"], st["loads"]) == (0, 300, 0)
        assert (st["finished_seconds"], st["idle_seconds"]) == (0.5, 900.0)
        # any request brings a game back, replayed from the database
        rec = srv.get(f"/api/games/{ids[0]}/record").json()
        assert rec["complete"] is True and len(rec["actions"]) == 9  # 3 x (die, 2 seats)
        st = srv.stats()["memory"]
        assert (st["live_games"], st["loads"]) == (1, 1)
        rv = srv.get(f"/api/games/{ids[1]}/replay?seat=1").json()
        assert rv["status"] == "finished" and rv["step"] == rv["steps"] == 9
        assert srv.get(f"/replay/{ids[2]}").status_code == 200
        st = srv.stats()["memory"]
        assert (st["live_games"], st["loads"]) == (3, 3)
        # and they leave again
        st = _wait_stats(srv, lambda s: s["live_games"] == 0)
        assert (st["live_games"], st["evictions"]) == (0, 303)
    finally:
        srv.stop()


def test_an_idle_running_game_leaves_memory_and_comes_back_exactly(db_url):
    from websockets.sync.client import connect

    srv = Server(db_url,
                 env={"CITYBUILDERS_IDLE_SECONDS": "0.4"}).start()
    try:
        gid, toks = srv.create("roll-into-town", [{"kind": "human"}, {"kind": "human"}],
                               seed=4)
        v = srv.view(gid, toks[0])
        r = srv.post(f"/api/games/{gid}/act",
                     {"state_id": v["state_id"], "action": v["legal"][0]["action"]}, toks[0])
        before = [srv.view(gid, t) for t in toks]

        def gone() -> None:
            st = _wait_stats(srv, lambda s: s["live_games"] == 0, timeout=30)
            assert st["live_games"] == 0

        gone()
        assert [srv.view(gid, t) for t in toks] == before  # view
        gone()
        page = srv.get(f"/play/{gid}?t={toks[1]}")  # page
        assert page.status_code == 200 and gid in page.text
        gone()
        r = srv.post(f"/api/games/{gid}/act",  # act straight after leaving memory
                     {"state_id": before[1]["state_id"],
                      "action": before[1]["legal"][0]["action"]}, toks[1])
        assert r.status_code == 200 and r.json()["move_number"] == before[1]["move_number"] + 1
        after = r.json()
        gone()
        with connect(f"ws://127.0.0.1:{srv.port}/ws/games/{gid}?token={toks[1]}") as ws:
            msg = json.loads(ws.recv(timeout=10))  # websocket
            assert msg["type"] == "view" and msg["view"] == after
            time.sleep(1.0)  # a game with a websocket stays
            assert srv.stats()["memory"]["live_games"] == 1
        gone()
        r = srv.get(f"/api/games/{gid}/replay", toks[0])  # replay
        assert r.status_code == 200 and r.json()["step"] == after["move_number"]
        st = srv.stats()["memory"]
        # each of the five paths loaded the game back; on a loaded machine the 0.4 s idle limit
        # may also pass between two requests of one step (the two views), which adds a pair
        assert st["loads"] >= 5 and st["loads"] == st["evictions"]
    finally:
        srv.stop()


def test_least_recently_used_games_beyond_the_limit_leave_memory(db_url):
    from fastapi.testclient import TestClient

    from citybuilders.server import create_app
    from citybuilders.server.manager import MemoryLimits

    url = db_url
    app = create_app(url, MemoryLimits(max_live_games=5))
    with TestClient(app) as c:
        made = []
        for _ in range(8):
            r = c.post("/api/games", json={"game": "simul",
                                           "seats": [{"kind": "human"}, {"kind": "human"}]})
            made.append((r.json()["id"], r.json()["seats"][0]["token"]))
        m = app.state.manager
        assert list(m.live) == [gid for gid, _ in made[3:]]
        first = c.get(f"/api/games/{made[0][0]}/view", headers={H: made[0][1]})
        assert first.status_code == 200 and first.json()["move_number"] == 1
        assert list(m.live) == [gid for gid, _ in made[4:]] + [made[0][0]]
        assert m.memory_stats()["evictions"] == 4 and m.memory_stats()["loads"] == 1
