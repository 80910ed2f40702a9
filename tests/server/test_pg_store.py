"""PostgreSQL storage: Alembic migrations on PostgreSQL with any URL form (a Unix-socket URL is
rendered with ``%2F``, a password may hold ``%``), servers starting at once on a new database,
the compare-and-set that makes a racing change stale, and ``serve --workers``."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import httpx
import pytest
import sqlalchemy as sa
from procs import free_port

from citybuilders.server.store import MIGRATIONS, SeatRow, StaleWrite, Store, is_postgresql

REAL_TABLES = {"games", "seats", "actions", "alembic_version"}


def _tables(url: str) -> set[str]:
    engine = sa.create_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def _head() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(cfg).get_current_head()


@pytest.mark.postgres
def test_a_unix_socket_url_with_percent_signs_migrates(pg_cluster):
    name = pg_cluster.create_database().rsplit("/", 1)[1]
    # the socket folder is rendered as host=%2Ftmp%2F..., and the password (ignored by trust
    # authentication) holds a '%' too: neither may reach configparser's interpolation
    url = pg_cluster.url(name, unix_socket=True).replace("postgres@", "postgres:50%25off@")
    assert "%2F" in sa.engine.make_url(url).render_as_string(hide_password=False)
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT version_num FROM alembic_version")
                                ).scalar() == _head()
    finally:
        store.close()
    assert REAL_TABLES <= _tables(pg_cluster.url(name))


@pytest.mark.postgres
def test_the_alembic_command_line_path_downgrades_and_upgrades_on_postgresql(pg_cluster):
    """env.py without a handed-over connection (as the ``alembic`` command runs it): the URL
    comes from the config, Unix-socket form, through configparser."""
    from alembic import command
    from alembic.config import Config

    name = pg_cluster.create_database().rsplit("/", 1)[1]
    url = pg_cluster.url(name, unix_socket=True)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(cfg, "head")
    assert REAL_TABLES <= _tables(pg_cluster.url(name))
    command.downgrade(cfg, "base")
    assert _tables(pg_cluster.url(name)) == {"alembic_version"}
    command.upgrade(cfg, "head")
    assert REAL_TABLES <= _tables(pg_cluster.url(name))


@pytest.mark.postgres
def test_servers_starting_at_once_on_a_new_database_all_migrate(pg_url):
    stores: list[Store] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def open_one() -> None:
        barrier.wait()
        try:
            stores.append(Store(pg_url))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == [] and len(stores) == 4
    finally:
        for s in stores:
            s.close()


def _one_game(store: Store) -> None:
    store.create_game("ab" * 8, {"game": "toy", "rules_version": "1", "options": {},
                                 "num_players": 2, "seed": 1},
                      [SeatRow(0, "human", None, "A", "t0"), SeatRow(1, "human", None, "B", "t1")],
                      [(-1, 2)], "running", None)


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres",
                                                            marks=pytest.mark.postgres)])
def test_a_change_from_an_old_state_id_is_stale_and_writes_nothing(backend, tmp_path,
                                                                     request):
    url = (f"sqlite:///{tmp_path / 'cas.sqlite3'}" if backend == "sqlite"
           else request.getfixturevalue("pg_url"))
    store = Store(url)
    try:
        _one_game(store)
        gid = "ab" * 8
        store.write(lambda c: store.change_in(c, gid, 1, 1, [(0, 0)], 2, "running"))
        with pytest.raises(StaleWrite, match="no longer at state 1"):
            store.write(lambda c: store.change_in(c, gid, 1, 1, [(0, 1)], 2, "running"))
        # an undo computed from the old state id cannot slip past either (no row would clash)
        with pytest.raises(StaleWrite):
            store.write(lambda c: store.change_in(c, gid, 1, 1, [], 2, "running",
                                                  rewrite=True))
        row = store.load_game(gid)
        assert row.version == 2 and row.actions == [(-1, 2), (0, 0)]
        assert store.stored_version(gid) == 2 and store.stored_version("cd" * 8) is None
    finally:
        store.close()


def test_postgresql_urls_are_told_apart():
    assert is_postgresql("postgresql+psycopg://u@/db?host=/run/postgresql")
    assert is_postgresql("postgresql://u@h/db")
    assert not is_postgresql("sqlite:///x.sqlite3")
    assert not is_postgresql("not a url")


def _serve(db: str, *extra: str, port: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "citybuilders", "serve", "--port",
                             str(port or free_port()), "--db", db, *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_workers_on_sqlite_are_refused_in_one_line(tmp_path):
    proc = _serve(f"sqlite:///{tmp_path / 'w.sqlite3'}", "--workers", "2")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert err.strip().splitlines() == [
        "error: --workers 2: an SQLite database is served by one process (a second one is "
        "refused); use a PostgreSQL URL (--db postgresql+psycopg://user@host/dbname) for "
        "several"]


def _children(pid: int) -> list[int]:
    out = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/children") as f:
            out += [int(x) for x in f.read().split()]
    return out


@pytest.mark.postgres
def test_serve_workers_2_on_postgresql_serves_every_game_from_both(pg_url):
    port = free_port()
    # a plain postgresql:// URL means the psycopg 3 driver
    proc = _serve(pg_url.replace("postgresql+psycopg://", "postgresql://"), "--workers", "2",
                  port=port)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 120
        while True:
            try:
                if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
            assert proc.poll() is None, proc.stderr.read()
            assert time.time() < deadline, "serve --workers 2 did not start"
        while len(_children(proc.pid)) < 2 and time.time() < deadline:
            time.sleep(0.2)
        # uvicorn's workers: two processes (plus, maybe, a multiprocessing helper)
        assert len(_children(proc.pid)) >= 2
        pids = set()
        d = httpx.post(base + "/api/games", json={
            "game": "sprawlopolis", "seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
        gid, tok = d["id"], d["seats"][0]["token"]
        for _ in range(4):
            # a new connection each time: the kernel hands them to either worker
            view = httpx.get(f"{base}/api/games/{gid}/view", headers={"X-Seat-Token": tok},
                             timeout=30).json()
            while 0 not in view["active_players"]:
                time.sleep(0.05)
                view = httpx.get(f"{base}/api/games/{gid}/view",
                                 headers={"X-Seat-Token": tok}, timeout=30).json()
            r = httpx.post(f"{base}/api/games/{gid}/act", headers={"X-Seat-Token": tok},
                           json={"state_id": view["state_id"],
                                 "action": view["legal"][0]["action"]}, timeout=30)
            assert r.status_code in (200, 409), r.text
            pids.add(httpx.get(base + "/api/stats").json()["cluster"]["pid"])
        views = {httpx.get(f"{base}/api/games/{gid}/view", headers={"X-Seat-Token": tok},
                           timeout=30).content for _ in range(6)}
        assert len(views) <= 2  # (a bot move may land between two reads)
        assert pids <= set(_children(proc.pid))
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
