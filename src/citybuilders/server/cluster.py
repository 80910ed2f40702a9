"""Several server processes (and machines) on one PostgreSQL database, all serving every game.

``citybuilders serve --db postgresql+psycopg://...`` (the ``[postgres]`` extra: psycopg 3) may
run as many processes as wanted (``--workers N``, or several ``serve`` commands on other hosts
or ports behind any HTTP load balancer). The database is the only authority; what a process
holds in memory is a cache that it brings up to date before serving from it:

- **Moves.** Every change of a game is one transaction that compare-and-sets the stored state
  id (``Store.change_in``) and appends its history rows under the unique ``(game_id, idx)``
  key. Two processes racing on one game cannot both win: the loser's transaction fails
  (``StaleWrite``), it reloads the game and answers 409 "stale", like a stale state id.
- **News.** The transaction also sends ``NOTIFY citybuilders_moves, '<game id> <state id>'``
  (delivered when it commits). Each process keeps one listening connection (``MoveListener``,
  a thread feeding the event loop); a game it has in memory and that moved elsewhere is
  reloaded from the database (only the new entries are applied, or the history from the first
  entry that differs after an undo) and the fresh view is pushed to its websockets, in order:
  a view always carries the whole state, and each is built from one consistent snapshot of the
  database. A request also checks the stored state id of a cached game before using it, so a
  client that moved on one process and asks another sees its move.
- **Bots.** A game's bots are driven by the one process holding the session-level advisory
  lock of that game (``BotLocks``: ``pg_try_advisory_lock(<game id as 64 bits>)`` on a
  connection of its own). The lock is released when the game waits for a person; a process
  that wanted it tries again every ``TAKEOVER_SECONDS``. When the holder dies (even by
  ``kill -9``) PostgreSQL ends its session and the lock is free: a live process that has the
  game takes over. Even two drivers at once (a lost lock connection) could not both move: the
  compare-and-set refuses the second.

SQLite stays one process per database file (``store.SqliteFileLock``); ``--workers`` above 1
is refused for it in one line.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any, Callable

import sqlalchemy as sa

from ..core import undo as core_undo
from ..core.errors import CitybuildersError, RecordError
from ..core.game import State
from .manager import (GameManager, LiveGame, MemoryLimits, _entry_text, _status,
                      broadcast_views, unavailable)
from .store import MOVES_CHANNEL, GameRow, Store, StoreError, is_postgresql
from ..core.i18n import N_

__all__ = ["SharedStore", "SharedGameManager", "MoveListener", "BotLocks", "open_store",
           "make_manager", "postgres_url", "bot_lock_key"]

log = logging.getLogger("citybuilders.server")

WRITERS = 8
"""Connections committing moves at once in one process (PostgreSQL groups their WAL flushes)."""
WRITE_RETRIES = 5
"""Attempts of a write that failed on a serialisation failure or a deadlock (another process
changed the same rows at the same moment): a move then finds the new state id and is stale."""
TAKEOVER_SECONDS = 0.5
"""How often a process retries the bot locks it wanted (a dead holder is replaced this fast)."""
LISTEN_RETRY_SECONDS = 1.0
"""Wait before reconnecting a lost listening or bot-lock connection."""
_RETRY_CODES = ("40001", "40P01")  # serialization_failure, deadlock_detected


def postgres_url(url: str) -> str:
    """``url`` with the psycopg 3 driver: ``postgresql://`` and ``postgres://`` mean
    ``postgresql+psycopg://`` (the only driver the ``[postgres]`` extra installs); other URLs
    are returned unchanged."""
    try:
        u = sa.engine.make_url(url)
    except Exception:  # noqa: BLE001 - reported by the store when it opens the URL
        return url
    if u.drivername in ("postgresql", "postgres"):
        return u.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return url


def libpq_dsn(url: str) -> str:
    """The libpq connection URI (``postgresql://user:pw@host:port/db?host=...``) of an
    SQLAlchemy PostgreSQL URL, for psycopg's own connections."""
    u = sa.engine.make_url(url)
    return u.set(drivername="postgresql").render_as_string(hide_password=False)


def bot_lock_key(game_id: str) -> int:
    """The advisory lock key of a game: its (hexadecimal, 64-bit) id as a signed bigint."""
    k = int(game_id[:16], 16)
    return k - (1 << 64) if k >= 1 << 63 else k


def _need_psycopg() -> None:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise StoreError(N_("PostgreSQL databases need psycopg 3: pip install "
                            "'citybuilders[postgres]'")) from None


# ---------------------------------------------------------------------- storage
class SharedStore(Store):
    """A ``Store`` on PostgreSQL shared by several server processes: no database lock, every
    write one transaction of its own on one of ``WRITERS`` connections (a move's
    compare-and-set touches one game row, so writes of different games never wait on each
    other, and PostgreSQL groups the concurrent commits' WAL flushes itself). A write that hits
    a serialisation failure or deadlock is retried up to ``WRITE_RETRIES`` times."""

    shared = True

    def __init__(self, url: str) -> None:
        """Open and migrate PostgreSQL database ``url``; StoreError (one line) if it cannot
        be reached or upgraded, or psycopg is missing."""
        _need_psycopg()
        super().__init__(postgres_url(url), exclusive=True)  # exclusive: probe a write
        self.dsn = libpq_dsn(self.url)
        self._pool = ThreadPoolExecutor(max_workers=WRITERS, thread_name_prefix="cb-db-writer")
        self._stats_lock = threading.Lock()
        self.retries = 0
        """Writes run again after a serialisation failure or deadlock."""

    def submit(self, fn: Callable[[sa.Connection], Any]) -> Future[Any]:
        """Run ``fn(conn)`` in a transaction of its own on a writer connection; the future
        gets its result once committed (or the exception: StaleWrite, a database error)."""
        with self._writer_lock:
            if self._closed:
                raise RuntimeError("the store is closed")
            return self._pool.submit(self._run_one, fn)

    def _run_one(self, fn: Callable[[sa.Connection], Any]) -> Any:
        for attempt in range(WRITE_RETRIES):
            t0 = time.perf_counter()
            try:
                with self.engine.begin() as conn:
                    res = fn(conn)
            except sa.exc.DBAPIError as exc:
                code = getattr(exc.orig, "sqlstate", None)
                if code in _RETRY_CODES and attempt + 1 < WRITE_RETRIES:
                    with self._stats_lock:
                        self.retries += 1
                    time.sleep(random.uniform(0, 0.002 * (attempt + 1)))
                    continue
                raise
            with self._stats_lock:
                self.commits += 1
                self.writes += 1
                self.recent.append((1, time.perf_counter() - t0))
            return res
        raise AssertionError("unreachable")

    def writer_stats(self) -> dict[str, Any]:
        """As ``Store.writer_stats`` (each group is one write here) plus ``retries``."""
        out = super().writer_stats()
        out["retries"] = self.retries
        return out

    def close(self) -> None:
        """Finish the writes under way, then close the connection pool."""
        with self._writer_lock:
            self._closed = True
        self._pool.shutdown(wait=True)
        super().close()


def open_store(url: str | None) -> Store:
    """The store a server process uses: ``SharedStore`` for a PostgreSQL URL (many
    processes), else ``Store(url, exclusive=True)`` (SQLite: one process per file)."""
    if url is not None and is_postgresql(url):
        return SharedStore(url)
    return Store(url, exclusive=True)


def make_manager(store: Store, limits: MemoryLimits | None = None) -> GameManager:
    """``SharedGameManager`` on a ``SharedStore``, else ``GameManager``."""
    if getattr(store, "shared", False):
        return SharedGameManager(store, limits=limits)  # type: ignore[arg-type]
    return GameManager(store, limits=limits)


# ---------------------------------------------------------------------- LISTEN thread
class MoveListener:
    """A thread with one autocommit connection that ``LISTEN``s on ``MOVES_CHANNEL`` and hands
    every payload to ``deliver(payload)`` on the event loop ``loop`` (``payload`` None: the
    connection was (re)established, so anything may have changed unseen meanwhile). A lost
    connection is reopened after ``LISTEN_RETRY_SECONDS``."""

    def __init__(self, dsn: str, loop: asyncio.AbstractEventLoop,
                 deliver: Callable[[str | None], None]) -> None:
        self.dsn = dsn
        self.loop = loop
        self.deliver = deliver
        self._stop = threading.Event()
        self.connected = threading.Event()
        self.received = 0
        self.reconnects = 0
        self._thread = threading.Thread(target=self._run, name="cb-db-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Ask the thread to end (it notices within a second; daemon, never joined long)."""
        self._stop.set()

    def _post(self, payload: str | None) -> None:
        try:
            self.loop.call_soon_threadsafe(self.deliver, payload)
        except RuntimeError:  # the loop is closed: the server is stopping
            self._stop.set()

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True, application_name=(
                        f"citybuilders listen {os.getpid()}")) as conn:
                    conn.execute(f"LISTEN {MOVES_CHANNEL}")
                    self.connected.set()
                    self._post(None)
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=1.0):
                            self.received += 1
                            self._post(n.payload)
                            if self._stop.is_set():
                                break
            except Exception as exc:  # noqa: BLE001 - reconnect whatever broke
                self.connected.clear()
                if self._stop.is_set():
                    return
                self.reconnects += 1
                log.warning("listening for moves of other servers failed (%s); reconnecting",
                            " ".join(str(exc).split()) or type(exc).__name__)
                self._stop.wait(LISTEN_RETRY_SECONDS)


