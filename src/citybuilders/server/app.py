"""The FastAPI application: pages (Jinja2), JSON API and WebSocket live updates.

``create_app(db_url)`` builds the app on a database (default: SQLite in the user data dir);
``run(host, port, db)`` serves it with uvicorn. Endpoints and the security model are described
in docs/server.md.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import math
import re
import secrets
import time
from collections import deque
from datetime import datetime, timezone
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, AsyncIterator
from urllib.parse import urlencode, urlsplit

from babel.dates import format_datetime
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from markupsafe import Markup
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (FileResponse, HTMLResponse, JSONResponse, RedirectResponse,
                               Response)
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from ..bots import bot_names
from ..bots.levels import LEVELS
from ..core.errors import CitybuildersError
from ..core.i18n import (DEFAULT, LANGUAGES, N_, babel_locale, js_strings, json_reason, localize,
                         message_of, negotiate, normalize, translations, using)
from ..core.jsonsafe import unicode_problem
from ..core.registry import game_class, load_game, registered_games
from ..core.view import esc
from . import hints, online
from .manager import (SPECTATOR, ApiError, GameManager, LiveGame, MemoryLimits, WsClient,
                      BOT_LEVEL_NAMES, note_text, option_form_specs, parse_form_options,
                      requested_game, seat_name, seat_names, unavailable, ws_view_message)
from .cluster import SharedGameManager, make_manager, open_store
from .scorer import score_router
from .store import StoreError
from .validate import (DOC_OPTIONS, REFUSED_OPTIONS, check_create_body, check_new_options,
                       check_options, check_player_count, check_record)

__all__ = ["create_app", "run"]

log = logging.getLogger("citybuilders.server")

HERE = Path(__file__).parent
OWNER_COOKIE = "cb_owner"
OWNER_RX = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""An owner cookie as this server makes them (``secrets.token_urlsafe(16)``: 22 characters)."""
LANG_COOKIE = "cb_lang"
MAX_BODY = 2_000_000
"""Largest request body in bytes (counted while it arrives: 413 past it)."""
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
"""The Content-Security-Policy of every response: no inline script or style anywhere."""
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: "
            "https://fastapi.tiangolo.com; object-src 'none'; base-uri 'none'; "
            "frame-ancestors 'none'")
"""The policy of the interactive API docs page only (/api/docs: FastAPI's Swagger UI)."""
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
WS_MAX_MESSAGE = 65536
"""Largest websocket message a client may send (they send only pings and refreshes)."""
_HTTP_MESSAGES = {
    404: N_("no such page or API endpoint (see /api/docs)"),
    405: N_("method not allowed here"),
}
_VALIDATION_MESSAGES = {
    "missing": N_("this value is required"),
    "int_parsing": N_("expected a whole number"),
    "int_type": N_("expected a whole number"),
    "float_parsing": N_("expected a number"),
    "bool_parsing": N_("expected true or false"),
    "string_type": N_("expected a text"),
    "json_invalid": N_("not valid JSON"),
}
"""pydantic's error types of path and query parameters -> our message, shown in the request's
language (English keeps pydantic's own message)."""
LANGUAGE_NAMES = {"en": "English", "pt_BR": "Português (Brasil)", "zh_Hant": "繁體中文"}
"""Each language in its own words (the language switch on every page)."""


_OUTER_SEND: contextvars.ContextVar[Any] = contextvars.ContextVar("cb_outer_send")


class CompressMiddleware:
    """Starlette's GZipMiddleware, except that ``http.response.debug`` messages (the name and
    context of the template that rendered a page, sent only where the server offers that ASGI
    extension, as the test client does) pass around the compressor, which would drop them."""

    def __init__(self, app: Any, **options: Any) -> None:
        self.app = app
        self.gzip = GZipMiddleware(self._inner, **options)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        token = _OUTER_SEND.set(send)
        try:
            await self.gzip(scope, receive, send)
        finally:
            _OUTER_SEND.reset(token)

    async def _inner(self, scope: Any, receive: Any, send: Any) -> None:
        outer = _OUTER_SEND.get()

        async def split(message: Any) -> None:
            await (outer if message["type"] == "http.response.debug" else send)(message)

        await self.app(scope, receive, split)


class SecurityMiddleware:
    """Pure ASGI middleware: the security headers on every HTTP response (``CSP``,
    ``SECURITY_HEADERS``) and the request body limit, enforced while the body streams in.

    A declared ``Content-Length`` over ``max_body`` is answered 413 at once (``/api/``: the
    JSON error; a page: its endpoint's first read raises ApiError 413, answered by the HTML
    error page); a body that grows past it (chunked uploads) makes the endpoint's read raise
    ApiError 413, so at most ``max_body`` bytes (plus one chunk) are ever held."""

    def __init__(self, app: Any, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = DOCS_CSP if scope.get("path") == "/api/docs" else CSP
        extra = [(b"content-security-policy", csp.encode())] + SECURITY_HEADERS

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", [])
                           if h[0].lower() not in {k for k, _ in extra}]
                message = dict(message, headers=headers + extra)
            await send(message)

        limit = self.max_body
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                size = -1
            if size > limit and not str(scope.get("path", "")).startswith("/api/"):
                # a page (the lobby's forms): the endpoint's first read raises ApiError 413,
                # answered by the app's HTML error page; nothing of the body is read
                async def refuse() -> dict[str, Any]:
                    raise ApiError(413, N_("body: larger than {limit} bytes", limit=limit),
                                   headers={"Connection": "close"})

                await self.app(scope, refuse, send_with_headers)
                return
            if size > limit or size < 0:
                problem = localize(N_("body: larger than {limit} bytes", limit=limit)
                                   if size > limit else
                                   N_("Content-Length: expected a byte count"),
                                   api_language(Request(scope)))
                status = 413 if size > limit else 400
                resp = JSONResponse({"error": problem}, status_code=status,
                                    headers={"Connection": "close"})
                await resp(scope, receive, send_with_headers)
                return
        seen = 0

        async def counted_receive() -> dict[str, Any]:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise ApiError(413, N_("body: larger than {limit} bytes", limit=limit))
            return message

        await self.app(scope, counted_receive, send_with_headers)


