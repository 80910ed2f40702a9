"""Live games: validation, persistence, chance, bots and per-seat views (game-agnostic).

Only the core State protocol is used. A live game keeps its current state in memory (rebuilt by
replaying the stored actions after a restart); a change is applied to a clone, committed to the
database and only then made current and acknowledged. Chance nodes are resolved at once with the
operating system's RNG (``random.SystemRandom``), so no future draw or die exists anywhere before
it happens. Bots think in a thread pool on a snapshot, so a slow bot never blocks other games.

Concurrency: each live game has its own ``asyncio.Lock`` held from validation until its change
is committed; commits go to the store's writer thread (group commit), so the event loop never
waits on the disk and many games' moves share one fsync. A current state is never mutated (a
change makes a new one), so views are built from a consistent snapshot without the lock, and
each seat's view is rendered and serialised once per state id (``view_json``), not once per
request or per connection.

Memory: finished and idle games leave memory (``MemoryLimits``: after ``finished_seconds`` /
``idle_seconds`` without a request, or least recently used beyond ``max_live_games``) and are
replayed from the database by the next request that needs them. Storage: what is in memory is
always what is stored; a failed write answers 503 and drops the game from memory, so the next
request reloads it from the database; a stored history that does not replay is refused (409).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import json
import logging
import os
import random
import re
import secrets
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from collections import Counter, OrderedDict
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable, Mapping

try:  # optional: 3-5x faster serialisation of the ~90 KB views
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson is optional
    _orjson = None

from ..bots import bot_names, make_bot
from ..core import undo as core_undo
from ..core.errors import CitybuildersError, IllegalActionError, RecordError, short
from ..core.game import CHANCE, Game, State, chance_viewer_of, check_seed
from ..core.names import check_name
from ..core.records import load_record, record_of
from ..core.registry import game_class, load_game
from ..core.rng import fresh_seed
from ..core.view import esc
from .display import display_panels, notation_text, notation_words, score_labels, texts_for
from .explain import explain_state
from .store import GameRow, SeatRow, StaleWrite, Store, StoreError
from ..core.i18n import DEFAULT as DEFAULT_LANG
from ..core.i18n import LANGUAGES, N_, current, localize, message_of, using

__all__ = ["ApiError", "GameManager", "LiveGame", "MemoryLimits", "SEAT_KINDS", "StaleConflict",
           "dumps", "ws_view_message"]

log = logging.getLogger("citybuilders.server")

SEAT_KINDS = ("human", "invite", "bot")
SEAT_KEYS = ("kind", "bot", "name")
"""The keys of a seat in a create body."""
SPECTATOR = -1
"""The "seat" of a spectator link's holder: public information only, no moves."""
_SYSRAND = random.SystemRandom()
VIEW_CACHE_GAMES = 1000
"""Games whose rendered views are kept (least recently used first out; ~100 KB per seat)."""
_MAX_CHANCE_CHAIN = 10_000
NOTATION_MAX = 60
"""Longest move text the API parses (characters; the longest notation of any game is ~25)."""
PATH_MAX = 16
"""Most keys in a move's click path the API matches (a game's paths have a few)."""
RETRY_AFTER = "5"
"""Seconds a client is asked to wait (``Retry-After``) after a 503 (database unavailable)."""