# ---------------------------------------------------------------------- bot locks
class BotLocks:
    """Session-level advisory locks, one per game whose bots this process drives, held on one
    connection of their own that only a single worker thread uses. PostgreSQL releases them
    all when the session ends (the process died, the connection broke)."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.held: set[str] = set()
        """Games whose lock this process holds (changed on the event loop only)."""
        self._conn: Any = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cb-db-locks")
        self.lost = 0
        """Times the lock connection broke (every lock held was lost with it)."""

    def _connection(self) -> Any:
        import psycopg

        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(self.dsn, autocommit=True,
                                         application_name=f"citybuilders bots {os.getpid()}")
        return self._conn

    def _try(self, game_ids: list[str]) -> tuple[list[bool], bool]:
        """(got each lock?, was the connection new: every lock held before is gone)."""
        fresh = self._conn is None or self._conn.closed
        try:
            conn = self._connection()
            rows = conn.execute(
                "SELECT pg_try_advisory_lock(k) FROM unnest(%s::bigint[]) WITH ORDINALITY "
                "AS t(k, i) ORDER BY i", ([bot_lock_key(g) for g in game_ids],)).fetchall()
            return [bool(r[0]) for r in rows], fresh
        except Exception as exc:  # noqa: BLE001 - no lock without a connection
            self._drop_connection(exc)
            return [False] * len(game_ids), True

    def _unlock(self, game_id: str) -> None:
        try:
            if self._conn is not None and not self._conn.closed:
                self._conn.execute("SELECT pg_advisory_unlock(%s)", (bot_lock_key(game_id),))
        except Exception as exc:  # noqa: BLE001 - a broken connection released it anyway
            self._drop_connection(exc)

    def _drop_connection(self, exc: BaseException) -> None:
        log.warning("bot lock connection failed (%s); its locks are released",
                    " ".join(str(exc).split()) or type(exc).__name__)
        self.lost += 1
        try:
            if self._conn is not None:
                self._conn.close()
        except Exception:  # noqa: BLE001
            pass
        self._conn = None

    async def take(self, game_ids: list[str]) -> list[bool]:
        """Try the locks of ``game_ids`` without waiting; whether each was taken."""
        if not game_ids:
            return []
        loop = asyncio.get_running_loop()
        got, fresh = await loop.run_in_executor(self._thread, self._try, game_ids)
        if fresh:
            self.held.clear()
        for g, ok in zip(game_ids, got):
            if ok:
                self.held.add(g)
        return got

    def release(self, game_id: str) -> None:
        """Give the lock of ``game_id`` back (queued after any ``take`` already asked)."""
        if game_id in self.held:
            self.held.discard(game_id)
            self._thread.submit(self._unlock, game_id)

    def close(self) -> None:
        def _close() -> None:
            if self._conn is not None:
                try:
                    self._conn.close()
                except Exception:  # noqa: BLE001
                    pass
        self._thread.submit(_close)
        self._thread.shutdown(wait=False)


# ---------------------------------------------------------------------- game manager
class SharedGameManager(GameManager):
    """A ``GameManager`` whose games other processes change too (see the module docstring):
    cached games are brought up to date from the database on a ``NOTIFY``, before a request
    uses them, and after a lost race; bots move only while this process holds the game's
    advisory lock."""

    def __init__(self, store: SharedStore, executor: Any = None,
                 limits: MemoryLimits | None = None) -> None:
        super().__init__(store, executor, limits)
        self.store: SharedStore = store
        self.reads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="cb-db-read")
        self.bot_locks = BotLocks(store.dsn)
        self.listener: MoveListener | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._sync_wanted: set[str] = set()
        self._syncing: dict[str, asyncio.Task[None]] = {}
        self._taking: set[str] = set()
        self._watch: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self.syncs = 0
        """Cached games brought up to date from the database."""
        self.conflicts = 0
        """Changes refused because another process changed the game first."""
        self.takeovers = 0
        """Bot locks taken after waiting for them (another process held them)."""

    # ------------------------------------------------------------------ start and stop
    def _ensure_sweeper(self) -> None:
        super()._ensure_sweeper()
        if self.listener is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.listener = MoveListener(self.store.dsn, loop, self._notified)
        self.listener.start()
        self._watcher = loop.create_task(self._watch_loop())

    async def start(self) -> None:
        """Start listening now (waits up to 5 s for the listening connection), so moves made
        elsewhere reach this process from its first request on."""
        self._ensure_sweeper()
        if self.listener is not None:
            await asyncio.get_running_loop().run_in_executor(
                None, self.listener.connected.wait, 5.0)

    def close(self) -> None:
        """Stop the listener, the lock connection and the readers, then as ``GameManager``."""
        if self.listener is not None:
            self.listener.stop()
        if self._watcher is not None:
            self._watcher.cancel()
        for t in list(self._tasks):
            t.cancel()
        self.bot_locks.close()
        self.reads.shutdown(wait=False, cancel_futures=True)
        super().close()

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def cluster_stats(self) -> dict[str, Any]:
        """``{pid, syncs, conflicts, takeovers, notifies, listen_reconnects, bot_locks_held,
        write_retries}``: this process and its totals since start."""
        lst = self.listener
        return {"pid": os.getpid(), "syncs": self.syncs, "conflicts": self.conflicts,
                "takeovers": self.takeovers,
                "notifies": lst.received if lst else 0,
                "listen_reconnects": lst.reconnects if lst else 0,
                "bot_locks_held": len(self.bot_locks.held),
                "write_retries": self.store.retries}

    # ------------------------------------------------------------------ freshness
    async def get(self, game_id: str) -> LiveGame:
        """As ``GameManager.get``; a game already in memory is first checked against the
        stored state id and brought up to date if another process changed it."""
        cached = game_id in self.live
        lg = await super().get(game_id)
        if cached:
            try:
                stored = await asyncio.get_running_loop().run_in_executor(
                    self.reads, self.store.stored_version, game_id)
            except StoreError as exc:
                raise unavailable(exc) from None
            if stored is not None and stored != lg.version:
                await self.refresh(lg)
        return lg

    def _notified(self, payload: str | None) -> None:
        """A NOTIFY (on the event loop): bring the game up to date if it is cached here and
        behind; None (listening (re)started): check every cached game."""
        if payload is None:
            for gid in list(self.live):
                self._want_sync(gid)
            return
        gid, _, version = payload.partition(" ")
        lg = self.live.get(gid)
        if lg is None:
            loading = self._loading.get(gid)
            if loading is not None:  # the load under way may have read the game before it
                loading.add_done_callback(lambda _t: self._want_sync(gid))
            return
        try:
            if int(version) <= lg.version:
                return  # our own change, or already seen
        except ValueError:
            pass
        self._want_sync(gid)

    def _want_sync(self, gid: str) -> None:
        self._sync_wanted.add(gid)
        if gid not in self._syncing:
            self._syncing[gid] = self._spawn(self._sync_task(gid))

    async def _sync_task(self, gid: str) -> None:
        try:
            while gid in self._sync_wanted:
                self._sync_wanted.discard(gid)
                lg = self.live.get(gid)
                if lg is None:
                    return
                try:
                    await self.refresh(lg)
                except Exception:  # noqa: BLE001 - the next request or NOTIFY tries again
                    log.exception("bringing game %s up to date failed", gid)
        finally:
            self._syncing.pop(gid, None)

    async def refresh(self, lg: LiveGame) -> bool:
        """Bring ``lg`` up to date with the database (takes ``lg.lock``); push the new view to
        its websockets if it changed. Returns whether it changed."""
        async with lg.lock:
            changed = await self._sync_locked(lg)
        if changed:
            broadcast_views(self, lg)
        return changed

    async def _sync_locked(self, lg: LiveGame) -> bool:
        """Read the stored game (one snapshot) and make ``lg`` equal to it (call with
        ``lg.lock`` held). A stored history that no longer replays drops ``lg`` (the next
        request refuses it with 409, as a load would)."""
        if lg.stale:
            return False
        loop = asyncio.get_running_loop()
        try:
            row = await loop.run_in_executor(self.reads, self.store.load_game, lg.id)
        except StoreError as exc:
            log.warning("game %s: cannot be brought up to date: %s", lg.id, exc)
            return False
        if row is None or row.version == lg.version:
            return False
        try:
            state, texts = await loop.run_in_executor(
                self.reads, _catch_up, lg.state, lg.log, row)
        except CitybuildersError as exc:
            log.error("game %s: the stored history does not replay (%s); dropping it",
                      lg.id, exc)
            self._drop(lg)
            return False
        lg.state, lg.version, lg.log = state, row.version, texts
        lg.row.status = row.status
        lg.row.updated_at = row.updated_at
        lg.row.seats = row.seats
        lg.views = {}
        lg.last_used = time.monotonic()
        self.syncs += 1
        self._ensure_driver(lg)
        return True

    async def _stale_write(self, lg: LiveGame) -> None:
        """Lost a race (``lg.lock`` held): reload ``lg`` in place from the database; its
        websockets get the winner's view."""
        self.conflicts += 1
        if await self._sync_locked(lg):
            asyncio.get_running_loop().call_soon(broadcast_views, self, lg)

    # ------------------------------------------------------------------ bots
    def _ensure_driver(self, lg: LiveGame) -> None:
        """Drive ``lg``'s bots only while holding its advisory lock: start the driver if held,
        else ask for the lock (in the background; retried every ``TAKEOVER_SECONDS``)."""
        if lg.driver is not None or lg.row.status != "running" or lg.stale:
            return
        if not self._bot_seats(lg):
            self._watch.discard(lg.id)
            self.bot_locks.release(lg.id)
            return
        if lg.id in self.bot_locks.held:
            super()._ensure_driver(lg)
            if lg.driver is not None:
                lg.driver.add_done_callback(partial(self._driver_ended, lg))
            return
        if lg.id not in self._taking:
            self._taking.add(lg.id)
            self._spawn(self._take_bots([lg.id]))

    def _driver_ended(self, lg: LiveGame, _task: Any) -> None:
        """A driver ended: release the lock unless a new driver already runs."""
        if lg.driver is None:
            self.bot_locks.release(lg.id)

    async def _take_bots(self, game_ids: list[str], watched: bool = False) -> None:
        try:
            got = await self.bot_locks.take(game_ids)
        finally:
            self._taking.difference_update(game_ids)
        for gid, ok in zip(game_ids, got):
            lg = self.live.get(gid)
            if not ok:
                if lg is not None:
                    self._watch.add(gid)
                continue
            self._watch.discard(gid)
            if watched:
                self.takeovers += 1
            if lg is None or lg.stale:
                self.bot_locks.release(gid)
                continue
            async with lg.lock:
                if self.live.get(gid) is lg and not lg.stale:
                    # the previous holder may have moved since our copy was made
                    await self._sync_locked(lg)
                    self._ensure_driver(lg)
                if lg.driver is None:
                    self.bot_locks.release(gid)

    async def _watch_loop(self) -> None:
        """Every ``TAKEOVER_SECONDS``: try again the bot locks of cached games whose bots are
        to move but whose lock another process held (it may have died meanwhile)."""
        while True:
            await asyncio.sleep(TAKEOVER_SECONDS)
            try:
                want = []
                for gid in list(self._watch):
                    lg = self.live.get(gid)
                    if (lg is None or lg.stale or lg.row.status != "running"
                            or not self._bot_seats(lg)):
                        self._watch.discard(gid)
                    elif lg.driver is None and gid not in self._taking:
                        want.append(gid)
                if want:
                    self._taking.update(want)
                    await self._take_bots(want, watched=True)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the watcher must keep running
                log.exception("retrying bot locks failed")

    def _evictable(self, lg: LiveGame) -> bool:
        return super()._evictable(lg) and lg.id not in self._syncing

    def _evict(self, lg: LiveGame) -> None:
        super()._evict(lg)
        self._watch.discard(lg.id)
        self.bot_locks.release(lg.id)


