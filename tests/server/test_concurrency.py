"""Concurrency: group commit, per-game locks, the per-seat view cache, cancellation. (Many
games moving at once through a real server killed with ``kill -9``: test_wire.py.)"""

from __future__ import annotations

import asyncio
import threading

import pytest

from citybuilders.server.manager import ApiError, GameManager
from citybuilders.server.store import Store, actions_t


@pytest.fixture
def store(tmp_path):
    s = Store(f"sqlite:///{tmp_path / 'c.sqlite3'}")
    yield s
    s.close()


def _block_writer(store: Store) -> threading.Event:
    """Occupy the writer thread until the returned event is set (so later writes queue)."""
    release = threading.Event()
    started = threading.Event()

    def hold(conn):
        started.set()
        release.wait(10)

    store.submit(hold)
    assert started.wait(10)
    return release


def _two_humans(game: str = "secrets") -> dict:
    return {"game": game, "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 5}


# ---------------------------------------------------------------------------- store
def test_queued_writes_are_committed_in_one_transaction(store):
    m = GameManager(store)
    lg, _ = m.create(_two_humans(), None)
    release = _block_writer(store)
    before = store.commits
    futs = [store.submit(lambda conn, i=i: store.append_actions_in(
        conn, lg.id, 100 + i, [(0, i)], 7, "running")) for i in range(10)]
    release.set()
    assert [f.result(10) for f in futs] == [None] * 10
    assert store.commits == before + 2  # the blocker, then all ten in one group
    stored = store.load_game(lg.id)
    assert stored.actions[-10:] == [(0, i) for i in range(10)] and stored.version == 7
    m.close()


def test_a_failing_write_fails_alone_and_rolls_back_only_itself(store):
    m = GameManager(store)
    lg, _ = m.create(_two_humans(), None)
    n = len(store.load_game(lg.id).actions)
    release = _block_writer(store)
    good1 = store.submit(lambda conn: store.append_actions_in(
        conn, lg.id, n, [(0, 1)], 10, "running"))
    # a duplicate primary key (idx n again): this write must fail, and only this one
    bad = store.submit(lambda conn: conn.execute(actions_t.insert(), [
        dict(game_id=lg.id, idx=n + 5, actor=0, action=9),
        dict(game_id=lg.id, idx=n, actor=0, action=9)]))
    good2 = store.submit(lambda conn: store.append_actions_in(
        conn, lg.id, n + 1, [(1, 2)], 11, "running"))
    release.set()
    assert good1.result(10) is None and good2.result(10) is None
    with pytest.raises(Exception, match="UNIQUE|unique|IntegrityError"):
        bad.result(10)
    stored = store.load_game(lg.id)
    assert stored.actions[n:] == [(0, 1), (1, 2)] and stored.version == 11  # no row of `bad`
    m.close()


# ---------------------------------------------------------------------------- manager
def test_many_games_moving_at_once_all_persist_and_share_commits(store, tmp_path):
    async def main():
        m = GameManager(store)
        games = [(await m.create_async(_two_humans(), None))[0] for _ in range(24)]
        before_commits, before_writes = store.commits, store.writes

        async def play(lg):
            for _ in range(4):
                seat = lg.state.active_players()[0]
                action = lg.state.legal_actions(seat)[0]
                await m.act(lg, seat, {"state_id": lg.version, "action": action})

        await asyncio.gather(*[play(lg) for lg in games])
        m.close()
        return games, store.commits - before_commits, store.writes - before_writes

    games, commits, writes = asyncio.run(main())
    assert writes == 24 * 4
    assert commits < writes  # moves of different games shared transactions (group commit)
    fresh = Store(store.url)  # what a restarted server reads
    try:
        for lg in games:
            row = fresh.load_game(lg.id)
            assert row.actions == list(lg.state.history()) and row.version == lg.version
            assert len(row.actions) == 1 + 4 * 2  # deal, then 4 x (play, draw)
    finally:
        fresh.close()


def test_a_double_submit_at_the_same_moment_applies_once_the_other_is_stale(store):
    async def main():
        m = GameManager(store)
        lg, _ = await m.create_async(_two_humans(), None)
        sid = lg.version
        action = lg.state.legal_actions(0)[0]
        results = await asyncio.gather(
            m.act(lg, 0, {"state_id": sid, "action": action}),
            m.act(lg, 0, {"state_id": sid, "action": action}),
            return_exceptions=True)
        m.close()
        return lg, sid, results

    lg, sid, results = asyncio.run(main())
    errors = [r for r in results if isinstance(r, ApiError)]
    assert results.count(None) == 1 and len(errors) == 1
    assert errors[0].status == 409 and "stale" in errors[0].message
    assert lg.version == sid + 1
    assert store.load_game(lg.id).actions == list(lg.state.history())
    assert len(lg.state.history()) == 3  # deal, play, draw: applied exactly once


def test_a_move_cancelled_during_its_commit_still_lands_in_memory_and_on_disk(store):
    async def main():
        m = GameManager(store)
        lg, _ = await m.create_async(_two_humans(), None)
        sid = lg.version
        release = _block_writer(store)
        task = asyncio.create_task(m.act(lg, 0, {"state_id": sid,
                                                 "action": lg.state.legal_actions(0)[0]}))
        await asyncio.sleep(0.05)  # the move is validated and waits for the writer
        task.cancel()
        await asyncio.sleep(0.05)
        assert not task.done()  # it waits for the commit it started
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await task
        m.close()
        return lg, sid

    lg, sid = asyncio.run(main())
    assert lg.version == sid + 1
    assert store.load_game(lg.id).actions == list(lg.state.history())


def test_each_seat_view_is_built_once_per_state_and_never_shared(store, monkeypatch):
    async def main():
        m = GameManager(store)
        lg, _ = await m.create_async(_two_humans(), None)
        built = []
        real = m.view

        def counting(lg_, seat, *a, **k):
            built.append(seat)
            return real(lg_, seat, *a, **k)

        monkeypatch.setattr(m, "view", counting)
        v0 = m.view_json(lg, 0)
        assert m.view_json(lg, 0) is v0 and built == [0]  # cached
        v1 = m.view_json(lg, 1)
        assert built == [0, 1] and v1 != v0  # each seat its own (hands differ)
        await m.act(lg, 0, {"state_id": lg.version, "action": lg.state.legal_actions(0)[0]})
        assert m.view_json(lg, 0) != v0 and built == [0, 1, 0]  # new state: rebuilt
        lg.bot_error = "x"
        assert b'"bot_error":"x"' in m.view_json(lg, 0).replace(b" ", b"")
        m.close()

    asyncio.run(main())


def test_the_view_cache_keeps_only_the_most_recently_used_games(store, monkeypatch):
    from citybuilders.server import manager as manager_mod

    monkeypatch.setattr(manager_mod, "VIEW_CACHE_GAMES", 2)
    m = GameManager(store)
    games = [m.create(_two_humans(), None)[0] for _ in range(3)]
    first = m.view_json(games[0], 0)
    m.view_json(games[1], 0)
    m.view_json(games[0], 1)  # game 0 used again: game 1 is now the oldest
    third = m.view_json(games[2], 0)
    assert games[1].views == {} and set(games[0].views) == {0, 1} and set(games[2].views) == {0}
    assert m.view_json(games[0], 0) is first  # still cached
    again = m.view_json(games[1], 0)  # rebuilt on demand; now game 2 is the oldest: dropped
    assert b'"state_id"' in again and games[2].views == {} and set(games[1].views) == {0}
    assert m.view_json(games[2], 0) == third and m.view_json(games[2], 0) is not third
    m.close()


def test_concurrent_first_requests_share_one_load_and_a_cancelled_one_harms_none(store):
    m0 = GameManager(store)
    lg0, _ = m0.create(_two_humans(), None)
    m0.close()

    async def main():
        m = GameManager(store)  # a "restarted" server: the game is only in the database
        loads = []
        real = m._load

        def counting(game_id):
            loads.append(game_id)
            return real(game_id)

        m._load = counting
        first = asyncio.create_task(m.get(lg0.id))
        others = [asyncio.create_task(m.get(lg0.id)) for _ in range(5)]
        await asyncio.sleep(0)
        first.cancel()
        got = await asyncio.gather(*others)
        with pytest.raises(ApiError) as missing:
            await m.get("0123456789abcdef")
        m.close()
        return loads, got, first, missing.value

    loads, got, first, missing = asyncio.run(main())
    assert loads == [lg0.id, "0123456789abcdef"] and first.cancelled()  # one load each
    assert all(g is got[0] for g in got) and got[0].state.history() == lg0.state.history()
    assert missing.status == 404
