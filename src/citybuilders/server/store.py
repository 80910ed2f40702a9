"""Persistent storage of web games through SQLAlchemy (SQLite by default, any URL works).

A game is stored as its record header (game, rules_version, options, num_players, seed), its
seats (kind, bot, secret token) and its actions in order (chance outcomes included, each with
its history actor code so private draws stay private). Restarting the server = replaying the
stored actions. Every write is one transaction committed before the caller acknowledges it.

Tables are created and upgraded by Alembic migrations shipped as package data
(``citybuilders/server/migrations``), versioned from the first table.

Writes go through one writer thread (``Store.submit``) that does *group commit*: it takes every
write queued while the previous commit was being flushed and applies them in a single
transaction, so one fsync serves many games; each write's future is resolved only after that
commit returned, so a move is never acknowledged before it is durable. If the grouped
transaction fails, the writes are retried one transaction each, so one bad write never fails
another game's.

Storage never disagrees with memory: an undo that takes back an entry from the middle of the
history (per-player undo in simultaneous games) rewrites that game's rows from the undone index
in the same transaction (``replace_actions_in``), and ``load_game`` refuses a history with a gap.
A database error surfaces as :class:`StoreError` (the server answers 503). A serving process
holds an exclusive *database lock* (``Store(url, exclusive=True)``; SQLite: ``flock`` on
``<db file>.lock``, released by the OS when the process dies), so a second server on the same
database is refused with one line naming the holder. On PostgreSQL there is no such lock:
several servers share the database (``server.cluster.SharedStore``), each change being a
compare-and-set of the stored state id (``change_in``, ``StaleWrite``) announced with
``NOTIFY`` on ``MOVES_CHANNEL``.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import queue
import socket
import tempfile
import threading
import time
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ..core.errors import CitybuildersError
from ..core.i18n import N_
from ..core.names import check_name

__all__ = ["Store", "GameRow", "SeatRow", "StoreError", "StaleWrite", "DatabaseLock",
           "SqliteFileLock", "database_lock", "default_db_url", "migrate", "metadata",
           "MOVES_CHANNEL", "is_postgresql"]

log = logging.getLogger("citybuilders.server")
MAX_GROUP = 256
"""Most writes applied in one grouped transaction."""

metadata = sa.MetaData()
games_t = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("rules_version", sa.String(32), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("num_players", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("owner", sa.String(64)),
    sa.Column("note", sa.Text),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("spectator_token", sa.String(64)),
    sa.Column("rematch_id", sa.String(32)),
)
seats_t = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("bot", sa.String(32)),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token", sa.String(64)),
    sa.Column("claimed_by", sa.String(64)),
    sa.Column("invite_token", sa.String(64)),
)
actions_t = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("actor", sa.Integer, nullable=False),
    sa.Column("action", sa.Integer, nullable=False),
)

MIGRATIONS = Path(__file__).with_name("migrations")


class StoreError(CitybuildersError):
    """The database cannot be used (locked, read-only, full, unreachable, held by another
    server): one line naming the database and the cause. The server answers 503."""


class StaleWrite(Exception):
    """A change was computed from state id ``expected`` of game ``game_id`` but the stored
    game is no longer at that state id (another server process changed it first): nothing was
    written. The server reloads the game and answers 409 "stale"."""

    def __init__(self, game_id: str, expected: int) -> None:
        super().__init__(f"game '{game_id}' is no longer at state {expected} in the database")
        self.game_id = game_id
        self.expected = expected


MOVES_CHANNEL = "citybuilders_moves"
"""PostgreSQL ``NOTIFY`` channel of committed changes; payload ``"<game id> <state id>"``."""

MIGRATION_LOCK = 0x63620001
"""PostgreSQL advisory lock key held while migrating (servers starting at once)."""


def is_postgresql(url: str) -> bool:
    """Whether SQLAlchemy URL ``url`` names a PostgreSQL database (several servers may share
    it); False for SQLite and for a URL that does not parse."""
    try:
        return sa.engine.make_url(url).get_backend_name() == "postgresql"
    except Exception:  # noqa: BLE001 - a malformed URL fails later, with its own message
        return False


def _db_error(url: str, exc: BaseException, doing: str) -> StoreError:
    """A one-line StoreError for a database exception raised while ``doing`` something."""
    orig = getattr(exc, "orig", None) or exc
    cause = " ".join(str(orig).split()) or type(orig).__name__
    return StoreError(f"database {_safe_url(url)}: {doing} failed ({cause})")


def _safe_url(url: str) -> str:
    try:
        u = sa.engine.make_url(url)
        return url if u.password is None else u.render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - a malformed URL is reported as given
        return url


# ---------------------------------------------------------------------- database lock
class DatabaseLock:
    """One serving process per database (the in-memory state is authoritative, so a second
    process writing the same games would make acknowledged moves disappear).

    ``acquire()`` raises StoreError naming the holder if another process has it; ``release()``
    gives it back. This base class locks nothing; ``SqliteFileLock`` is the SQLite one.
    PostgreSQL takes no such lock: there several servers share one database
    (``server.cluster``: every change is a compare-and-set on the stored state id)."""

    def acquire(self) -> None:
        """Take the lock (no-op here)."""

    def release(self) -> None:
        """Give the lock back (no-op here)."""


class SqliteFileLock(DatabaseLock):
    """``flock(LOCK_EX | LOCK_NB)`` on ``<database file>.lock`` beside the SQLite file.

    The operating system releases the lock when the process dies (even by ``kill -9``), so a
    crashed server never blocks a restart; the file keeps the holder's pid, host and start time
    (Unix seconds) only to name it in the refusal."""

    def __init__(self, db_path: str | os.PathLike[str]) -> None:
        # the real file, so a symlinked path finds the same lock
        self.db = Path(os.path.realpath(db_path))
        self.path = Path(str(self.db) + ".lock")
        self._fd: int | None = None
        self._inode_fd: int | None = None

    def _inode_lock_path(self) -> Path | None:
        """A lock file named after the database file's device and inode, so that every name of
        the file (hard links too) finds the same lock; None if the file cannot be made."""
        try:
            if not self.db.exists():
                self.db.touch()  # an empty file is an empty SQLite database
            st = self.db.stat()
        except OSError:
            return None
        folder = Path(tempfile.gettempdir()) / "citybuilders-db-locks"
        try:
            if not folder.exists():
                folder.mkdir()
                folder.chmod(0o1777)  # shared by every user, like /tmp itself
        except OSError:
            return None
        return folder / f"{st.st_dev}-{st.st_ino}.lock"

    def acquire(self) -> None:
        """Take the lock. Raises StoreError naming the other process if it is held."""
        self._fd = self._take(self.path)
        inode = self._inode_lock_path()
        if inode is not None:
            try:
                self._inode_fd = self._take(inode, optional=True)
            except StoreError:
                self.release()
                raise

    def _take(self, path: Path, optional: bool = False) -> int | None:
        """flock ``path``; StoreError naming the holder if another process has it. A lock file
        that cannot be opened is an error, or None when ``optional`` (the inode lock)."""
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            if optional:
                return None
            raise StoreError(N_("database lock {path}: cannot create it beside the database "
                                "file ({strerror})", path=path, strerror=exc.strerror)) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").split()
            os.close(fd)
            who = (f"pid {holder[0]} on {holder[1]}, since "
                   f"{time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(float(holder[2])))}"
                   if len(holder) >= 3 and holder[2].replace(".", "", 1).isdigit()
                   else "unknown process")
            raise StoreError(
                N_("database {db} is in use by another citybuilders server ({who}); run one "
                   "server per database (stop it or choose another --db)", db=self.db, who=who)
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {socket.gethostname()} {time.time():.0f}\n".encode(), 0)
        return fd

    def release(self) -> None:
        """Unlock and close the lock files (the files stay; their content is stale)."""
        for name in ("_inode_fd", "_fd"):
            fd = getattr(self, name)
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
                setattr(self, name, None)


def sqlite_path(url: str) -> str | None:
    """The file of an SQLite URL, or None (not SQLite, or an in-memory database)."""
    u = sa.engine.make_url(url)
    if u.get_backend_name() != "sqlite":
        return None
    db = u.database or ""
    if db.startswith("file:"):
        db = db[5:].split("?", 1)[0]
    if not db or db == ":memory:" or u.query.get("mode") == "memory":
        return None
    return db


def database_lock(url: str) -> DatabaseLock:
    """The lock that keeps a second server off database ``url``: a ``SqliteFileLock`` for an
    SQLite file, a no-op ``DatabaseLock`` otherwise (documented in docs/server.md)."""
    path = sqlite_path(url)
    return SqliteFileLock(path) if path is not None else DatabaseLock()


def default_db_url() -> str:
    """``sqlite:///<user data dir>/citybuilders/citybuilders.sqlite3`` (directory created)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("citybuilders", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'citybuilders.sqlite3'}"


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            if ":memory:" not in url and url.rstrip("/") not in ("sqlite:", "sqlite:/"):
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.close()

        return engine
    if is_postgresql(url):
        # a read of a game (its row, seats and entries) is one snapshot; a write that races
        # another server's on the same game fails (serialisation failure) and is retried
        return sa.create_engine(url, pool_pre_ping=True, isolation_level="REPEATABLE READ",
                                pool_size=12, max_overflow=8)
    return sa.create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (creates the tables on a new DB)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # configparser interpolation: a '%' in the URL (a URI file name, a password) is doubled
    cfg.set_main_option("sqlalchemy.url",
                        engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    with engine.connect() as conn:
        postgresql = conn.dialect.name == "postgresql"
        if postgresql:  # each statement sees what the server migrating before us committed
            conn.execution_options(isolation_level="READ COMMITTED")
        with conn.begin():
            if postgresql:  # servers starting at once migrate one after the other
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"),
                             {"k": MIGRATION_LOCK})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")


