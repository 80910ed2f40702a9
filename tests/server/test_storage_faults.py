"""Storage faults a root process honours: a database locked by another connection (writes
fail after the busy timeout), a read-only database, a second server on the same database, a
lock left behind by a server killed with ``kill -9``."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time

import pytest

from procs import Server, free_port


def _exclusive(db: str) -> sqlite3.Connection:
    """Another connection holding the database's write lock (``BEGIN EXCLUSIVE``)."""
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")
    return con


def _serve_cli(db_url: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``citybuilders serve`` on ``db_url`` run to its exit (for start-up refusals)."""
    return subprocess.run([sys.executable, "-m", "citybuilders", "serve", "--port",
                           str(free_port()), "--db", db_url],
                          capture_output=True, text=True, timeout=timeout)


def test_a_failed_write_is_503_with_retry_after_and_the_game_stays_as_stored(tmp_path):
    db = str(tmp_path / "locked.sqlite3")
    srv = Server(f"sqlite:///{db}").start()
    try:
        gid, toks = srv.create("roll-into-town", [{"kind": "human"}, {"kind": "human"}],
                               seed=8)
        before = srv.view(gid, toks[0])
        con = _exclusive(db)
        try:
            r = srv.post(f"/api/games/{gid}/act", {"state_id": before["state_id"],
                                                   "action": before["legal"][0]["action"]},
                         toks[0])
            assert r.status_code == 503
            assert r.headers["retry-after"] == "5"
            err = r.json()["error"]
            assert err.startswith(f"database sqlite:///{db}: writing failed (database is "
                                  "locked); nothing was changed, try again later")
            # memory is what is stored: the game was dropped and is replayed from the database
            assert srv.view(gid, toks[0]) == before
            assert srv.stats()["memory"]["loads"] == 1
            r = srv.post("/api/games", {"game": "simul"})
            assert r.status_code == 503 and r.headers["retry-after"] == "5"
            assert "database is locked" in r.json()["error"]
        finally:
            con.rollback()
            con.close()
        r = srv.post(f"/api/games/{gid}/act", {"state_id": before["state_id"],
                                               "action": before["legal"][0]["action"]},
                     toks[0])
        assert r.status_code == 200 and r.json()["move_number"] == before["move_number"] + 1
        acked = r.json()
        srv.restart()
        assert srv.view(gid, toks[0]) == acked
    finally:
        srv.stop()


def test_a_second_server_on_the_same_database_is_refused_in_one_line(tmp_path):
    db = tmp_path / "two.sqlite3"
    srv = Server(f"sqlite:///{db}").start()
    try:
        out = _serve_cli(f"sqlite:///{db}")
        assert out.returncode == 2
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1
        assert lines[0].startswith(
            f"error: database {db} is in use by another citybuilders server "
            f"(pid {srv.proc.pid} on ")
        assert lines[0].endswith("; run one server per database (stop it or choose another "
                                 "--db)")
        # the first server is unharmed
        assert srv.stats()["live_games"] == 0
    finally:
        srv.stop()



def test_a_second_server_through_a_symlink_or_hard_link_is_refused(tmp_path):
    db = tmp_path / "one.sqlite3"
    (tmp_path / "soft.sqlite3").symlink_to(db.name)
    srv = Server(f"sqlite:///{db}").start()
    try:
        os.link(db, tmp_path / "hard.sqlite3")
        for other in ("soft.sqlite3", "hard.sqlite3"):
            out = _serve_cli(f"sqlite:///{tmp_path / other}")
            assert out.returncode == 2, other
            assert "is in use by another citybuilders server" in out.stderr, other
            assert len(out.stderr.strip().splitlines()) == 1
        assert srv.stats()["live_games"] == 0
    finally:
        srv.stop()

def test_a_lock_left_by_kill_9_does_not_block_the_restart(tmp_path):
    db = tmp_path / "stale.sqlite3"
    srv = Server(f"sqlite:///{db}").start()
    try:
        old = srv.proc.pid
        srv.kill9()
        assert (tmp_path / "stale.sqlite3.lock").read_text().split()[0] == str(old)
        srv.start()  # the OS released the dead process' flock
        assert (tmp_path / "stale.sqlite3.lock").read_text().split()[0] == str(srv.proc.pid)
    finally:
        srv.stop()


def test_a_read_only_database_at_start_up_is_one_line_exit_2(tmp_path):
    db = tmp_path / "ro.sqlite3"
    srv = Server(f"sqlite:///{db}").start()  # a real, migrated database
    srv.stop()
    out = _serve_cli(f"sqlite:///file:{db}?mode=ro&uri=true")
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        f"error: database sqlite:///file:{db}?mode=ro&uri=true: opening it for writing and "
        "upgrading its schema failed (attempt to write a readonly database)"]


@pytest.mark.skipif(shutil.which("chattr") is None or os.geteuid() != 0,
                    reason="needs chattr and root (an immutable file stops root too)")
def test_an_immutable_database_file_at_start_up_is_one_line_exit_2(tmp_path):
    db = tmp_path / "imm.sqlite3"
    srv = Server(f"sqlite:///{db}").start()
    srv.stop()
    files = [str(p) for p in tmp_path.glob("imm.sqlite3*") if not str(p).endswith(".lock")]
    if subprocess.run(["chattr", "+i", *files], capture_output=True).returncode != 0:
        pytest.skip("this filesystem has no immutable attribute")
    try:
        out = _serve_cli(f"sqlite:///{db}")
    finally:
        subprocess.run(["chattr", "-i", *files], check=True)
    assert out.returncode == 2
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: database sqlite:///{db}: ")
    assert "readonly database" in lines[0] or "unable to open" in lines[0]


def test_a_locked_database_at_start_up_is_one_line_exit_2(tmp_path):
    db = tmp_path / "lk.sqlite3"
    srv = Server(f"sqlite:///{db}").start()
    srv.stop()
    con = _exclusive(str(db))
    try:
        t0 = time.time()
        out = _serve_cli(f"sqlite:///{db}")
    finally:
        con.rollback()
        con.close()
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        f"error: database sqlite:///{db}: opening it for writing and upgrading its schema "
        "failed (database is locked)"]
    assert time.time() - t0 >= 5  # after SQLite's busy timeout