def _catch_up(state: State, texts: list[str], row: GameRow) -> tuple[State, list[str]]:
    """The state and log equal to stored ``row``, from the cached ``state`` and ``texts``:
    the entries after the longest common prefix of the two histories are replayed (only the
    new ones after plain moves; from the first rewritten one after an undo). Raises
    RecordError naming the first entry that does not replay (``state`` is not changed)."""
    cur = state.history()
    stored = row.actions
    same = 0
    for a, b in zip(cur, stored):
        if a != b:
            break
        same += 1
    if same == len(cur):
        new = state.clone()
        log_after = list(texts)
    else:
        new = core_undo.rebuild(state, same)
        log_after = list(texts[:same])
    for i, (actor, action) in enumerate(stored[same:], start=same):
        log_after.append(_entry_text(new, actor, action))
        try:
            new.apply_legal(action, actor if actor >= 0 else None)
        except Exception as exc:  # noqa: BLE001 - any engine error = a broken history
            raise RecordError(N_("stored entry {i} (actor {actor}, action {action}) does not "
                                 "replay: {name__}: {exc}",
                                 i=i + 1, actor=actor, action=action, name__=type(exc).__name__, exc=exc)) from None
    if row.status in ("running", "finished") and row.status != _status(new):
        raise RecordError(N_("stored status is {status!r} but its entries replay to a "
                             "{status2!r} game", status=row.status, status2=_status(new)))
    return new, log_after