@dataclass(slots=True)
class SeatRow:
    """One seat: ``kind`` is ``human`` (this browser), ``invite`` (invite link) or ``bot``."""

    seat: int
    kind: str
    bot: str | None
    name: str
    token: str | None
    claimed_by: str | None = None
    invite_token: str | None = None
    """An invite seat's link once a browser claimed it (``token`` is then that browser's own
    secret); None before the claim (the link is ``token`` itself) and for other seats."""


@dataclass(slots=True)
class GameRow:
    """A stored game: record header, status (``running``/``finished``/``imported``), seats,
    actions as ``(actor, action)`` history entries and the monotonic ``version`` (state id)."""

    id: str
    game: str
    rules_version: str
    options: dict[str, Any]
    num_players: int
    seed: int
    status: str
    version: int
    owner: str | None
    note: str | None
    created_at: float
    updated_at: float
    seats: list[SeatRow]
    actions: list[tuple[int, int]]
    spectator_token: str | None = None
    """The secret of the game's spectator link (made when first asked for), or None."""
    rematch_id: str | None = None
    """The game started as this game's rematch, or None."""
    gap: str | None = None
    """Set by ``Store.load_game`` if the stored indices are not 0..n-1 (which entry is
    missing): such a history is refused by the server's consistency check."""