class LanguageCookieMiddleware:
    """Pure ASGI middleware: a page opened with ``?lang=`` (``/?lang=pt-BR``) also sets the
    ``cb_lang`` cookie, as the language switch does, so the language lasts beyond that page:
    the links and forms it holds ("Play vs bot", "resume") open their pages in it. API calls,
    static files and pictures never set it (the page scripts send their page's ``lang``)."""

    SKIP = ("/api/", "/static/", "/thumb/", "/ws/", "/lang/")

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or scope.get("method") != "GET" or path.startswith(self.SKIP):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        lang = normalize(request.query_params.get("lang"))
        if lang is None or normalize(request.cookies.get(LANG_COOKIE)) == lang:
            await self.app(scope, receive, send)
            return
        cookie = (f"{LANG_COOKIE}={lang}; Max-Age={365 * 86400}; Path=/; SameSite=lax"
                  ).encode("latin-1")

        async def send_with_cookie(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = dict(message, headers=[*message.get("headers", []),
                                                 (b"set-cookie", cookie)])
            await send(message)

        await self.app(scope, receive, send_with_cookie)


class RateLimiter:
    """At most ``per_minute`` events per client key in any 60 s window (sliding log).

    ``hit(key)`` records an event, or returns the seconds until one is allowed again."""

    def __init__(self, per_minute: int, window: float = 60.0) -> None:
        self.per_minute = per_minute
        self.window = window
        self._log: dict[str, deque[float]] = {}

    def hit(self, key: str, now: float | None = None) -> float | None:
        """None if allowed (and counted); else the wait in seconds before the next one."""
        now = time.monotonic() if now is None else now
        q = self._log.setdefault(key, deque())
        while q and q[0] <= now - self.window:
            q.popleft()
        if len(q) >= self.per_minute:
            return q[0] + self.window - now
        q.append(now)
        if len(self._log) > 10_000:  # forget idle clients
            for k in [k for k, v in self._log.items() if not v or v[-1] <= now - self.window]:
                del self._log[k]
        return None


def _play_url(game_id: str, tokens: list[str]) -> str:
    return f"/play/{game_id}?" + urlencode([("t", t) for t in tokens])


_THUMBS: dict[tuple[str, str], bytes] = {}
"""Lobby pictures: each game's own SVG renderer on a fresh state, drawn once per process."""
QUICK_BOT = "normal"
"""The bot of the lobby's one-click "play vs bot" (the greedy level)."""


def _thumbnail(name: str, lang: str = DEFAULT) -> bytes:
    """SVG of a fresh ``name`` game (default options, its fewest players: one sheet of a
    roll-and-write, not a row of miniature sheets; seed 1), as the public view, its words in
    ``lang``; cached per game and language. A renderer that fails gives a plain titled box."""
    hit = _THUMBS.get((name, lang))
    if hit is not None:
        return hit
    cls = game_class(name)
    try:
        game = load_game(name)
        state = game.new_initial_state(cls.min_players, 1)
        while state.is_chance_node():  # the opening draws (a fixed, public sample)
            state.apply_action(state.chance_outcomes()[0][0])
        with using(lang):
            svg = game.view.render_svg(state, None, lang)
        box = game.view.thumbnail_box(state)
        if box is not None:  # the readable part only: the root's viewBox, no fixed size
            head, rest = svg.split(">", 1)
            head = re.sub(r"""\s(?:viewBox|width|height)=(['"])[^'"]*\1""", "", head)
            svg = (head + " viewBox='{:.0f} {:.0f} {:.0f} {:.0f}'>".format(*box)) + rest
    except Exception:  # noqa: BLE001 - a picture must never break the lobby
        svg = ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 200 120'><rect "
               "width='200' height='120' fill='#eee'/><text x='100' y='64' "
               f"text-anchor='middle'>{esc(cls.title or name)}</text></svg>")
    # a picture, not a board: click keys, ARIA and hover texts go (about a third smaller)
    svg = re.sub(r'\s(?:data-[\w-]+|aria-[\w-]+|role|tabindex)="[^"]*"', "", svg)
    svg = re.sub(r"<title>.*?</title>", "", svg, flags=re.S)
    data = svg.encode("utf-8")
    _THUMBS[(name, lang)] = data
    return data


def _bot_menu(names: list[str]) -> list[str]:
    """The bots in the order the seat menus offer them: the levels from easy to expert, then
    the other named bots alphabetically (``bot_names()`` is alphabetical)."""
    return sorted(names, key=lambda b: (0, LEVELS.index(b), "") if b in LEVELS else (1, 0, b))


def _my_game_line(m: Any, g: dict[str, Any], row: Any, lang: str) -> dict[str, Any]:
    """What "My games" says of one game of this browser: ``title`` (the game's name),
    ``players`` (the seat names, this browser's marked "(you)"), ``when`` (the last change,
    a short date and time in ``lang``, UTC) and ``turn`` (whose turn, when the game is running
    and in memory: no replay just for a list; else "")."""
    try:
        title = game_class(g["game"]).title or g["game"]
    except Exception:  # noqa: BLE001 - an unregistered game still lists
        title = g["game"]
    names = seat_names(row.seats, lang) if row else []
    you = localize(N_("(you)"), lang)
    players = [f"{n} {you}" if i in g["seats"] else n for i, n in enumerate(names)]
    turn = ""
    lg = getattr(m, "live", {}).get(g["id"]) if g["status"] == "running" else None
    if lg is not None and names:
        who = [p for p in lg.state.active_players() if 0 <= p < len(names)]
        if who and set(who) <= set(g["seats"]):
            turn = localize(N_("your turn"), lang)
        elif who:
            turn = localize(N_("{name} to move", name=", ".join(names[p] for p in who)), lang)
    when = format_datetime(datetime.fromtimestamp(g["updated_at"], timezone.utc), "short",
                           locale=babel_locale(lang))
    return {"title": title, "players": players, "when": when, "turn": turn}