class ApiError(Exception):
    """A client error: HTTP ``status`` with a one-line ``message`` (and extra response
    ``headers``, e.g. ``Retry-After`` on a 503)."""

    def __init__(self, status: int, message: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


class StaleConflict(ApiError):
    """409: the change lost a race with another server process on the same game (the stored
    state id moved on first); the game was reloaded from the database, nothing was written."""

    def __init__(self, version: int) -> None:
        super().__init__(409, f"state_id: stale (the game moved on to state {version}); "
                              "reload and try again")



def requested_game(body: Mapping[str, Any]) -> type[Game]:
    """The game class a request body's ``game`` field names; ApiError 400 naming the field."""
    name = body.get("game")
    if not isinstance(name, str):
        raise ApiError(400, N_("game: expected a game id string"))
    try:
        return game_class(name)
    except CitybuildersError as exc:
        raise ApiError(400, N_("game: {exc}", exc=exc)) from None


def seat_name(value: Any, where: str) -> str | None:
    """A seat's name as stored (``core.names.check_name``: one line of 1 to 40 characters,
    whitespace folded), None when none is given (the caller gives the default name);
    ApiError 400 naming ``where``."""
    try:
        return check_name(value, where, optional=True)
    except CitybuildersError as exc:
        raise ApiError(400, message_of(exc)) from None


def unavailable(exc: BaseException) -> ApiError:
    """The 503 for a storage failure ``exc``, with ``Retry-After``."""
    return ApiError(503, N_("{exc}; nothing was changed, try again later", exc=exc),
                    headers={"Retry-After": RETRY_AFTER})


def _env_number(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise StoreError(N_("{name}: expected a number, got {raw!r}", name=name, raw=raw)) from None
    if value < 0:
        raise StoreError(N_("{name}: expected a number >= 0, got {raw!r}", name=name, raw=raw))
    return value


@dataclass(frozen=True)
class MemoryLimits:
    """When live games leave memory (they are replayed from the database on demand).

    ``max_live_games``: most games kept (least recently used out first); ``idle_seconds``: a
    running game without any request for that long leaves; ``finished_seconds``: the same for
    finished and imported games. A game never leaves while a request, a bot or a websocket
    uses it. Defaults come from the environment (``CITYBUILDERS_MAX_LIVE_GAMES``,
    ``CITYBUILDERS_IDLE_SECONDS``, ``CITYBUILDERS_FINISHED_SECONDS``), else 2000 / 900 / 60."""

    max_live_games: int = 2000
    idle_seconds: float = 900.0
    finished_seconds: float = 60.0

    @classmethod
    def from_env(cls) -> "MemoryLimits":
        """The limits from the environment variables above (StoreError on a bad value)."""
        d = cls()
        return cls(int(_env_number("CITYBUILDERS_MAX_LIVE_GAMES", d.max_live_games)),
                   _env_number("CITYBUILDERS_IDLE_SECONDS", d.idle_seconds),
                   _env_number("CITYBUILDERS_FINISHED_SECONDS", d.finished_seconds))

    @property
    def sweep_seconds(self) -> float:
        """How often idle games are looked for: a quarter of the shortest limit, 0.2-30 s."""
        return min(30.0, max(0.2, min(self.idle_seconds, self.finished_seconds) / 4))


@dataclass
class LiveGame:
    """A game held in memory: the current state plus bookkeeping.

    ``log`` has one notation string per history entry (computed before applying it); it is
    replaced, never mutated, when the game changes, like ``state``.
    ``version`` is the state id clients send back with a move (bumped by every change, undo
    included), so a stale click or a second tab is refused.
    """

    row: GameRow
    game: Game
    state: State
    log: list[str]
    version: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[tuple[Any, int]] = field(default_factory=set)
    bots: dict[int, Any] = field(default_factory=dict)
    driver: asyncio.Task[None] | None = None
    bot_error: str | None = None
    views: dict[int, tuple[tuple[int, str | None], bytes]] = field(default_factory=dict)
    """Per seat: (state id, bot error) and the view serialised as JSON (``view_json``)."""
    last_used: float = field(default_factory=time.monotonic)
    """``time.monotonic()`` of the last request or change (for ``MemoryLimits``)."""
    evicted: bool = False
    """Left memory while idle (equal to what is stored; a request still holding it revives it)."""
    stale: bool = False
    """Dropped after a failed write: never used again (the game is reloaded from storage)."""

    @property
    def id(self) -> str:
        return self.row.id


BOT_LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard"),
                   "expert": N_("expert"), "greedy": N_("greedy"), "random": N_("random"),
                   "ismcts": N_("ismcts")}
"""Bot name (bots.bot_names) -> its msgid: the home page's seat choices and default seat
names show it in the reader's language; the name itself (API, records) stays."""


@lru_cache(maxsize=512)
def default_seat_name(kind: str, bot: str | None, seat: int, lang: str) -> str:
    """The name an unnamed seat gets, in ``lang``: ``"Expert (bot)"`` for a bot (its level,
    BOT_LEVEL_NAMES), ``"Player 2"`` otherwise (``seat`` is 0-based)."""
    if kind == "bot":
        level = localize(BOT_LEVEL_NAMES.get(bot or "random", bot or "random"), lang)
        return localize(N_("{level} (bot)", level=level[:1].upper() + level[1:]), lang)
    return localize(N_("Player {num}", num=seat + 1), lang)


def seat_names(seats: Any, lang: str) -> list[str]:
    """Each seat's name for a reader of ``lang``: the stored name, except a default name
    (:func:`default_seat_name` in any language: the creator's) which is shown in ``lang``, so
    a bot created from an English page reads "專家（機器人）" on a 繁體中文 page. ``seats``:
    the game's SeatRows."""
    out = []
    for s in seats:
        defaults = {default_seat_name(s.kind, s.bot, s.seat, L) for L in LANGUAGES}
        out.append(default_seat_name(s.kind, s.bot, s.seat, lang) if s.name in defaults
                   else s.name)
    return distinct_names(out)


def distinct_names(names: list[str]) -> list[str]:
    """``names`` with every name that occurs more than once numbered in seat order, so the
    players of a page can be told apart (three "Normal (bot)" seats read "Normal (bot) 1",
    "... 2", "... 3"; the panels keyed by name lost all but one). A number already taken by
    another name is skipped.

    >>> distinct_names(["Ann", "Normal (bot)", "Normal (bot)", "Normal (bot) 2"])
    ['Ann', 'Normal (bot) 1', 'Normal (bot) 3', 'Normal (bot) 2']
    """
    counts = Counter(names)
    taken = set(names)
    nxt: dict[str, int] = {}
    out = []
    for n in names:
        if counts[n] == 1:
            out.append(n)
            continue
        k = nxt.get(n, 0) + 1
        while f"{n} {k}" in taken:
            k += 1
        nxt[n] = k
        taken.add(f"{n} {k}")
        out.append(f"{n} {k}")
    return out


def _entry_text(state: State, actor: int, action: int) -> str:
    """Notation of a history entry about to be applied to ``state``."""
    try:
        return state.action_to_string(action, actor if actor >= 0 else None)
    except Exception:  # noqa: BLE001 - notation must never break the server
        return str(action)


def _resolve_chance(state: State, texts: list[str]) -> None:
    """Apply chance outcomes drawn with the OS RNG until a player (or the end) is to act
    (their history entries are ``state.history()[len before:]``; their notation goes to
    ``texts``)."""
    n = 0
    while state.current_player() == CHANCE:
        a = state.sample_chance(_SYSRAND)
        texts.append(_entry_text(state, CHANCE, a))
        state.apply_legal(a)
        n += 1
        if n > _MAX_CHANCE_CHAIN:
            raise RuntimeError("chance chain does not end")


def _status(state: State) -> str:
    return "finished" if state.is_terminal() else "running"


def dumps(obj: Any) -> bytes:
    """Compact JSON bytes (orjson when installed, else the standard library)."""
    if _orjson is not None:
        try:
            return _orjson.dumps(obj, option=_orjson.OPT_NON_STR_KEYS)
        except TypeError:
            pass
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


async def _until_done(fut: asyncio.Future[Any]) -> bool:
    """Wait until ``fut`` is done even if the caller is cancelled meanwhile (a commit that is
    under way must be waited for, so the in-memory game and the database never disagree).
    Returns whether the caller was cancelled; the caller finishes its bookkeeping and then
    raises ``asyncio.CancelledError`` itself."""
    cancelled = False
    while not fut.done():
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            cancelled = True
        except Exception:  # noqa: BLE001 - a failed write: the caller reads fut.exception()
            pass
    return cancelled


class GameManager:
    """Creates, loads and advances games; builds per-seat views; pushes them to websockets."""

    def __init__(self, store: Store, executor: Executor | None = None,
                 limits: MemoryLimits | None = None) -> None:
        self.store = store
        self.executor = executor or ThreadPoolExecutor(max_workers=4,
                                                       thread_name_prefix="cb-bot")
        self.limits = limits if limits is not None else MemoryLimits.from_env()
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        """Games in memory, least recently used first."""
        self._loading: dict[str, asyncio.Task[LiveGame]] = {}
        self._view_lru: OrderedDict[str, None] = OrderedDict()
        self._sweeper: asyncio.Task[None] | None = None
        self.evictions = 0
        """Games that left memory (idle, finished, or beyond ``max_live_games``)."""
        self.loads = 0
        """Games replayed from the database (after a restart or after leaving memory)."""
        self.refused = 0
        """Loads refused because the stored history does not replay (409)."""

    def close(self) -> None:
        """Stop bot drivers, the idle sweeper and the executor."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for lg in self.live.values():
            if lg.driver is not None:
                lg.driver.cancel()
        if isinstance(self.executor, ThreadPoolExecutor):
            self.executor.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ creation
    def create(self, body: Any, owner: str | None) -> tuple[LiveGame, dict[int, str]]:
        """Create a game from a request body (blocking; ``create_async`` on the event loop).

        See ``create_async`` for the body, the result and the errors."""
        pending = self._prepare(body, owner)
        try:
            self.store.write(pending[0])
        except StoreError as exc:
            raise unavailable(exc) from None
        return self._created(*pending[1:])

    async def create_async(self, body: Any, owner: str | None,
                           admit: Callable[[], None] | None = None
                           ) -> tuple[LiveGame, dict[int, str]]:
        """Create a game from a request body; its commit goes through the writer thread.

        Body: ``{"game": id, "options": {...}, "num_players": n (optional, default: number of
        seats or the game's default), "seats": [{"kind": "human"|"invite"|"bot",
        "bot": "random"|"greedy"|..., "name": str}], "seed": int (optional)}``.
        Returns the live game and the tokens of every human/invite seat. Raises ApiError 400
        naming the bad field. ``admit()`` runs once the body is valid, before anything is
        stored (the app's rate limit: a refused request is not counted); it may raise.
        """
        pending = self._prepare(body, owner)
        if admit is not None:
            admit()
        fut = asyncio.wrap_future(self.store.submit(pending[0]))
        cancelled = await _until_done(fut)
        exc = fut.exception()
        if exc is not None:  # nothing was stored: nothing is made live
            log.error("database write failed (creating a game): %s", exc)
            if cancelled:
                raise asyncio.CancelledError
            raise unavailable(self.store.error(exc))
        made = self._created(*pending[1:])
        if cancelled:
            raise asyncio.CancelledError
        return made

    def _prepare(self, body: Any, owner: str | None) -> tuple[Callable[[Any], None], Any, Any,
                                                              Any, Any, Any]:
        """Validate a create body; the write to commit and what ``_created`` needs."""
        if not isinstance(body, dict):
            raise ApiError(400, N_("body: expected a JSON object"))
        known = {"game", "options", "num_players", "seats", "seed"}
        extra = sorted(str(k) for k in set(body) - known)
        if extra:
            raise ApiError(400, N_("unknown field {extra}; allowed: {allowed}",
                                   extra=short(extra[0]), allowed=', '.join(sorted(known))))
        cls = requested_game(body)
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise ApiError(400, N_("options: expected an object of option name -> value"))
        seats_in = body.get("seats")
        n = body.get("num_players")
        if seats_in is None:
            seats_in = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (
                (n if isinstance(n, int) and not isinstance(n, bool) else cls.default_players) - 1
            )
        if not isinstance(seats_in, list) or not seats_in:
            raise ApiError(400, N_("seats: expected a non-empty list of seats"))
        if n is None:
            n = len(seats_in)
        if isinstance(n, bool) or not isinstance(n, int):
            raise ApiError(400, N_("num_players: expected an integer"))
        if len(seats_in) != n:
            raise ApiError(400, N_("seats: {n} players need {n} seats, got {count}",
                                   n=n, count=len(seats_in)))
        seed = body.get("seed")
        if seed is None:
            seed = fresh_seed()
        try:
            check_seed(seed)
        except CitybuildersError as exc:
            raise ApiError(400, message_of(exc)) from None
        try:
            game = load_game(cls.name, **options)
            n = game.check_num_players(n)
        except CitybuildersError as exc:
            raise ApiError(400, message_of(exc)) from None
        seats: list[SeatRow] = []
        bots = set(bot_names())
        for i, s in enumerate(seats_in):
            if not isinstance(s, dict):
                raise ApiError(400, N_("seats[{i}]: expected an object", i=i))
            extra = sorted(str(k) for k in s if k not in SEAT_KEYS)
            if extra:
                raise ApiError(400, N_("seats[{i}]: unknown key {short}; allowed: {allowed}",
                                       i=i, short=short(extra[0]),
                                       allowed=", ".join(SEAT_KEYS)))
            kind = s.get("kind", "human")
            if not isinstance(kind, str) or kind not in SEAT_KINDS:
                raise ApiError(400, N_("seats[{i}].kind: bad value {short}; allowed: {allowed}",
                                       i=i, short=short(kind), allowed=", ".join(SEAT_KINDS)))
            bot = None
            if kind == "bot":
                bot = s.get("bot", "random")
                if not isinstance(bot, str) or bot not in bots:
                    raise ApiError(400, N_("seats[{i}].bot: unknown bot {short}; allowed: "
                                           "{allowed}",
                                           i=i, short=short(bot), allowed=", ".join(sorted(bots))))
            label = seat_name(s.get("name"), f"seats[{i}].name")
            if not label:
                # a default name in the creator's language (``core.i18n.using`` around the
                # request), stored as it is; views show it in the reader's (seat_names)
                label = default_seat_name(kind, bot, i, current())
            token = None if kind == "bot" else secrets.token_urlsafe(18)
            seats.append(SeatRow(i, kind, bot, label, token))
        try:
            state = game.new_initial_state(n, seed)
        except CitybuildersError as exc:
            raise ApiError(400, message_of(exc)) from None
        texts: list[str] = []
        _resolve_chance(state, texts)
        entries = state.history()
        game_id = secrets.token_hex(8)
        header = {"game": game.name, "rules_version": game.rules_version,
                  "options": game.options, "num_players": n, "seed": seed}
        status = _status(state)
        store = self.store

        def write(conn: Any) -> None:
            store.create_game_in(conn, game_id, header, seats, entries, status, owner)

        return write, game_id, header, seats, (state, entries, texts, status), owner

    def _created(self, game_id: str, header: dict[str, Any], seats: list[SeatRow],
                 made: tuple[State, list[tuple[int, int]], list[str], str],
                 owner: str | None) -> tuple[LiveGame, dict[int, str]]:
        """Make a just-committed game live (its row as stored, without reading it back)."""
        state, entries, texts, status = made
        now = time.time()
        row = GameRow(id=game_id, game=header["game"], rules_version=header["rules_version"],
                      options=json.loads(json.dumps(header["options"], sort_keys=True)),
                      num_players=header["num_players"], seed=header["seed"], status=status,
                      version=len(entries), owner=owner, note=None, created_at=now,
                      updated_at=now, seats=list(seats), actions=list(entries))
        row.actions = []  # the state holds the history
        lg = LiveGame(row=row, game=state.game, state=state, log=texts, version=row.version)
        self._install(lg)
        self._ensure_driver(lg)
        return lg, {s.seat: s.token for s in seats if s.token}

    def import_record(self, data: Any, owner: str | None) -> LiveGame:
        """Store a record (JSON object) for replay. Entries ``null`` (hidden outcomes of a
        running game's export) end the replayable part. Raises ApiError 400 on a bad record."""
        try:
            rec = load_record(data)
        except RecordError as exc:
            raise ApiError(400, message_of(exc)) from None
        upto = None
        note = None
        for i, e in enumerate(rec.actions):
            if e is None:
                upto = i
                note = str(N_(IMPORT_NOTE, move=i + 1))
                break
        from ..core.records import replay

        try:
            state = replay(rec, upto)
        except RecordError as exc:
            raise ApiError(400, message_of(exc)) from None
        game_id = secrets.token_hex(8)
        header = {"game": state.game.name, "rules_version": state.game.rules_version,
                  "options": state.game.options, "num_players": state.num_players,
                  "seed": state.seed}
        names = rec.players or [f"Player {i + 1}" for i in range(state.num_players)]
        seats = [SeatRow(i, "human", None, names[i], None) for i in range(state.num_players)]
        try:
            self.store.create_game(game_id, header, seats, state.history(), "imported", owner,
                                   note)
            row = self.store.load_game(game_id)
        except StoreError as exc:
            raise unavailable(exc) from None
        assert row is not None
        texts = self._texts_by_replay(state.game, row)[1]
        row.actions = []
        lg = LiveGame(row=row, game=state.game, state=state, log=texts, version=row.version)
        self._install(lg)
        return lg

    # ------------------------------------------------------------------ memory
    def _install(self, lg: LiveGame) -> None:
        """Make ``lg`` live (most recently used) and keep within ``max_live_games``."""
        lg.evicted = False
        lg.last_used = time.monotonic()
        self.live[lg.id] = lg
        self.live.move_to_end(lg.id)
        self._ensure_sweeper()
        if len(self.live) > self.limits.max_live_games:
            self._trim()

    def _evictable(self, lg: LiveGame) -> bool:
        """Nothing uses ``lg``: no request holds its lock, no bot drives it, no websocket."""
        return (lg.driver is None and not lg.lock.locked() and not lg.connections
                and lg.id not in self._loading)

    def _evict(self, lg: LiveGame) -> None:
        """``lg`` leaves memory (it equals what is stored; the next request replays it)."""
        if self.live.get(lg.id) is lg:
            del self.live[lg.id]
        self._view_lru.pop(lg.id, None)
        lg.views = {}
        lg.evicted = True
        self.evictions += 1

    def _trim(self) -> int:
        """Evict the least recently used evictable games beyond ``max_live_games``."""
        over = len(self.live) - self.limits.max_live_games
        gone = 0
        for lg in list(self.live.values()):
            if gone >= over:
                break
            if self._evictable(lg):
                self._evict(lg)
                gone += 1
        return gone

    def sweep(self, now: float | None = None) -> int:
        """Evict the games idle beyond their limit (finished/imported: ``finished_seconds``,
        running: ``idle_seconds``) and the least recently used beyond ``max_live_games``;
        returns how many left memory. Runs every ``limits.sweep_seconds`` on the event loop."""
        now = time.monotonic() if now is None else now
        lim = self.limits
        gone = 0
        for lg in list(self.live.values()):
            limit = lim.idle_seconds if lg.row.status == "running" else lim.finished_seconds
            if now - lg.last_used >= limit and self._evictable(lg):
                self._evict(lg)
                gone += 1
        if len(self.live) > lim.max_live_games:
            gone += self._trim()
        if gone:
            _release_memory()
        return gone

    def _ensure_sweeper(self) -> None:
        if self._sweeper is None or self._sweeper.done():
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # not on the event loop (blocking helpers, tests)
                return
            self._sweeper = loop.create_task(self._sweep_loop())

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                self.sweep()
            except Exception:  # noqa: BLE001 - the sweeper must keep running
                log.exception("sweeping idle games failed")

    def memory_stats(self) -> dict[str, Any]:
        """``{live_games, evictions, loads, refused, max_live_games, idle_seconds,
        finished_seconds}``: games in memory now, totals since start, and the limits."""
        return {"live_games": len(self.live), "evictions": self.evictions,
                "loads": self.loads, "refused": self.refused,
                "max_live_games": self.limits.max_live_games,
                "idle_seconds": self.limits.idle_seconds,
                "finished_seconds": self.limits.finished_seconds}

    def _current(self, lg: LiveGame) -> None:
        """Check, with ``lg.lock`` held, that ``lg`` is still the game's live copy before
        changing it: a copy dropped after a failed write, or replaced by a newer load, is
        refused (409); one that merely left memory while idle is made live again."""
        if lg.stale or (lg.evicted and (lg.id in self.live or lg.id in self._loading)):
            raise ApiError(409, N_("state_id: stale (the game was reloaded from the database); "
                                   "reload and try again"))
        if lg.evicted:
            self._install(lg)
        lg.last_used = time.monotonic()

    def _drop(self, lg: LiveGame) -> None:
        """After a failed write: ``lg`` leaves memory for good, so the next request replays
        exactly what is stored; its websockets are closed (clients reconnect and reload)."""
        lg.stale = True
        if self.live.get(lg.id) is lg:
            del self.live[lg.id]
        self._view_lru.pop(lg.id, None)
        lg.views = {}
        for ws, _ in list(lg.connections):
            asyncio.get_running_loop().create_task(_close_quietly(ws))
        lg.connections.clear()

    # ------------------------------------------------------------------ loading
    @staticmethod
    def _texts_by_replay(game: Game, row: GameRow, upto: int | None = None
                         ) -> tuple[State, list[str]]:
        """Replay the stored actions; the state and each entry's notation. Raises
        RecordError naming the first entry that does not replay (whatever the engine raised:
        an illegal action, or a ValueError deep inside a rules engine)."""
        state = game.new_initial_state(row.num_players, row.seed)
        texts: list[str] = []
        for i, (actor, action) in enumerate(row.actions[:upto]):
            texts.append(_entry_text(state, actor, action))
            try:
                state.apply_legal(action, actor if actor >= 0 else None)
            except Exception as exc:  # noqa: BLE001 - any engine error = a broken history
                raise RecordError(N_("stored entry {i} (actor {actor}, action {action}) does "
                                     "not replay: {name__}: {exc}",
                                     i=i + 1, actor=actor, action=action, name__=type(exc).__name__, exc=exc)) from None
        return state, texts

    async def get(self, game_id: str) -> LiveGame:
        """The live game ``game_id`` (replayed from the database if needed). 404 if unknown.

        Loading (a database read and an O(moves) replay) runs in the thread pool; concurrent
        requests for the same game share one load, other games are not held up."""
        lg = self.live.get(game_id)
        if lg is not None:
            lg.last_used = time.monotonic()
            self.live.move_to_end(game_id)
            return lg
        if not _valid_id(game_id):
            raise ApiError(404, N_("game '{game_id}' not found", game_id=game_id))
        task = self._loading.get(game_id)
        if task is None:
            # a task of its own: a cancelled first request does not cancel the others' load
            task = asyncio.get_running_loop().create_task(self._load_live(game_id))
            self._loading[game_id] = task
            task.add_done_callback(lambda t: self._loaded(game_id, t))
        return await asyncio.shield(task)

    def _loaded(self, game_id: str, task: asyncio.Task[LiveGame]) -> None:
        self._loading.pop(game_id, None)
        if not task.cancelled():
            task.exception()  # retrieved (the requests that await it re-raise it)

    async def _load_live(self, game_id: str) -> LiveGame:
        loop = asyncio.get_running_loop()
        lg = await loop.run_in_executor(self.executor, self._load, game_id)
        current = self.live.get(game_id)
        if current is not None:
            lg = current
        else:
            self.loads += 1
            self._install(lg)
        if lg.row.status == "running":
            async with lg.lock:
                self._ensure_driver(lg)
        return lg

    def _load(self, game_id: str) -> LiveGame:
        """Read and replay a stored game (runs in a worker thread).

        Consistency check: the stored history must replay and agree with the stored status
        (finished = terminal); otherwise the game is refused with 409 and a log line, never
        served half-loaded. 404 unknown id; 503 database unreadable."""
        try:
            row = self.store.load_game(game_id)
        except StoreError as exc:
            raise unavailable(exc) from None
        except CitybuildersError as exc:
            self._refuse(game_id, exc)
        if row is None:
            raise ApiError(404, N_("game '{game_id}' not found", game_id=game_id))
        try:
            if row.gap is not None:
                raise RecordError(N_("its stored history has a gap: {gap}", gap=row.gap))
            game = load_game(row.game, **row.options)
            if game.rules_version != row.rules_version:
                raise RecordError(
                    N_("stored with rules version {rules_version}, engine has {rules_version2}",
                       rules_version=row.rules_version, rules_version2=game.rules_version))
            state, texts = self._texts_by_replay(game, row)
            if row.status in ("running", "finished") and row.status != _status(state):
                raise RecordError(N_("stored status is {status!r} but its {count} stored "
                                     "entries replay to a {status2!r} game",
                                     status=row.status, count=len(row.actions), status2=_status(state)))
        except CitybuildersError as exc:
            self._refuse(game_id, exc)
        row.actions = []  # the state holds the history
        return LiveGame(row=row, game=game, state=state, log=texts, version=row.version)

    def _refuse(self, game_id: str, exc: Exception) -> Any:
        """Log and raise the 409 of a stored game that cannot be served as stored."""
        self.refused += 1
        log.error("game %s: refusing to load it: %s", game_id, exc)
        raise ApiError(409, N_("game '{game_id}' cannot be loaded: {exc}",
                               game_id=game_id, exc=exc)) from None

    # ------------------------------------------------------------------ seats and tokens
    @staticmethod
    def seat_of(lg: LiveGame, token: str | None) -> int:
        """The seat whose secret token is ``token``. 401 if missing, 403 if wrong."""
        if not token:
            raise ApiError(401, N_("token: missing seat token (the secret in your game link)"))
        # compared as bytes: compare_digest refuses non-ASCII str (a TypeError, i.e. a 500)
        given = token.encode("utf-8", "surrogatepass")
        for s in lg.row.seats:
            if s.token and secrets.compare_digest(s.token.encode("utf-8"), given):
                return s.seat
        spec = lg.row.spectator_token
        if spec and secrets.compare_digest(spec.encode("utf-8"), given):
            return SPECTATOR
        raise ApiError(403, N_("token: this token does not hold a seat of this game"))

    @staticmethod
    def check_player(seat: int) -> None:
        """ApiError 403 if ``seat`` is a spectator's (a spectator link cannot move)."""
        if seat < 0:
            raise ApiError(403, N_("token: this is a spectator link; it can watch but not move"))

    # ------------------------------------------------------------------ moves
    async def act(self, lg: LiveGame, seat: int, body: Any) -> None:
        """Validate and apply a move of ``seat``; commit; resolve chance; wake bots; push.

        Body: ``{"state_id": int, "action": int}`` or ``{"state_id": int, "move": notation}``
        or ``{"state_id": int, "path": [key, ...]}``. Raises ApiError: 400 malformed/illegal,
        409 stale state id or finished game.
        """
        self.check_player(seat)
        if not isinstance(body, dict):
            raise ApiError(400, N_("body: expected a JSON object"))
        extra = sorted(set(body) - {"state_id", "action", "move", "path", "token"})
        if extra:
            raise ApiError(400, N_("unknown field '{extra}'; allowed: state_id, action, move, "
                                   "path, token", extra=extra[0]))
        sid = body.get("state_id")
        if isinstance(sid, bool) or not isinstance(sid, int):
            raise ApiError(400, N_("state_id: expected the integer state id of the view you "
                                   "acted on"))
        async with lg.lock:
            self._current(lg)
            if lg.row.status == "imported":
                raise ApiError(409, N_("this is an imported record: it can only be replayed"))
            if sid != lg.version:
                raise ApiError(409, N_("state_id: stale (the game moved on to state "
                                       "{version}); reload and try again", version=lg.version))
            state = lg.state
            if state.is_terminal():
                raise ApiError(409, N_("the game is over"))
            action = self._parse_action(state, seat, body)
            new = state.clone()
            try:
                new.apply_action(action, seat)
            except IllegalActionError as exc:
                raise ApiError(400, N_("illegal move: {exc}", exc=exc)) from None
            texts = [_entry_text(state, seat, action)]
            await self._commit(lg, new, texts, reply_seat=seat)
        await self.broadcast(lg)

    def _parse_action(self, state: State, seat: int, body: dict[str, Any]) -> int:
        given = [k for k in ("action", "move", "path") if k in body]
        if len(given) > 1:
            raise ApiError(400, N_("body: give exactly one of action, move, path (got "
                                   "{allowed})", allowed=', '.join(given)))
        if "action" in body:
            a = body["action"]
            if isinstance(a, bool) or not isinstance(a, int):
                raise ApiError(400, N_("action: expected an integer action id"))
            n = state.game.num_distinct_actions()
            if not 0 <= a < n:
                raise ApiError(400, N_("action: expected an action id from 0 to {n}, got {a}",
                                       n=n - 1, a=a))
            if seat not in state.active_players():
                raise ApiError(400, N_("illegal move: it is not seat {seat}'s turn", seat=seat))
            return a
        if "move" in body:
            text = body["move"]
            if not isinstance(text, str):
                raise ApiError(400, N_("move: expected the move's notation as a string"))
            if len(text) > NOTATION_MAX:
                raise ApiError(400, N_("move: a move's notation has at most {limit} characters, "
                                       "got {count}: {short}", limit=NOTATION_MAX,
                                       count=len(text), short=short(text)))
            if seat not in state.active_players():
                raise ApiError(400, N_("illegal move: it is not seat {seat}'s turn", seat=seat))
            try:
                return state.string_to_action(text, seat)
            except IllegalActionError as exc:
                raise ApiError(400, N_("illegal move: {exc}", exc=exc)) from None
        if "path" in body:
            path = body["path"]
            if not isinstance(path, list) or not all(isinstance(k, str) for k in path):
                raise ApiError(400, N_("path: expected a list of key strings"))
            if len(path) > PATH_MAX:
                raise ApiError(400, N_("path: a move's click path has at most {limit} keys, "
                                       "got {count}", limit=PATH_MAX, count=len(path)))
            if seat not in state.active_players():
                raise ApiError(400, N_("illegal move: it is not seat {seat}'s turn", seat=seat))
            hits = [a for a in state.legal_actions(seat)
                    if list(state.action_path(a, seat)) == path]
            if len(hits) != 1:
                raise ApiError(400, N_("illegal move: path {path} matches {count} legal moves",
                                       path=short(" ".join(path)), count=len(hits)))
            return hits[0]
        raise ApiError(400, N_("action: give one of 'action' (id), 'move' (notation) or 'path'"))

    async def _write(self, lg: LiveGame, fn: Callable[[Any], None],
                     meanwhile: Callable[[], None] | None = None) -> bool:
        """Commit ``fn(conn)`` through the writer thread (group commit) and wait for it, even
        through a cancellation; ``meanwhile()`` runs on the event loop while the writer
        flushes. Returns whether the caller was cancelled meanwhile (it must then make the
        change current and raise ``CancelledError``).

        If the write failed, nothing is acknowledged: ``lg`` is dropped from memory (the next
        request replays what is stored, so memory and database cannot disagree even if the
        database failed after storing) and ApiError 503 with ``Retry-After`` is raised."""
        fut = asyncio.wrap_future(self.store.submit(fn))
        if meanwhile is not None:
            meanwhile()
        cancelled = await _until_done(fut)
        exc = fut.exception()
        if isinstance(exc, StaleWrite):  # another server changed the game first
            await self._stale_write(lg)
            if cancelled:
                raise asyncio.CancelledError
            raise StaleConflict(lg.version)
        if exc is not None:
            log.error("database write failed (game %s): %s", lg.id, exc)
            self._drop(lg)
            if cancelled:
                raise asyncio.CancelledError
            raise unavailable(self.store.error(exc))
        return cancelled

    async def _stale_write(self, lg: LiveGame) -> None:
        """After a StaleWrite (called with ``lg.lock`` held): the stored game is not the one
        in memory. With one server per database this cannot happen; if it does, ``lg`` leaves
        memory and the next request replays what is stored. (``cluster.SharedGameManager``
        reloads it in place instead.)"""
        log.warning("game %s: the stored game moved on under this server; reloading it", lg.id)
        self._drop(lg)

    async def _commit(self, lg: LiveGame, new: State, texts: list[str],
                      reply_seat: int | None = None) -> None:
        """Resolve chance on ``new``, commit the new entries, then make ``new`` current
        (call with ``lg.lock`` held; the lock is kept across the commit).

        While the writer thread flushes, the views of ``reply_seat`` and of every seat with a
        websocket are rendered for the new state; they are cached (and so sent) only once the
        commit succeeded."""
        start = lg.state.move_number()
        _resolve_chance(new, texts)
        entries = new.history()[start:]
        version = lg.version + 1
        status = _status(new)
        store, gid, expected = self.store, lg.id, lg.version
        log_after = lg.log + texts
        pre: dict[int, tuple[tuple[int, str | None], bytes]] = {}

        def prerender() -> None:
            seats = {s for _, s in lg.connections}
            if reply_seat is not None:
                seats.add(reply_seat)
            if not seats:
                return
            pending = replace(lg, state=new, version=version, log=log_after,
                              row=replace(lg.row, status=status), views={})
            for seat in sorted(seats):
                try:
                    pre[seat] = ((version, lg.bot_error), dumps(self.view(pending, seat)))
                except Exception:  # noqa: BLE001 - built again on demand
                    log.exception("pre-rendering the view of seat %s failed", seat)

        cancelled = await self._write(lg, lambda conn: store.change_in(
            conn, gid, expected, start, entries, version, status), prerender)
        lg.last_used = time.monotonic()
        lg.state, lg.version = new, version
        lg.log = log_after
        lg.row.status = status
        lg.views = pre
        if pre:
            self._touch_views(lg)
        self._ensure_driver(lg)
        if cancelled:
            raise asyncio.CancelledError

    async def undo(self, lg: LiveGame, seat: int, body: Any) -> None:
        """Take back ``seat``'s last action (BGA policy, ``core.undo``). 400 if not allowed.

        In simultaneous games (per-player undo) the entry taken back may lie before other
        seats' later entries: the stored rows from that index are rewritten in the same
        transaction (``Store.change_in`` with ``rewrite``) and the log from there is rebuilt,
        so the database, the log and every seat's view equal what a restart replays."""
        self.check_player(seat)
        if not isinstance(body, dict):
            raise ApiError(400, N_("body: expected a JSON object"))
        sid = body.get("state_id")
        if isinstance(sid, bool) or not isinstance(sid, int):
            raise ApiError(400, N_("state_id: expected the integer state id of the view you "
                                   "acted on"))
        async with lg.lock:
            self._current(lg)
            if sid != lg.version:
                raise ApiError(409, N_("state_id: stale (the game moved on to state "
                                       "{version}); reload and try again", version=lg.version))
            if lg.row.status != "running":
                raise ApiError(409, N_("the game is over"))
            try:
                new = core_undo.undo_last(lg.state, seat)
            except IllegalActionError as exc:
                raise ApiError(400, N_("undo: {exc}", exc=exc)) from None
            old_hist, new_hist = lg.state.history(), new.history()
            start = next((i for i, (a, b) in enumerate(zip(old_hist, new_hist)) if a != b),
                         len(new_hist))
            tail = new_hist[start:]
            log_after = lg.log[:start] + _texts_from(new, start)
            version = lg.version + 1
            status = _status(new)
            store, gid, expected = self.store, lg.id, lg.version
            cancelled = await self._write(lg, lambda conn: store.change_in(
                conn, gid, expected, start, tail, version, status, rewrite=True))
            lg.last_used = time.monotonic()
            lg.state, lg.version = new, version
            lg.log = log_after
            lg.row.status = status
            if cancelled:
                raise asyncio.CancelledError
        await self.broadcast(lg)

    # ------------------------------------------------------------------ bots
    def _bot_seats(self, lg: LiveGame) -> list[int]:
        by_seat = {s.seat: s for s in lg.row.seats}
        return [p for p in lg.state.active_players() if by_seat[p].kind == "bot"]

    def _ensure_driver(self, lg: LiveGame) -> None:
        """Start the bot driver if a bot is to act (call with ``lg.lock`` held)."""
        if lg.driver is None and lg.row.status == "running" and self._bot_seats(lg):
            lg.driver = asyncio.get_running_loop().create_task(self._drive(lg))

    async def _drive(self, lg: LiveGame) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with lg.lock:
                seats = (self._bot_seats(lg)
                         if lg.row.status == "running" and not lg.stale else [])
                if not seats:
                    lg.driver = None
                    return
                seat = seats[0]
                version = lg.version
                snapshot = lg.state.clone()
                bot = lg.bots.get(seat)
                if bot is None:
                    name = next(s.bot for s in lg.row.seats if s.seat == seat)
                    bot = lg.bots[seat] = make_bot(name or "random", fresh_seed())
            try:
                action = await loop.run_in_executor(self.executor, bot.step, snapshot, seat)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a broken bot must not kill the server
                log.exception("bot of seat %s in game %s failed", seat, lg.id)
                async with lg.lock:
                    lg.bot_error = f"the bot of seat {seat + 1} failed: {exc}"
                    lg.views.clear()
                    lg.driver = None
                await self.broadcast(lg)
                return
            async with lg.lock:
                if lg.stale:  # dropped after a failed write: the reloaded copy drives itself
                    lg.driver = None
                    return
                if lg.version != version:
                    continue  # someone else moved meanwhile (simultaneous phase): think again
                new = lg.state.clone()
                try:
                    new.apply_action(action, seat)
                except IllegalActionError as exc:
                    lg.bot_error = N_("the bot of seat {num} chose an illegal move: {error}",
                                      num=seat + 1, error=message_of(exc))
                    lg.views.clear()
                    lg.driver = None
                    return
                try:
                    await self._commit(lg, new, [_entry_text(lg.state, seat, action)])
                except StaleConflict:  # another server moved first: think again on its state
                    continue
                except ApiError as exc:
                    lg.bot_error = N_("the move of the bot of seat {num}: {error}",
                                      num=seat + 1, error=exc.message)
                    lg.views.clear()
                    lg.driver = None
                    return
            await self.broadcast(lg)

    # ------------------------------------------------------------------ views
    def seat_label(self, lg: LiveGame, actor: int, lang: str = DEFAULT_LANG) -> str:
        """Who made a history entry: a seat name, ``chance`` or ``draw (seat k)``."""
        if actor >= 0:
            return seat_names(lg.row.seats, lang)[actor]
        return localize(N_("chance"), lang)

    def log_for(self, lg: LiveGame, seat: int | None, upto: int | None = None,
                lang: str = DEFAULT_LANG) -> list[dict[str, Any]]:
        """The game log as ``seat`` may see it: ``[{n, actor, who, text}]``; a draw only another
        player may see reads ``(hidden)``. ``seat`` None = everything (finished games)."""
        out = []
        hist = lg.state.history()
        if upto is not None:
            hist = hist[:upto]
        names = seat_names(lg.row.seats, lang)
        chance = self.seat_label(lg, -1, lang)
        hidden_text = localize(N_("(hidden)"), lang)
        draw_for = [localize(N_("draw for {name}", name=n), lang) for n in names]
        for i, (actor, action) in enumerate(hist):
            viewer = chance_viewer_of(actor)
            hidden = seat is not None and viewer is not None and viewer != seat
            who = (names[actor] if actor >= 0 else chance) if viewer is None else draw_for[viewer]
            out.append({"n": i + 1, "actor": actor if actor >= 0 else None, "who": who,
                        "text": hidden_text if hidden else notation_text(lg.game, lg.log[i], lang),
                        "keys": [] if hidden else _log_keys(lg.game, lg.log[i])})
        return out

    def view(self, lg: LiveGame, seat: int, state: State | None = None,
             log_upto: int | None = None, own_seat: bool = True,
             lang: str = DEFAULT_LANG) -> dict[str, Any]:
        """Everything seat ``seat`` may see, as JSON: observation (and its human-readable
        ``display`` panels), SVG, legal moves with click paths, scores, log, undo count,
        result (with a one-line ``summary`` and ``outcome``); once terminal, ``explain``: what
        scored each part (``server/explain.py``: seat -> part -> board keys). Never another
        seat's secrets.

        ``own_seat`` False: a replay watched without a seat token (finished or imported game),
        so ``you`` is None and no seat is labelled "(you)". ``lang``: the language of the
        texts for people (summary, log labels, panels, bot error); keys and notation stay."""
        st = lg.state if state is None else state
        spectator = seat < 0
        if spectator:
            own_seat = False
        active = st.active_players()
        terminal = st.is_terminal()
        legal = []
        live = state is None and lg.row.status == "running"
        if live and seat in active:
            actions = st.legal_actions(seat)
            try:  # moves that cannot be undone: the page asks for a confirmation first
                final = lg.game.view.final_actions(st, seat, actions)
            except Exception:  # noqa: BLE001
                final = set()
            for a in actions:
                try:
                    path = [str(k) for k in st.action_path(a, seat)]
                except Exception:  # noqa: BLE001
                    path = [_entry_text(st, seat, a)]
                legal.append({"action": a, "text": notation_text(lg.game, _entry_text(st, seat, a),
                                                                 lang), "path": path,
                              "final": a in final})
        prompt = None
        if legal:
            try:  # the status line's "what to do now" (None: the page words it)
                prompt = lg.game.view.prompt(st, seat, [e["path"] for e in legal], lang)
            except Exception:  # noqa: BLE001 - a wording problem must not block the game
                log.warning("prompt of %s failed", lg.game.name, exc_info=True)
        try:
            with using(lang):  # names such as "(you)" drawn in the reader's language
                svg = lg.game.view.render_svg(st, None if spectator else seat, lang)
        except Exception as exc:  # noqa: BLE001 - show the error instead of failing the move
            log.warning("render_svg of %s failed: %s", lg.game.name, exc)
            svg = ("<svg xmlns='http://www.w3.org/2000/svg'><text y='20'>render error: "
                   f"{esc(exc)}</text></svg>")
        scores = [s.to_dict() for s in st.scores()]
        obs = _jsonable(public_observation(st) if spectator else st.observation(seat))
        names = seat_names(lg.row.seats, lang)
        result = None
        if terminal:
            try:
                winners = st.winners()
            except Exception:  # noqa: BLE001
                winners = []
            info = _jsonable(st.result_info()) or {}
            result = {"winners": winners, "returns": st.returns(), "info": info}
            result.update(_result_summary(lg, st, winners, info,
                                          seat if own_seat else None, lang))
        return {
            "game_id": lg.id,
            "game": lg.game.name,
            "title": lg.game.title or lg.game.name,
            "status": lg.row.status,
            "state_id": lg.version,
            "move_number": st.move_number(),
            "seat": seat,
            "num_players": st.num_players,
            "cooperative": bool(getattr(lg.game, "cooperative", False)),
            "simultaneous": bool(getattr(lg.game, "simultaneous", False)),
            "seats": [{"seat": s.seat, "name": name, "kind": s.kind, "bot": s.bot}
                      for s, name in zip(lg.row.seats, names)],
            "current_player": st.current_player(),
            "active_players": active,
            "terminal": terminal,
            "observation": obs,
            "display": display_panels(lg.game, obs, names, seat if own_seat else None,
                                      terminal, lang=lang),
            "you": seat if own_seat else None,
            "svg": svg,
            "legal": legal,
            "prompt": prompt,
            "scores": scores,
            "score_labels": score_labels(lg.game, list(dict.fromkeys(
                k for s in scores for k in (s.get("parts") or {}))), lang),
            "log": self.log_for(lg, seat if lg.row.status == "running" else None,
                                log_upto if state is not None else None, lang),
            "undoable": core_undo.undoable_count(st, seat) if live and not spectator else 0,
            "spectator": spectator,
            "result": result,
            "bot_error": localize(lg.bot_error, lang) if lg.bot_error else lg.bot_error,
            "options": lg.game.options,
            "legend": _legend(lg.game, lang),
            "explain": explain_state(lg.game.name, st) if terminal else {},
            "words": notation_words(lg.game, lang),
        }

    def view_json(self, lg: LiveGame, seat: int, lang: str = DEFAULT_LANG) -> bytes:
        """``view(lg, seat)`` serialised as JSON, built once per state id and seat (cached
        until the game changes), so a move's reply, the other seats' refreshes and every
        websocket of a seat share one rendering."""
        key = (lg.version, lg.bot_error)
        slot: Any = seat if lang == DEFAULT_LANG else (seat, lang)  # English is pre-rendered
        hit = lg.views.get(slot)
        if hit is not None and hit[0] == key:
            self._touch_views(lg)
            return hit[1]
        data = dumps(self.view(lg, seat, lang=lang))
        lg.views[slot] = (key, data)
        self._touch_views(lg)
        return data

    def _touch_views(self, lg: LiveGame) -> None:
        """Mark ``lg``'s cached views recently used; drop the views of the least recently used
        games beyond ``VIEW_CACHE_GAMES`` (they are rendered again on demand)."""
        lru = self._view_lru
        lru[lg.id] = None
        lru.move_to_end(lg.id)
        while len(lru) > VIEW_CACHE_GAMES:
            old, _ = lru.popitem(last=False)
            other = self.live.get(old)
            if other is not None:
                other.views = {}

    def record_for(self, lg: LiveGame, seat: int | None) -> dict[str, Any]:
        """The record: full for a finished/imported game; for a running game the history as
        ``seat`` may see it (hidden outcomes ``null``) with ``"complete": false``."""
        rec = record_of(lg.state).to_json()
        rec["players"] = [s.name for s in lg.row.seats]
        if lg.row.status in ("finished", "imported") or seat is None:
            rec["complete"] = lg.state.is_terminal()
            return rec
        simultaneous = lg.game.simultaneous
        actions: list[Any] = []
        for actor, action in lg.state.history():
            viewer = chance_viewer_of(actor)
            if viewer is not None and viewer != seat:
                actions.append(None)
            elif actor >= 0 and simultaneous:
                actions.append([actor, action])
            else:
                actions.append(action)
        rec["actions"] = actions
        rec["complete"] = False
        return rec

    def replay_state(self, lg: LiveGame, step: int) -> State:
        """The state after the first ``step`` history entries (exact replay)."""
        return core_undo.rebuild(lg.state, step)

    # ------------------------------------------------------------------ websockets
    async def broadcast(self, lg: LiveGame) -> None:
        """Queue for each connected client the fresh view of its own seat; never waits on a
        client (see ``WsClient``: a client whose queue is full is dropped)."""
        broadcast_views(self, lg)


IMPORT_NOTE = N_("the record hides move {move} (a draw you could not see); replay stops before "
                 "it").template
"""The note stored with an imported record that hides a draw (English in the database)."""


def note_text(note: str | None, lang: str) -> str | None:
    """A stored note in ``lang`` (the notes are English in the database: the import note is
    recognised and translated; any other text is shown as it is)."""
    if not note or lang == DEFAULT_LANG:
        return note
    pattern = "^" + re.escape(IMPORT_NOTE).replace(re.escape("{move}"), r"(\d+)") + "$"
    m = re.match(pattern, note)
    return localize(N_(IMPORT_NOTE, move=int(m.group(1))), lang) if m else note


def public_observation(st: State) -> Any:
    """What anyone may see of ``st`` (a spectator): ``st.observation(None)``, the view of no
    player, where the game supports it (Kingdom Builder, Sprawlopolis, Roll Builder: no hand,
    no own card); else ``{}`` (the board SVG, scores and log still show the public game)."""
    try:
        return st.observation(None)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - a game whose observation needs a seat shows nothing
        return {}


def _result_summary(lg: LiveGame, st: State, winners: list[int], info: dict[str, Any],
                    you: int | None, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """The end screen's headline: ``{"summary": one line, "outcome": "won"|"lost"|None}``.

    Cooperative games: won or lost together, with the target (``result_info()["target"]``,
    e.g. Sprawlopolis) and the shared score. A solo competitive game: the final score and the
    solo rank (``result_info()["rank"]``: Roll into Town, Roll Builder). Otherwise the
    winner(s) after the game's tie-breaks, and whether ``you`` won."""
    n = st.num_players
    names = seat_names(lg.row.seats, lang)
    scores = st.scores()
    if getattr(lg.game, "cooperative", False):
        returns = st.returns()
        won = bool(info["won"]) if "won" in info else bool(returns) and returns[0] > 0
        total = scores[0].total if scores else 0
        target = info.get("target")
        solo = n == 1
        if won and target is not None:
            msg = (N_("You won! Score {total}, target {target} reached", total=total,
                      target=target) if solo else
                   N_("Together you won! Score {total}, target {target} reached", total=total,
                      target=target))
        elif won:
            msg = (N_("You won! Score {total}", total=total) if solo else
                   N_("Together you won! Score {total}", total=total))
        elif target is not None:
            msg = (N_("You lost: score {total}, target {target} not reached", total=total,
                      target=target) if solo else
                   N_("Together you lost: score {total}, target {target} not reached",
                      total=total, target=target))
        else:
            msg = (N_("You lost: score {total}", total=total) if solo else
                   N_("Together you lost: score {total}", total=total))
        return {"summary": localize(msg, lang), "outcome": "won" if won else "lost"}
    if n == 1:
        total = scores[0].total if scores else 0
        rank = info.get("rank")
        if rank and lang != DEFAULT_LANG:
            tables = texts_for(lg.game, lang)
            rank = getattr(tables, "RANK_NAMES", {}).get(rank, rank)
        msg = (N_("Final score: {total} · your rank: {rank}", total=total, rank=rank) if rank
               else N_("Final score: {total}", total=total))
        return {"summary": localize(msg, lang), "outcome": None}
    if not winners:
        return {"summary": localize(N_("No winner"), lang),
                "outcome": None if you is None else "lost"}
    label = ", ".join(localize(N_("{name} (you)", name=names[p]), lang) if p == you
                      else names[p] for p in winners)
    msg = (N_("Winner: {names}", names=label) if len(winners) == 1
           else N_("Shared win: {names}", names=label))
    outcome = None if you is None else ("won" if you in winners else "lost")
    return {"summary": localize(msg, lang), "outcome": outcome}


def _log_keys(game: Game, text: str) -> list[str]:
    """The board elements a log line names (``View.log_keys``); never raises."""
    try:
        return [str(k) for k in game.view.log_keys(text)]
    except Exception:  # noqa: BLE001 - a highlight is never worth a failed view
        return []


def _legend(game: Game, lang: str = "en") -> list[list[str]]:
    """The board's symbol key (``View.legend``) in ``lang`` as ``[[symbol, meaning], ...]``;
    never raises."""
    try:
        return [[str(a), str(b)] for a, b in game.view.legend(lang)]
    except Exception:  # noqa: BLE001
        return []


def _texts_from(state: State, start: int) -> list[str]:
    """Notation of ``state``'s history entries from index ``start`` on, each computed on the
    position before it, as a replay from the stored actions computes them."""
    hist = state.history()
    s = core_undo.rebuild(state, upto=start)
    texts = []
    for actor, action in hist[start:]:
        texts.append(_entry_text(s, actor, action))
        s.apply_legal(action, actor if actor >= 0 else None)
    return texts


async def _close_quietly(ws: Any) -> None:
    """Close a websocket with 1012 (service restart: the client reconnects and reloads)."""
    try:
        await ws.close(code=1012)
    except Exception:  # noqa: BLE001 - already closed
        pass


_LIBC: Any = None


def _release_memory() -> None:
    """After games left memory: collect cycles and hand freed heap pages back to the OS
    (glibc ``malloc_trim``), so the process' RSS falls back instead of staying at its peak."""
    global _LIBC
    gc.collect()
    if _LIBC is None:
        name = ctypes.util.find_library("c")
        try:
            _LIBC = ctypes.CDLL(name) if name else False
        except OSError:  # pragma: no cover - no C library to load
            _LIBC = False
    trim = getattr(_LIBC, "malloc_trim", None) if _LIBC else None
    if trim is not None:
        trim(0)


def ws_view_message(view: bytes) -> str:
    """The websocket message ``{"type": "view", "view": ...}`` around a serialised view."""
    return '{"type":"view","view":' + view.decode("utf-8") + "}"


def _valid_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 32 and all(c in "0123456789abcdef" for c in game_id)


def _jsonable(obj: Any) -> Any:
    """Convert tuples/sets/frozensets to lists recursively (observations are JSON-able)."""
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(_jsonable(v) for v in obj)
    return obj


def option_form_specs(cls: type[Game]) -> list[dict[str, Any]]:
    """The game's ``option_specs`` as JSON for the create-game form."""
    out = []
    for o in cls.option_specs:
        out.append({
            "name": o.name, "default": o.default, "doc": o.doc, "note": o.note,
            "type": o.type.__name__, "choices": list(o.choices) if o.choices is not None else None,
            "minimum": o.minimum, "maximum": o.maximum, "kind": o.kind, "source": o.source,
            "alternatives": dict(o.alternatives), "allowed": o.allowed_text(),
            "label": o.title, "question": o.question, "expansion": o.expansion,
            "value_labels": [o.value_label(c) for c in o.choices] if o.choices is not None
            else None,
            "alternative_labels": {k: o.value_label(k) for k in o.alternatives},
        })
    return out


def parse_form_options(cls: type[Game], form: dict[str, list[str]]) -> dict[str, Any]:
    """Options from an HTML form (``opt.<name>`` fields). Raises OptionError on bad text."""
    from ..core.options import parse_option_text

    out: dict[str, Any] = {}
    for o in cls.option_specs:
        key = f"opt.{o.name}"
        if o.type is bool:  # a checkbox: absent or empty is false, "on" (or 1/true/yes) true
            text = form[key][-1] if key in form else ""
            out[o.name] = text != "" and parse_option_text(o, text)
            continue
        if key not in form:
            continue
        if o.type is list:
            vals = [v for v in form[key] if v != ""]
            if len(vals) == 1 and "," in vals[0]:
                out[o.name] = parse_option_text(o, vals[0])
                continue
            conv: list[Any] = []
            for v in vals:
                if v.lstrip("-").isdigit() and (
                    o.choices is None or any(isinstance(c, int) for c in o.choices)):
                    conv.append(int(v))
                else:
                    conv.append(v)
            if conv or o.default is not None:
                out[o.name] = conv
            continue
        text = form[key][-1]
        if text == "" or text == "__default__":
            continue
        if o.choices is not None and o.type is not str:
            matches = [c for c in o.choices if str(c) == text]
            if matches:
                out[o.name] = matches[0]
                continue
        out[o.name] = parse_option_text(o, text)
    return out


__all__ += ["option_form_specs", "parse_form_options"]


# ---------------------------------------------------------------------- websocket send path
WS_SEND_QUEUE = 8
"""Messages a websocket may have waiting to be written before it is dropped (a view is a full
snapshot, so a client that falls this far behind just reconnects and gets the current one)."""
WS_CLOSE_TOO_SLOW = 4008
"""Close code for a client dropped because it did not read (the play page reconnects)."""
WS_CLOSE_TIMEOUT = 1.0
"""Seconds the close handshake of a dropped client may take before it is abandoned."""


class WsClient:
    """One websocket connection: its seat, a bounded outbox and the one task that writes to
    the socket.

    ``offer(text)`` never waits: it queues the message, or, when ``WS_SEND_QUEUE`` messages are
    already waiting (the client does not read), drops the client: the sender stops, the socket
    is closed with code ``WS_CLOSE_TOO_SLOW`` (if the close can still be written within
    ``WS_CLOSE_TIMEOUT`` s) and ``done`` is set. Moves, bots and other clients never wait on a
    slow socket. Every message to the client (views, pongs, errors) goes through the outbox, so
    one task writes to the socket at a time."""

    def __init__(self, ws: Any, seat: int, maxsize: int = WS_SEND_QUEUE) -> None:
        self.ws = ws
        self.seat = seat
        self.lang = DEFAULT_LANG  # the client's language (the websocket's ?lang=)
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize)
        self.done = asyncio.Event()
        self.close_code: int | None = None
        self.task: asyncio.Task[None] | None = None
        self.views = True
        """False for a presence-only connection (online.js): it gets presence and rematch
        messages, never views."""

    def start(self) -> None:
        """Start the sender task (on the running event loop)."""
        self.task = asyncio.get_running_loop().create_task(self._send_loop())

    def offer(self, text: str) -> bool:
        """Queue ``text`` without waiting; False if the client is (now) dropped."""
        if self.done.is_set():
            return False
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("websocket of seat %s dropped: %s messages unread", self.seat,
                     self.queue.maxsize)
            self.drop(WS_CLOSE_TOO_SLOW)
            return False
        return True

    def drop(self, code: int) -> None:
        """Stop sending and close the socket with ``code`` (in the background)."""
        if self.done.is_set():
            return
        self.close_code = code
        self.done.set()
        if self.task is not None:
            self.task.cancel()
        asyncio.get_running_loop().create_task(self._close(code))

    async def _close(self, code: int) -> None:
        try:
            await asyncio.wait_for(self.ws.close(code=code), WS_CLOSE_TIMEOUT)
        except Exception:  # noqa: BLE001 - the socket is gone or stuck: nothing more to do
            pass

    async def _send_loop(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                await self.ws.send_text(text)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - a closed socket ends its sender
            self.done.set()

    async def stop(self) -> None:
        """End the sender (the connection is over)."""
        self.done.set()
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except BaseException:  # noqa: BLE001 - cancelled or failed: both are the end
                pass


def broadcast_views(manager: GameManager, lg: LiveGame) -> None:
    """Offer each websocket client of ``lg`` the current view of its seat (rendered once per
    seat); dropped clients leave ``lg.connections``."""
    if not lg.connections:
        return
    views: dict[tuple[int, str], str] = {}
    for conn in list(lg.connections):
        client, seat = conn
        if not getattr(client, "views", True):
            continue
        slot = (seat, client.lang)
        if slot not in views:
            views[slot] = ws_view_message(manager.view_json(lg, seat, client.lang))
        if not client.offer(views[slot]):
            lg.connections.discard(conn)


__all__ += ["WsClient", "broadcast_views", "WS_SEND_QUEUE", "WS_CLOSE_TOO_SLOW"]