class Store:
    """Database access. Every write method commits before returning (or, for ``submit``,
    before its future is resolved). Writes run on one writer thread with group commit."""

    def __init__(self, url: str | None = None, exclusive: bool = False) -> None:
        """Open (and migrate) database ``url`` (None: the default SQLite file).

        ``exclusive``: first take the database lock (``database_lock``), as the server does,
        so a second server on the same database is refused. Raises StoreError (one line) if the
        lock is held or the database cannot be opened or upgraded (read-only, locked, ...)."""
        self.url = url or default_db_url()
        self.lock = database_lock(self.url) if exclusive else DatabaseLock()
        self.lock.acquire()
        try:
            self.engine = _make_engine(self.url)
            migrate(self.engine)
            if exclusive:
                self._probe_write()
        except sa.exc.SQLAlchemyError as exc:
            self.lock.release()
            raise _db_error(self.url, exc, "opening it for writing and upgrading its schema"
                            ) from None
        except BaseException:
            self.lock.release()
            raise
        self._queue: queue.SimpleQueue[tuple[Callable[[sa.Connection], Any], Future[Any]] | None]
        self._queue = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_lock = threading.Lock()
        self._closed = False
        self.commits = 0
        """Transactions committed by the writer (a group counts once)."""
        self.writes = 0
        """Writes committed by the writer."""
        self.recent: deque[tuple[int, float]] = deque(maxlen=2000)
        """(writes, seconds) of the last grouped transactions (``writer_stats``)."""

    def _probe_write(self) -> None:
        """Fail now, not at the first move, if the database takes no writes: a write rolled
        back at once (SQLite opens a file it may not write read-only without saying so)."""
        with self.engine.connect() as conn:
            with conn.begin() as tx:
                conn.execute(sa.text(
                    "UPDATE alembic_version SET version_num = version_num"))
                tx.rollback()

    def close(self) -> None:
        """Finish the queued writes, stop the writer thread and release the connection pool."""
        with self._writer_lock:
            self._closed = True
            writer = self._writer
            self._writer = None
        if writer is not None:
            self._queue.put(None)
            writer.join()
        self.engine.dispose()
        self.lock.release()

    # ------------------------------------------------------------------ writer thread
    def submit(self, fn: Callable[[sa.Connection], Any]) -> Future[Any]:
        """Queue ``fn(conn)`` for the writer thread; the future gets its result once the
        transaction holding it is committed (or its exception if it failed, rolled back).

        The queue is unbounded but callers bound it: a live game has at most one write in
        flight (its lock is held until the commit), so the queue never holds more entries than
        there are games being written to."""
        fut: Future[Any] = Future()
        with self._writer_lock:
            if self._closed:
                raise RuntimeError("the store is closed")
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_loop, name="cb-db-writer",
                                                daemon=True)
                self._writer.start()
            self._queue.put((fn, fut))
        return fut

    def write(self, fn: Callable[[sa.Connection], Any]) -> Any:
        """``submit(fn)`` and wait for the commit (blocking; not for the event loop).
        Raises StoreError if the database refused the write (nothing was stored)."""
        try:
            return self.submit(fn).result()
        except sa.exc.SQLAlchemyError as exc:
            raise _db_error(self.url, exc, "writing") from None

    def error(self, exc: BaseException) -> StoreError:
        """A one-line StoreError for a failed write's exception ``exc``."""
        return exc if isinstance(exc, StoreError) else _db_error(self.url, exc, "writing")

    def _write_loop(self) -> None:
        q = self._queue
        while True:
            job = q.get()
            if job is None:
                return
            batch = [job]
            stop = False
            while len(batch) < MAX_GROUP:
                try:
                    nxt = q.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self._run_batch(batch)
            if stop:
                return

    def _run_batch(self, batch: list[tuple[Callable[[sa.Connection], Any], Future[Any]]]
                   ) -> None:
        live = [(fn, fut) for fn, fut in batch if fut.set_running_or_notify_cancel()]
        if not live:
            return
        results: list[Any] = []
        t0 = time.perf_counter()
        try:
            with self.engine.begin() as conn:
                for fn, _ in live:
                    results.append(fn(conn))
        except Exception as exc:  # noqa: BLE001 - retry alone so one bad write fails only itself
            if len(live) == 1:
                live[0][1].set_exception(exc)
                return
            log.warning("grouped commit of %d writes failed (%s); retrying one by one",
                        len(live), exc)
            for fn, fut in live:
                try:
                    with self.engine.begin() as conn:
                        res = fn(conn)
                except Exception as one:  # noqa: BLE001
                    fut.set_exception(one)
                else:
                    self.commits += 1
                    self.writes += 1
                    fut.set_result(res)
            return
        self.commits += 1
        self.writes += len(live)
        self.recent.append((len(live), time.perf_counter() - t0))
        for (_, fut), res in zip(live, results):
            fut.set_result(res)

    def writer_stats(self) -> dict[str, Any]:
        """``{commits, writes, recent_groups, mean_group, commit_ms_p50, commit_ms_p99}``:
        totals, and the size and duration of the last (up to 2000) grouped transactions."""
        recent = list(self.recent)
        ms = sorted(t * 1000 for _, t in recent)

        def q(f: float) -> float | None:
            return round(ms[min(len(ms) - 1, int(f * len(ms)))], 2) if ms else None

        return {"commits": self.commits, "writes": self.writes, "recent_groups": len(recent),
                "mean_group": round(sum(n for n, _ in recent) / len(recent), 2) if recent
                else None, "commit_ms_p50": q(0.5), "commit_ms_p99": q(0.99)}

    # ------------------------------------------------------------------ writes
    def create_game(
        self,
        game_id: str,
        header: dict[str, Any],
        seats: Sequence[SeatRow],
        actions: Sequence[tuple[int, int]],
        status: str,
        owner: str | None,
        note: str | None = None,
    ) -> None:
        """Insert a game with its seats and initial actions in one transaction."""
        self.write(lambda conn: self.create_game_in(conn, game_id, header, seats, actions,
                                                    status, owner, note))

    def create_game_in(self, conn: sa.Connection, game_id: str, header: dict[str, Any],
                       seats: Sequence[SeatRow], actions: Sequence[tuple[int, int]],
                       status: str, owner: str | None, note: str | None = None) -> None:
        """The writes of ``create_game`` on ``conn`` (inside the caller's transaction).
        Raises FormatError for a seat name ``core.names.check_name`` refuses (the server
        checks names before; this keeps SQLite and PostgreSQL alike for every caller)."""
        for s in seats:
            check_name(s.name, f"seats[{s.seat}].name")
        now = time.time()
        conn.execute(
            games_t.insert().values(
                id=game_id,
                game=header["game"],
                rules_version=header["rules_version"],
                options=json.dumps(header["options"], sort_keys=True),
                num_players=header["num_players"],
                seed=header["seed"],
                status=status,
                version=len(actions),
                owner=owner,
                note=note,
                created_at=now,
                updated_at=now,
            )
        )
        conn.execute(
            seats_t.insert(),
            [
                dict(game_id=game_id, seat=s.seat, kind=s.kind, bot=s.bot, name=s.name,
                     token=s.token, claimed_by=s.claimed_by, invite_token=s.invite_token)
                for s in seats
            ],
        )
        self._insert_actions(conn, game_id, 0, actions)

    @staticmethod
    def _insert_actions(conn: sa.Connection, game_id: str, start: int,
                        actions: Iterable[tuple[int, int]]) -> None:
        rows = [dict(game_id=game_id, idx=start + i, actor=a, action=b)
                for i, (a, b) in enumerate(actions)]
        if rows:
            conn.execute(actions_t.insert(), rows)

    def append_actions(self, game_id: str, start: int, actions: Sequence[tuple[int, int]],
                       version: int, status: str) -> None:
        """Append history entries from index ``start``; set the new version and status."""
        self.write(lambda conn: self.append_actions_in(conn, game_id, start, actions, version,
                                                       status))

    def append_actions_in(self, conn: sa.Connection, game_id: str, start: int,
                          actions: Sequence[tuple[int, int]], version: int,
                          status: str) -> None:
        """The writes of ``append_actions`` on ``conn`` (inside the caller's transaction)."""
        self._insert_actions(conn, game_id, start, actions)
        conn.execute(
            games_t.update().where(games_t.c.id == game_id)
            .values(version=version, status=status, updated_at=time.time())
        )

    def replace_actions(self, game_id: str, start: int, actions: Sequence[tuple[int, int]],
                        version: int, status: str) -> None:
        """Replace history entries from index ``start`` on by ``actions`` (an undo that takes
        back entry ``start``: the later entries move down one index); set version and status."""
        self.write(lambda conn: self.replace_actions_in(conn, game_id, start, actions, version,
                                                        status))

    def replace_actions_in(self, conn: sa.Connection, game_id: str, start: int,
                           actions: Sequence[tuple[int, int]], version: int,
                           status: str) -> None:
        """The writes of ``replace_actions`` on ``conn``, in one transaction: the game's rows
        from ``start`` are deleted and written again, so the stored history is exactly the
        in-memory one (unique ``(game_id, idx)`` keys, no gap)."""
        conn.execute(
            actions_t.delete().where(actions_t.c.game_id == game_id, actions_t.c.idx >= start)
        )
        self.append_actions_in(conn, game_id, start, actions, version, status)

    def change_in(self, conn: sa.Connection, game_id: str, expected: int, start: int,
                  actions: Sequence[tuple[int, int]], version: int, status: str,
                  rewrite: bool = False) -> None:
        """One change of a live game on ``conn`` (inside the caller's transaction): a
        compare-and-set of the stored state id from ``expected`` to ``version`` (and the
        status), then the history entries from index ``start`` appended (``rewrite``: the rows
        from ``start`` are first deleted, an undo). Raises StaleWrite if the stored state id is
        not ``expected`` (another server changed the game first; nothing is written). On
        PostgreSQL the change is announced on ``MOVES_CHANNEL`` when the transaction commits.

        Two servers racing on one game cannot both win: the row update serialises them and the
        loser's compare fails; the ``(game_id, idx)`` primary key refuses a duplicate entry."""
        done = conn.execute(
            games_t.update().where(games_t.c.id == game_id, games_t.c.version == expected)
            .values(version=version, status=status, updated_at=time.time())
        )
        if done.rowcount != 1:
            raise StaleWrite(game_id, expected)
        if rewrite:
            conn.execute(actions_t.delete().where(actions_t.c.game_id == game_id,
                                                  actions_t.c.idx >= start))
        self._insert_actions(conn, game_id, start, actions)
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_notify(:ch, :payload)"),
                         {"ch": MOVES_CHANNEL, "payload": f"{game_id} {version}"})

    def stored_version(self, game_id: str) -> int | None:
        """The stored state id of ``game_id`` (None: no such game). Raises StoreError."""
        try:
            with self.engine.connect() as conn:
                return conn.execute(sa.select(games_t.c.version)
                                    .where(games_t.c.id == game_id)).scalar()
        except sa.exc.SQLAlchemyError as exc:
            raise _db_error(self.url, exc, f"reading game '{game_id}'") from None

    def truncate_actions(self, game_id: str, length: int, version: int, status: str) -> None:
        """Delete history entries from index ``length`` on (undo); set version and status."""
        self.write(lambda conn: self.truncate_actions_in(conn, game_id, length, version, status))

    @staticmethod
    def truncate_actions_in(conn: sa.Connection, game_id: str, length: int, version: int,
                            status: str) -> None:
        """The writes of ``truncate_actions`` on ``conn`` (inside the caller's transaction)."""
        conn.execute(
            actions_t.delete().where(actions_t.c.game_id == game_id, actions_t.c.idx >= length)
        )
        conn.execute(
            games_t.update().where(games_t.c.id == game_id)
            .values(version=version, status=status, updated_at=time.time())
        )

    def claim_seat(self, game_id: str, seat: int, owner: str) -> None:
        """Remember that browser ``owner`` opened the invite link of ``seat`` (for "my games")."""
        self.write(lambda conn: conn.execute(
            seats_t.update().where(seats_t.c.game_id == game_id, seats_t.c.seat == seat)
            .values(claimed_by=owner)
        ))

    # ------------------------------------------------------------------ online play
    def set_seat(self, game_id: str, seat: int, **values: Any) -> None:
        """Update columns of one seat (``token``, ``claimed_by``, ``invite_token``, ``name``)
        in one committed transaction: an invite claim, a re-issued link, a new name. Raises
        FormatError for a name ``core.names.check_name`` refuses, StoreError if the database
        refused the write."""
        allowed = {"token", "claimed_by", "invite_token", "name"}
        bad = set(values) - allowed
        if bad:
            raise ValueError(f"set_seat: unknown columns {sorted(bad)}")
        if "name" in values:
            check_name(values["name"], f"seats[{seat}].name")
        self.write(lambda conn: conn.execute(
            seats_t.update().where(seats_t.c.game_id == game_id, seats_t.c.seat == seat)
            .values(**values)
        ))

    def set_game_links(self, game_id: str, **values: Any) -> None:
        """Update ``spectator_token`` and/or ``rematch_id`` of a game (committed). Raises
        StoreError if the database refused the write."""
        bad = set(values) - {"spectator_token", "rematch_id"}
        if bad:
            raise ValueError(f"set_game_links: unknown columns {sorted(bad)}")
        self.write(lambda conn: conn.execute(
            games_t.update().where(games_t.c.id == game_id).values(**values)
        ))

    # ------------------------------------------------------------------ reads
    def load_game(self, game_id: str) -> GameRow | None:
        """The stored game ``game_id`` with seats and actions, or None.

        Stored indices that are not 0..n-1 are reported in ``GameRow.gap``. Raises StoreError
        if the database cannot be read."""
        try:
            return self._load_game(game_id)
        except sa.exc.SQLAlchemyError as exc:
            raise _db_error(self.url, exc, f"reading game '{game_id}'") from None

    def _load_game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            g = conn.execute(games_t.select().where(games_t.c.id == game_id)).mappings().first()
            if g is None:
                return None
            seats = [
                SeatRow(r["seat"], r["kind"], r["bot"], r["name"], r["token"], r["claimed_by"],
                        r["invite_token"])
                for r in conn.execute(
                    seats_t.select().where(seats_t.c.game_id == game_id)
                    .order_by(seats_t.c.seat)
                ).mappings()
            ]
            actions = []
            gap = None
            for r in conn.execute(
                sa.select(actions_t.c.idx, actions_t.c.actor, actions_t.c.action)
                .where(actions_t.c.game_id == game_id).order_by(actions_t.c.idx)
            ):
                if gap is None and r[0] != len(actions):
                    gap = (f"entry {len(actions) + 1} is missing (the next stored index is "
                           f"{r[0]})")
                actions.append((r[1], r[2]))
        return GameRow(
            id=g["id"], game=g["game"], rules_version=g["rules_version"],
            options=json.loads(g["options"]), num_players=g["num_players"], seed=g["seed"],
            status=g["status"], version=g["version"], owner=g["owner"], note=g["note"],
            created_at=g["created_at"], updated_at=g["updated_at"], seats=seats, actions=actions,
            spectator_token=g["spectator_token"], rematch_id=g["rematch_id"], gap=gap,
        )

    def games_of(self, owner: str, limit: int = 50) -> list[dict[str, Any]]:
        """Games created by or joined from browser ``owner``, newest first:
        ``[{id, game, status, updated_at, seats: [seat numbers this browser holds]}]``.
        Raises StoreError if the database cannot be read."""
        try:
            return self._games_of(owner, limit)
        except sa.exc.SQLAlchemyError as exc:
            raise _db_error(self.url, exc, "listing games") from None

    def _games_of(self, owner: str, limit: int) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            q = (
                sa.select(games_t.c.id, games_t.c.game, games_t.c.status, games_t.c.updated_at,
                          games_t.c.owner, seats_t.c.seat, seats_t.c.kind, seats_t.c.claimed_by)
                .join(seats_t, seats_t.c.game_id == games_t.c.id)
                .where(sa.or_(games_t.c.owner == owner, seats_t.c.claimed_by == owner))
                .order_by(games_t.c.updated_at.desc())
            )
            out: dict[str, dict[str, Any]] = {}
            for r in conn.execute(q).mappings():
                d = out.setdefault(r["id"], {"id": r["id"], "game": r["game"],
                                             "status": r["status"],
                                             "updated_at": r["updated_at"], "seats": []})
                mine = (r["owner"] == owner and r["kind"] == "human") or r["claimed_by"] == owner
                if mine and r["seat"] not in d["seats"]:
                    d["seats"].append(r["seat"])
        return list(out.values())[:limit]