def _games_catalog() -> list[dict[str, Any]]:
    out = []
    for name in registered_games():
        cls = game_class(name)
        specs = [o for o in option_form_specs(cls) if o["name"] not in REFUSED_OPTIONS
                 and (o["type"] in ("bool", "int", "str", "list")
                      or o["name"] in DOC_OPTIONS)]
        out.append({
            "quick_players": min(max(2, cls.min_players), cls.max_players),
            "id": name, "title": cls.title or name, "min_players": cls.min_players,
            "max_players": cls.max_players, "default_players": cls.default_players,
            "simultaneous": bool(cls.simultaneous), "cooperative": bool(cls.cooperative),
            "rules_version": cls.rules_version,
            # the form offers no server paths; documents (a sections file, a sheet) are
            # uploaded as files (``POST /new``: multipart, read by the server, never a path)
            "options": specs,
        })
    return out


async def _json_body(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ApiError(413, N_("body: larger than {MAX_BODY} bytes", MAX_BODY=MAX_BODY))
    if not raw.strip():
        raise ApiError(400, N_("body: expected a JSON object, got an empty body"))
    return _parse_json(raw, "body")


def _parse_json(raw: str | bytes, field: str) -> Any:
    """``json.loads(raw)``; ApiError 400 naming ``field`` if malformed or nested too deeply
    (a RecursionError inside the parser must not become a 500)."""
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ApiError(400, N_("{field}: malformed JSON ({msg})", field=field,
                               msg=json_reason(exc))) from None
    except ValueError:  # an integer of more digits than int() converts (4300)
        raise ApiError(400, N_("{field}: a number has too many digits", field=field)) from None
    except RecursionError:
        raise ApiError(400, N_("{field}: JSON nested too deeply", field=field)) from None
    # a seat token is only compared with the stored ones: a bad one is the 403 of a wrong token
    checked = ({k: v for k, v in value.items() if k != "token"} if isinstance(value, dict)
               else value)
    problem = unicode_problem(checked, field)
    if problem is not None:
        raise ApiError(400, problem)
    return value


async def _uploaded_document(key: str, upload: Any) -> Any:
    """The parsed JSON of a file uploaded by the lobby form as ``opt.<name>`` for a document
    option (``sections_doc``, ``sheet_doc``: validate.DOC_OPTIONS); None when no file was
    chosen (browsers send an empty part). The server reads only the uploaded bytes, never a
    path. Raises ApiError 400 naming the field (a file in a text field, malformed JSON) or 413
    (more than 4 times the document's compact-JSON cap: room for indentation)."""
    name = key[4:] if key.startswith("opt.") else ""
    if name not in DOC_OPTIONS:  # only documents are files; every other field is text
        raise ApiError(400, N_("{field}: expected a string", field=key[:80]))
    cap = 4 * DOC_OPTIONS[name][1]
    raw = await upload.read(cap + 1)
    if not raw.strip() and not getattr(upload, "filename", ""):
        return None
    if len(raw) > cap:
        size = getattr(upload, "size", None) or len(raw)
        raise ApiError(413, N_("{where}.{key}: {size} bytes, at most {cap}",
                               where="options", key=name, size=size, cap=cap))
    return _parse_json(raw, f"options.{name}")


def _token(request: Request, body: Any = None) -> str | None:
    tok = request.headers.get("x-seat-token") or request.query_params.get("token")
    if not tok and isinstance(body, dict) and isinstance(body.get("token"), str):
        tok = body["token"]
    return tok


def request_language(request: Request | WebSocket) -> str:
    """The reader's language: ``?lang=`` if it names one, else the ``lang`` cookie, else the
    ``Accept-Language`` header, else English (see core.i18n)."""
    return (normalize(request.query_params.get("lang"))
            or normalize(request.cookies.get(LANG_COOKIE))
            or negotiate(request.headers.get("accept-language")))


def api_language(request: Request | WebSocket) -> str:
    """The language of an API or websocket reply's texts for people (errors, panels, status
    lines): ``?lang=`` (the page scripts send their page's), else the ``cb_lang`` cookie,
    else English — scripts get stable English whatever their locale."""
    return (normalize(request.query_params.get("lang"))
            or normalize(request.cookies.get(LANG_COOKIE)) or DEFAULT)


def _safe_next(target: str | None) -> str:
    """A same-site path to go back to after a language switch (anything else: ``/``)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target[:2000]


@lru_cache(maxsize=None)
def _template_gettext(lang: str) -> tuple[Any, Any]:
    """Jinja2 "newstyle" ``gettext``/``ngettext`` of ``lang``: ``_("Seat %(num)s", num=n)``
    fills ``%(name)s`` placeholders after translating, escaping the values (the translated
    text is ours, the values may come from users); ``ngettext`` sets ``num`` to the count."""
    tr = translations(lang)

    def gettext(message: str, **variables: Any) -> Markup:
        return Markup(tr.gettext(message)) % variables

    def ngettext(singular: str, plural: str, num: int, **variables: Any) -> Markup:
        variables.setdefault("num", num)
        return Markup(tr.ngettext(singular, plural, num)) % variables

    return gettext, ngettext


@lru_cache(maxsize=None)
def _plain_gettext(lang: str) -> Any:
    """``text(msgid)`` for the templates: a plain string (escaped like any value, no
    placeholders filled), for texts declared as data (the games' option labels, questions,
    docs and alternatives: ``Option.texts``); an empty text stays empty."""
    tr = translations(lang).gettext

    def text(message: str) -> str:
        return tr(message) if message else message

    return text


def _language_context(request: Request) -> dict[str, Any]:
    """Template globals of one request: ``lang`` (BCP 47 form for ``<html lang>``), the
    gettext callables ``_``/``gettext``/``ngettext`` of that language, ``text`` (a plain
    lookup, see _plain_gettext), ``js_strings`` (the
    page scripts' ``CB.t`` translations), ``languages`` and ``lang_next`` (the switch)."""
    lang = request_language(request)
    gettext, ngettext = _template_gettext(lang)
    here = request.url.path + (("?" + request.url.query) if request.url.query else "")
    return {"lang": lang, "html_lang": lang.replace("_", "-"), "_": gettext,
            "gettext": gettext, "ngettext": ngettext, "text": _plain_gettext(lang),
            "js_strings": js_strings(lang, HERE / "static"),
            "languages": [(code, LANGUAGE_NAMES[code]) for code in LANGUAGES],
            "lang_next": _safe_next(here)}


def create_app(db_url: str | None = None, limits: MemoryLimits | None = None,
               create_rate: int | None = None, max_body: int = MAX_BODY) -> FastAPI:
    """The web app on database ``db_url`` (any SQLAlchemy URL; None = default SQLite file).

    Takes the database lock (one server per database) and migrates the schema to the newest
    revision on start-up: StoreError (one line) if the database is held by another server,
    read-only, locked or unreachable. ``limits``: when games leave memory (default
    ``MemoryLimits.from_env()``). ``create_rate``: games one client address may create per
    minute (None or 0: no limit; past it 429 with ``Retry-After``). ``max_body``: the request
    body limit in bytes (413).
    """
    store = open_store(db_url)  # SQLite: one server per file; PostgreSQL: many (cluster.py)
    limits = limits if limits is not None else MemoryLimits.from_env()
    limiter = RateLimiter(create_rate) if create_rate else None
    templates = Jinja2Templates(directory=str(HERE / "templates"),
                                context_processors=[_language_context])
    templates.env.add_extension("jinja2.ext.i18n")
    templates.env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.manager = make_manager(store, limits)
        if isinstance(app.state.manager, SharedGameManager):
            await app.state.manager.start()  # hear other servers' moves from the start
        try:
            yield
        finally:
            app.state.manager.close()
            store.close()

    app = FastAPI(title="citybuilders", lifespan=lifespan, docs_url="/api/docs",
                  redoc_url=None, openapi_url="/api/openapi.json")
    app.state.store = store
    app.add_middleware(LanguageCookieMiddleware)
    app.add_middleware(SecurityMiddleware, max_body=max_body)
    # pages, scripts, styles and JSON views gzip-compressed for browsers that ask (the play
    # page's scripts and styles shrink from ~70 KB to ~20 KB; docs/playing.md "Tests and figures")
    app.add_middleware(CompressMiddleware, minimum_size=1024, compresslevel=6)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(score_router(templates))  # /score and /api/score/<game> (scorer.py)
    app.include_router(hints.router)  # GET /api/games/{id}/hint (server/hints.py)

    def manager(request: Request | WebSocket) -> GameManager:
        return request.app.state.manager

    def check_create_rate(request: Request) -> None:
        """ApiError 429 (with the wait) when this client created too many games lately."""
        if limiter is None:
            return
        key = request.client.host if request.client else "unknown"
        wait = limiter.hit(key)
        if wait is not None:
            raise ApiError(429, N_("rate limit: at most {per_minute} new games per minute per "
                                   "client; retry in {ceil} s",
                                   per_minute=limiter.per_minute, ceil=math.ceil(wait)),
                           headers={"Retry-After": str(max(1, math.ceil(wait)))})

    def owner_of(request: Request) -> str | None:
        """The browser's owner cookie, or None when it is missing or not one this server
        gives (``OWNER_RX``: a longer or stranger value would be stored in a 64-character
        column, which PostgreSQL refuses and SQLite keeps); such a cookie is replaced."""
        value = request.cookies.get(OWNER_COOKIE)
        return value if value and OWNER_RX.fullmatch(value) else None

    def with_owner(request: Request, response: Response) -> Response:
        if not owner_of(request):
            response.set_cookie(OWNER_COOKIE, secrets.token_urlsafe(16), httponly=True,
                                samesite="lax", max_age=10 * 365 * 86400)
        return response

    def page_error(request: Request, status: int, message: str) -> HTMLResponse:
        return templates.TemplateResponse(
            request, "error.html",
            {"status": status, "message": localize(message, request_language(request))},
            status_code=status)

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": localize(exc.message, api_language(request))},
                                status_code=exc.status, headers=exc.headers)
        resp = page_error(request, exc.status, exc.message)
        resp.headers.update(exc.headers or {})
        return resp

    @app.exception_handler(StoreError)
    async def _store_error(request: Request, exc: StoreError) -> Response:
        # a storage failure outside the manager's own handling (home page list, seat claim)
        return await _api_error(request, unavailable(exc))

    @app.exception_handler(ClientDisconnect)
    async def _client_gone(request: Request, exc: ClientDisconnect) -> Response:
        # the client closed the connection before its whole body arrived (or sent a malformed
        # chunked body): nobody reads this answer; one short line at INFO, no traceback
        log.info("%s %s: the client left before sending its whole body", request.method,
                 request.url.path[:200])
        return await _api_error(request, ApiError(400, N_("body: the client disconnected "
                                                          "before sending all of it")))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # unmatched routes (404), wrong methods (405)...: the same shapes as ApiError
        message: str = _HTTP_MESSAGES.get(exc.status_code, str(exc.detail))
        if exc.status_code == 404:
            message = N_("{path}: {error}", path=request.url.path, error=_HTTP_MESSAGES[404])
        elif exc.status_code == 405:
            message = N_("{method} {path}: {error}", method=request.method,
                         path=request.url.path, error=_HTTP_MESSAGES[405])
        headers = getattr(exc, "headers", None)
        if request.url.path.startswith("/api/"):
            message = localize(message, api_language(request))
            return JSONResponse({"error": message}, status_code=exc.status_code,
                                headers=headers)
        resp = page_error(request, exc.status_code, message)
        if headers:
            resp.headers.update(headers)
        return resp

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        errs = exc.errors()
        first = errs[0] if errs else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        lang = api_language(request)
        known = _VALIDATION_MESSAGES.get(str(first.get("type", "")))
        if known is not None and lang != DEFAULT:  # pydantic's own words are English
            return JSONResponse({"error": f"{where}: {localize(known, lang)}"}, status_code=400)
        return JSONResponse({"error": f"{where}: {first.get('msg', 'invalid')}"},
                            status_code=400)

    # ------------------------------------------------------------------ pages
    @app.get("/lang/{code}", include_in_schema=False)
    async def switch_language(request: Request, code: str) -> Response:
        """The language switch: remember ``code`` in the ``cb_lang`` cookie (a year) and go
        back to ``?next=`` (a path of this site). An unknown language is a 404 page."""
        lang = normalize(code)
        if lang is None:
            raise ApiError(404, N_("{code}: unknown language; allowed: {allowed}",
                                   code=code[:40], allowed=", ".join(LANGUAGES)))
        resp = RedirectResponse(_safe_next(request.query_params.get("next")), status_code=303)
        resp.set_cookie(LANG_COOKIE, lang, samesite="lax", max_age=365 * 86400)
        return resp

    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> Response:
        owner = owner_of(request)
        mine = store.games_of(owner) if owner else []
        lang = request_language(request)
        for g in mine:
            row = store.load_game(g["id"])
            toks = [s.token for s in row.seats if s.seat in g["seats"] and s.token] if row else []
            g["play_url"] = _play_url(g["id"], toks) if toks else None
            g["replay_url"] = f"/replay/{g['id']}?" + urlencode([("t", t) for t in toks])
            g.update(_my_game_line(manager(request), g, row, lang))
        resp = templates.TemplateResponse(request, "home.html", {
            "games": _games_catalog(), "bots": _bot_menu(bot_names()), "mine": mine,
            "bot_levels": BOT_LEVEL_NAMES,
            "quick_bot": QUICK_BOT,
        })
        return with_owner(request, resp)

    @app.post("/new")
    async def new_game(request: Request) -> Response:
        form = await request.form()
        data: dict[str, list[str]] = {}
        uploads: dict[str, Any] = {}
        for k, v in form.multi_items():
            if not isinstance(v, str):  # an uploaded file: a document option's JSON
                doc = await _uploaded_document(k, v)
                if doc is not None:
                    uploads[k[4:]] = doc
                continue
            data.setdefault(k, []).append(str(v))
        # a refused option (a server-side path) is refused even where the game has no such option
        check_options({k[4:]: v[-1] for k, v in data.items()
                       if k.startswith("opt.") and k[4:] in REFUSED_OPTIONS and v[-1] != ""})
        cls = requested_game({"game": (data.get("game") or [""])[-1]})
        try:
            known = {o.name for o in cls.option_specs}
            unknown = sorted([k[4:] for k in data if k.startswith("opt.") and k[4:] not in known]
                             + [k for k in uploads if k not in known])
            if unknown:
                raise ApiError(400, N_("options.{unknown}: unknown option for {name}; allowed: "
                                       "{allowed}",
                                       unknown=unknown[0][:80], name=cls.name, allowed=', '.join(sorted(known))))
            options = parse_form_options(cls, data)
        except CitybuildersError as exc:
            raise ApiError(400, message_of(exc)) from None
        options.update(uploads)
        check_new_options(check_options(options), cls)
        try:
            n = int((data.get("num_players") or [str(cls.default_players)])[-1])
        except ValueError:
            raise ApiError(400, N_("num_players: expected an integer")) from None
        check_player_count(cls, n)
        seats: list[dict[str, Any]] = []
        for i in range(n):
            kind = (data.get(f"seat{i}") or ["human" if i == 0 else "bot:random"])[-1]
            if kind.startswith("bot:"):
                seat: dict[str, Any] = {"kind": "bot", "bot": kind[4:]}
            else:
                seat = {"kind": kind}
            label = seat_name((data.get(f"name{i}") or [""])[-1], f"name{i}")
            if label:
                seat["name"] = label
            seats.append(seat)
        body = {"game": cls.name, "options": options, "num_players": n, "seats": seats}
        owner = owner_of(request) or secrets.token_urlsafe(16)
        with using(request_language(request)):  # default seat names in the page's language
            lg, tokens = await manager(request).create_async(
                body, owner, admit=lambda: check_create_rate(request))
        mine = [tokens[s.seat] for s in lg.row.seats if s.kind == "human"]
        if not mine:  # only invite seats and bots: the creator watches from the first invite
            mine = [tokens[s.seat] for s in lg.row.seats if s.kind == "invite"][:1]
        url = _play_url(lg.id, mine) if mine else f"/replay/{lg.id}"
        resp = RedirectResponse(url, status_code=303)
        if not owner_of(request):
            resp.set_cookie(OWNER_COOKIE, owner, httponly=True, samesite="lax",
                            max_age=10 * 365 * 86400)
        return resp

    @app.get("/play/{game_id}", response_class=HTMLResponse)
    async def play_page(request: Request, game_id: str) -> Response:
        m = manager(request)
        lg = await m.get(game_id)
        toks = request.query_params.getlist("t")
        if not toks:
            raise ApiError(401, N_("this page needs the secret seat token of your game link"))
        owner = owner_of(request)
        fresh_owner = None
        if not owner:  # a first visit: this browser gets its identity now, so it can claim
            owner = fresh_owner = secrets.token_urlsafe(16)
        given = list(toks)
        toks = []
        for t in given:
            use, _ = await online.claim_link(m, lg, t, owner)
            toks.append(use)
        if toks != given:  # a claimed or spectated link: the address holds what this browser uses
            resp = RedirectResponse(_play_url(lg.id, list(dict.fromkeys(toks))),
                                    status_code=303)
        else:
            resp = None
        seats = {}
        for t in toks:
            seats[m.seat_of(lg, t)] = t
        if SPECTATOR in seats and len(seats) > 1:
            del seats[SPECTATOR]
        if resp is None:
            spectator = SPECTATOR in seats
            host = not spectator and online.is_host(lg, owner_of(request), set(seats))
            base = _base_url(request)
            names = seat_names(lg.row.seats, request_language(request))
            info: dict[str, Any] = {
                "game_id": lg.id, "host": host, "spectator": spectator,
                "tokens": {str(k): v for k, v in sorted(seats.items())},
                "seats": [{"seat": s.seat, "name": names[s.seat], "kind": s.kind}
                          for s in lg.row.seats],
                "invites": [], "spectator_url": None, "rematch_id": lg.row.rematch_id,
            }
            if host:
                info["invites"] = [
                    {"seat": s.seat, "name": names[s.seat], "claimed": s.invite_token is not None,
                     "url": base + _play_url(lg.id, [online.invite_url(s) or ""])}
                    for s in lg.row.seats if s.kind == "invite"]
                info["spectator_url"] = base + _play_url(
                    lg.id, [await online.spectator_token(m, lg)])
            page = {"game_id": lg.id, "tokens": info["tokens"]}
            # the first seat's current view rides in the page, so the board is drawn without
            # waiting for the websocket (which then skips that view: ?have=<state id>)
            first = min(seats) if SPECTATOR not in seats else SPECTATOR
            page_json = _script_json(page)[:-1] + ', "view": ' + m.view_json(
                lg, first, request_language(request)).decode("utf-8").translate(
                    _SCRIPT_ESCAPES) + "}"
            resp = templates.TemplateResponse(request, "play.html", {
                "title": lg.game.title or lg.game.name, "game_id": lg.id,
                "page_json": page_json, "invites": info["invites"],
                "online_json": _script_json(info), "spectator": spectator,
                "replay_url": f"/replay/{lg.id}?" + urlencode([("t", t) for t in seats.values()]),
            })
        if fresh_owner:
            resp.set_cookie(OWNER_COOKIE, fresh_owner, httponly=True, samesite="lax",
                            max_age=10 * 365 * 86400)
        return resp

    @app.get("/replay/{game_id}", response_class=HTMLResponse)
    async def replay_page(request: Request, game_id: str) -> Response:
        m = manager(request)
        lg = await m.get(game_id)
        toks = request.query_params.getlist("t")
        seat = None
        if toks:
            seat = m.seat_of(lg, toks[0])
        elif lg.row.status == "running":
            raise ApiError(401, N_("a running game's replay needs your seat token (t=...)"))
        page = {"game_id": lg.id, "token": toks[0] if toks else None, "seat": seat,
                "steps": lg.state.move_number(), "num_players": lg.state.num_players,
                "note": lg.row.note,
                "seat_names": seat_names(lg.row.seats, request_language(request))}
        return templates.TemplateResponse(request, "replay.html", {
            "title": lg.game.title or lg.game.name, "game_id": lg.id,
            "page_json": _script_json(page),
            "note": note_text(lg.row.note, request_language(request)),
        })

    @app.post("/import")
    async def import_page(request: Request) -> Response:
        form = await request.form()
        check_create_rate(request)  # an import stores a new game too
        upload = form.get("file")
        text = ""
        # the person reads the name of the file they chose, not a field of the form
        where: str = N_("the record file")
        if upload is not None and hasattr(upload, "read"):
            text = (await upload.read()).decode("utf-8", errors="replace")
            where = str(getattr(upload, "filename", "") or "")[:80] or where
        if not text.strip():
            text = str(form.get("record") or "")
        if not text.strip():  # the form sent without choosing a file
            raise ApiError(400, N_("Choose a record file (JSON, from \"Export record\") to "
                                   "import."))
        data = _parse_json(text, where)
        check_record(data)
        owner = owner_of(request)
        lg = manager(request).import_record(data, owner)
        return RedirectResponse(f"/replay/{lg.id}", status_code=303)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        # browsers ask for /favicon.ico whatever the page links; the same small SVG icon
        return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "public, max-age=86400"})

    # ------------------------------------------------------------------ API
    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "games": registered_games()}

    @app.get("/api/stats")
    async def stats(request: Request) -> dict[str, Any]:
        m = manager(request)
        out = {"live_games": len(m.live), "writer": store.writer_stats(),
               "websockets": sum(len(lg.connections) for lg in list(m.live.values())),
               "memory": m.memory_stats()}
        if isinstance(m, SharedGameManager):
            out["cluster"] = m.cluster_stats()
        return out

    @app.get("/api/games")
    async def api_catalog() -> dict[str, Any]:
        return {"games": _games_catalog(), "bots": bot_names()}

    @app.post("/api/games")
    async def api_create(request: Request) -> JSONResponse:
        body = await _json_body(request)
        check_create_body(body, set(bot_names()))
        with using(api_language(request)):  # default seat names: ?lang= or the cookie
            # counted once the body is valid: a refused request creates no game
            lg, tokens = await manager(request).create_async(
                body, owner_of(request), admit=lambda: check_create_rate(request))
        base = str(request.base_url).rstrip("/")
        seats = []
        for s in lg.row.seats:
            d: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot}
            if s.token:
                d["token"] = s.token
                d["url"] = base + _play_url(lg.id, [s.token])
            seats.append(d)
        humans = [s.token for s in lg.row.seats if s.kind == "human" and s.token]
        return JSONResponse({
            "id": lg.id, "state_id": lg.version, "seats": seats,
            "play_url": _play_url(lg.id, humans) if humans else None,
        }, status_code=201)

    async def _seat_game(request: Request, game_id: str, body: Any = None
                         ) -> tuple[GameManager, LiveGame, int]:
        m = manager(request)
        lg = await m.get(game_id)
        return m, lg, m.seat_of(lg, _token(request, body))

    @app.get("/api/games/{game_id}/view")
    async def api_view(request: Request, game_id: str) -> JSONResponse:
        m, lg, seat = await _seat_game(request, game_id)
        return _json_bytes(m.view_json(lg, seat, api_language(request)))

    async def _seat_change(request: Request, game_id: str, undo: bool) -> JSONResponse:
        """A seat's move or undo: check the token, apply (committed first), return the new view."""
        m = manager(request)
        lg = await m.get(game_id)
        body = await _json_body(request)
        seat = m.seat_of(lg, _token(request, body))
        await (m.undo if undo else m.act)(lg, seat, body)
        return _json_bytes(m.view_json(lg, seat, api_language(request)))

    @app.post("/api/games/{game_id}/act")
    async def api_act(request: Request, game_id: str) -> JSONResponse:
        return await _seat_change(request, game_id, undo=False)

    @app.post("/api/games/{game_id}/undo")
    async def api_undo(request: Request, game_id: str) -> JSONResponse:
        return await _seat_change(request, game_id, undo=True)

    @app.get("/api/games/{game_id}/record")
    async def api_record(request: Request, game_id: str) -> JSONResponse:
        m = manager(request)
        lg = await m.get(game_id)
        seat = None
        if lg.row.status == "running":
            seat = m.seat_of(lg, _token(request))
        async with lg.lock:
            rec = m.record_for(lg, seat)
        headers = {"Content-Disposition":
                   f'attachment; filename="{lg.game.name}-{lg.id}.json"'}
        if request.query_params.get("download") != "1":
            headers = {}
        return JSONResponse(rec, headers=headers)

    @app.get("/api/games/{game_id}/replay")
    async def api_replay(request: Request, game_id: str) -> JSONResponse:
        m = manager(request)
        lg = await m.get(game_id)
        tok = _token(request)
        if lg.row.status == "running" or tok:
            seat = m.seat_of(lg, tok)
        else:
            seat = _int_param(request, "seat", 0)
            if not 0 <= seat < lg.state.num_players:
                raise ApiError(400, N_("seat: expected 0 to {num_players}",
                                       num_players=lg.state.num_players - 1))
        async with lg.lock:
            total = lg.state.move_number()
            step = _int_param(request, "step", total)
            if not 0 <= step <= total:
                raise ApiError(400, N_("step: expected 0 to {total}", total=total))
            state = m.replay_state(lg, step)
            view = m.view(lg, seat, state=state, log_upto=step, own_seat=bool(tok),
                          lang=api_language(request))
        view["step"] = step
        view["steps"] = total
        return JSONResponse(view)

    # ------------------------------------------------------------------ online play
    @app.get("/thumb/{name}.svg", include_in_schema=False)
    async def thumbnail(request: Request, name: str) -> Response:
        if name not in registered_games():
            raise ApiError(404, N_("game '{name}' not found", name=name[:40]))
        lang = normalize(request.query_params.get("lang")) or DEFAULT  # in the page's URL
        return Response(_thumbnail(name, lang), media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=3600"})

    @app.get("/api/games/{game_id}/presence")
    async def api_presence(request: Request, game_id: str) -> dict[str, Any]:
        m, lg, _ = await _seat_game(request, game_id)
        return {"online": online.presence(lg)}

    async def _host_game(request: Request, game_id: str) -> tuple[GameManager, LiveGame]:
        m = manager(request)
        lg = await m.get(game_id)
        tok = _token(request)
        seats = {m.seat_of(lg, tok)} if tok else set()
        if not online.is_host(lg, owner_of(request), seats):
            raise ApiError(403, N_("only the host (the browser that created the game, or a "
                                   "holder of one of its own seats) may do this"))
        return m, lg

    @app.post("/api/games/{game_id}/seats/{seat}/reissue")
    async def api_reissue(request: Request, game_id: str, seat: int) -> dict[str, Any]:
        m, lg = await _host_game(request, game_id)
        tok = await online.reissue(m, lg, seat)
        return {"seat": seat, "url": _base_url(request) + _play_url(lg.id, [tok])}

    @app.get("/api/games/{game_id}/spectator")
    async def api_spectator(request: Request, game_id: str) -> dict[str, Any]:
        m, lg = await _host_game(request, game_id)
        tok = await online.spectator_token(m, lg)
        return {"url": _base_url(request) + _play_url(lg.id, [tok])}

    @app.post("/api/games/{game_id}/rematch")
    async def api_rematch(request: Request, game_id: str) -> dict[str, Any]:
        m, lg, seat = await _seat_game(request, game_id)
        rid, toks = await online.rematch(m, lg, seat)
        return {"id": rid, "play_url": _play_url(rid, toks) if toks else None}

    @app.post("/api/games/{game_id}/name")
    async def api_name(request: Request, game_id: str) -> dict[str, Any]:
        body = await _json_body(request)
        m, lg, seat = await _seat_game(request, game_id, body)
        if not isinstance(body, dict):
            raise ApiError(400, N_("body: expected a JSON object {\"name\": ...}"))
        name = await online.rename(m, lg, seat, body.get("name"))
        return {"seat": seat, "name": name}

    @app.post("/api/records")
    async def api_import(request: Request) -> JSONResponse:
        body = await _json_body(request)
        check_create_rate(request)  # an import stores a new game too
        check_record(body)
        lg = manager(request).import_record(body, owner_of(request))
        return JSONResponse({"id": lg.id, "replay_url": f"/replay/{lg.id}",
                             "steps": lg.state.move_number(),
                             "note": note_text(lg.row.note, api_language(request))},
                            status_code=201)

    @app.websocket("/ws/games/{game_id}")
    async def ws_game(websocket: WebSocket, game_id: str) -> None:
        m = manager(websocket)
        try:
            _check_origin(websocket)
            lg = await m.get(game_id)
            seat = m.seat_of(lg, websocket.query_params.get("token"))
        except ApiError as exc:
            await websocket.accept()
            await websocket.send_json({"type": "error", "status": exc.status,
                                       "error": localize(exc.message,
                                                         api_language(websocket))})
            await websocket.close(code=4000 + exc.status)
            return
        await websocket.accept()
        client = WsClient(websocket, seat)
        client.lang = api_language(websocket)
        client.views = websocket.query_params.get("presence") != "1"
        conn = (client, seat)
        client.start()
        # ?have=<state id>: the page already holds this state's view (it came with the page)
        if client.views and websocket.query_params.get("have") != str(lg.version):
            client.offer(ws_view_message(m.view_json(lg, seat, client.lang)))
        lg.connections.add(conn)
        online.push_presence(lg)
        reader = asyncio.get_running_loop().create_task(_ws_read(m, lg, client))
        done_wait = asyncio.get_running_loop().create_task(client.done.wait())
        try:
            await asyncio.wait({reader, done_wait}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            lg.connections.discard(conn)
            online.push_presence(lg)
            # a reader that failed (a socket torn down under it) has its exception retrieved,
            # so nothing is logged for it
            reader.add_done_callback(lambda t: t.cancelled() or t.exception())
            reader.cancel()
            done_wait.cancel()
            await client.stop()

    return app


async def _ws_read(m: GameManager, lg: LiveGame, client: WsClient) -> None:
    """Answer one websocket's messages until it disconnects: ``{"type": "ping"}`` -> pong,
    ``{"type": "refresh"}`` -> the current view (a presence socket: the current presence);
    anything else (a binary frame, malformed
    JSON, another type) -> an error message naming the problem; the socket stays usable."""
    ws = client.ws
    while True:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            return
        text = msg.get("text")
        if text is None:
            client.offer(_ws_error("frame: expected a text frame holding JSON, got a "
                                   "binary frame"))
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            client.offer(_ws_error("malformed JSON"))
            continue
        except (ValueError, RecursionError):
            client.offer(_ws_error("message: JSON nested too deeply or a number with too "
                                   "many digits"))
            continue
        kind = data.get("type") if isinstance(data, dict) else None
        if kind == "ping":
            client.offer('{"type":"pong"}')
        elif kind == "refresh" and not client.views:  # a presence socket never gets views
            client.offer(online.presence_message(lg))
        elif kind == "refresh":
            client.offer(ws_view_message(m.view_json(lg, client.seat, client.lang)))
        else:
            client.offer(_ws_error(localize(N_("type: expected ping or refresh (moves are "
                                               "POSTed to /act)"), client.lang)))


def _base_url(request: Request) -> str:
    """``scheme://host[:port]`` as the browser addressed this server (its ``Host`` header):
    links made from it work for whoever can reach that address (the LAN address when the
    host browsed to it), never a hard-coded 127.0.0.1."""
    return str(request.base_url).rstrip("/")


def _ws_error(message: str, status: int = 400) -> str:
    return json.dumps({"type": "error", "status": status, "error": message})


def _check_origin(ws: WebSocket) -> None:
    """A browser's cross-site websocket is refused (ApiError 403 naming ``Origin``): the
    ``Origin`` header, when sent, must name the host the request was made to. Clients that
    send no ``Origin`` (not browsers) are allowed: they hold a seat token anyway."""
    origin = ws.headers.get("origin")
    if origin is None:
        return
    host = ws.headers.get("host", "")
    parsed = urlsplit(origin)
    if parsed.scheme not in ("http", "https") or parsed.netloc.lower() != host.lower():
        raise ApiError(403, N_("Origin: {origin!r} is not this site ({host!r}); cross-site "
                               "websockets are refused", origin=origin[:100], host=host[:100]))


def _json_bytes(data: bytes, status: int = 200) -> Response:
    """A JSON response from already serialised bytes (the cached views)."""
    return Response(data, status_code=status, media_type="application/json")


_SCRIPT_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
                   0x2028: "\\u2028", 0x2029: "\\u2029"}


def _script_json(obj: Any) -> str:
    """JSON safe to embed in a ``<script type="application/json">`` data block: ``< > &``
    (and the JS line separators) are written as ``\\uXXXX`` escapes, so no text (a seat
    name like ``<!--<script>`` or ``</script>``) can end or re-mode the element; the
    parsed JSON is unchanged."""
    return json.dumps(obj).translate(_SCRIPT_ESCAPES)


def _int_param(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        shown = repr(raw) if len(raw) <= 40 else repr(raw[:37] + "...")
        raise ApiError(400, N_("{name}: expected an integer, got {shown}", name=name, shown=shown)) from None


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses on its networks (not loopback), best guess first: the
    one of the default route (a UDP socket "connected" to a documentation address sends
    nothing), then the host name's addresses. Empty if none is found."""
    import socket

    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        pass
    return [a for a in dict.fromkeys(found) if not a.startswith("127.")]


def run(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
        limits: MemoryLimits | None = None, create_rate: int | None = None,
        max_body: int = MAX_BODY) -> None:
    """Serve the web app with uvicorn on ``host:port`` using database URL ``db``
    (``limits``, ``create_rate``, ``max_body``: see ``create_app``).

    Raises StoreError (one line; the CLI prints ``error: ...`` and exits 2) if the database
    is used by another server or cannot be opened or upgraded."""
    import uvicorn

    app = create_app(db, limits, create_rate=create_rate, max_body=max_body)
    print(f"citybuilders: serving on http://{host}:{port}/ (database {app.state.store.url})",
          flush=True)
    if host in ("0.0.0.0", "::", ""):
        for addr in lan_addresses():
            print(f"citybuilders: friends on your network open http://{addr}:{port}/ "
                  "(open it yourself too: invite links use the address you browse to)",
                  flush=True)
    elif host in ("127.0.0.1", "localhost", "::1"):
        print("citybuilders: only this computer can connect; to play with a friend on "
              "another computer, start with --host 0.0.0.0", flush=True)
    # keep-alive longer than clients' pools keep idle connections (httpx: 5 s), so the server
    # never closes a connection at the moment a client reuses it (that race gave ReadError)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws="websockets-sansio",
                timeout_keep_alive=75, backlog=4096, ws_max_size=WS_MAX_MESSAGE,
                proxy_headers=False)  # the rate limit counts the real peer, not X-Forwarded-For
