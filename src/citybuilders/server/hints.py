"""Move hints for a seat: ``GET /api/games/{game_id}/hint?t=TOKEN``.

The answer is the move the ``hard`` level (bots/levels.py) would play for the token's seat now,
``{"action": int, "text": notation, "path": [click keys], "state_id": int, "level": "hard"}``
(``path`` are the board's ``data-key`` elements to highlight, as ``State.action_path``).

Hidden information: the bot never sees the live state. It searches a determinization drawn with
``state.resample_from_infostate(seat, rng)`` - the other seats' hidden cards redealt from what
this seat cannot see - so a hint depends only on the seat's own information state (two games
that differ only in another seat's hand give the same hint for the same random draws).

Errors (``{"error": message}``): 401/403 missing or wrong token; 409 the game is over, is an
imported record, or it is not the seat's turn; 400 a bad query parameter. A hint is computed once
per seat and state id (repeated requests share it) in the server's bot thread pool, within about
a second.

Included by ``create_app`` with ``app.include_router(hints.router)``.
"""

from __future__ import annotations

import asyncio
import random
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..bots import make_bot
from ..core.game import CHANCE, State
from .manager import ApiError, GameManager
from ..core.i18n import N_, normalize
from .display import notation_text

__all__ = ["router", "HINT_LEVEL", "hint_state", "compute_hint"]

router = APIRouter()

HINT_LEVEL = "hard"
"""The level whose move a hint suggests (ISMCTS at 0.25 s a move where search helps)."""
_CACHE_SIZE = 256
_cache: "OrderedDict[tuple[str, int, int], asyncio.Future[dict[str, Any]]]" = OrderedDict()
"""(game id, seat, state id) -> the hint, computed once (concurrent requests share it)."""


def hint_state(state: State, seat: int, rng: random.Random) -> State:
    """The position the hint bot searches: a determinization consistent with everything
    ``seat`` knows and nothing else (``resample_from_infostate``)."""
    return state.resample_from_infostate(seat, rng)


def compute_hint(state: State, seat: int, seed: int) -> dict[str, Any]:
    """``{"action", "text", "path"}``: the ``hard`` level's move for ``seat`` (its turn now),
    searched on :func:`hint_state` only. Blocking (about 0.25 s with a search)."""
    rng = random.Random(seed)
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        action = legal[0]
    else:
        seen = hint_state(state, seat, rng)
        action = make_bot(HINT_LEVEL, seed).step(seen, seat)
    return {"action": action, "text": state.action_to_string(action, seat),
            "path": list(state.action_path(action, seat))}


def _seat_token(request: Request) -> str | None:
    q = request.query_params
    return request.headers.get("x-seat-token") or q.get("t") or q.get("token")


@router.get("/api/games/{game_id}/hint")
async def api_hint(request: Request, game_id: str) -> JSONResponse:
    """The suggested move of the token's seat (module docstring)."""
    unknown = sorted(set(request.query_params) - {"t", "token", "lang"})
    if unknown:
        raise ApiError(400, N_("unknown query parameter '{unknown}'; allowed: t, token, lang",
                               unknown=unknown[0]))
    m: GameManager = request.app.state.manager
    lg = await m.get(game_id)
    seat = m.seat_of(lg, _seat_token(request))
    state, version = lg.state, lg.version  # replaced, never mutated: a consistent snapshot
    if lg.row.status == "imported":
        raise ApiError(409, N_("this is an imported record: it can only be replayed"))
    if state.is_terminal():
        raise ApiError(409, N_("the game is over: no hint"))
    if state.current_player() == CHANCE or seat not in state.active_players():
        now = ", ".join(f"P{p + 1}" for p in state.active_players()) or "nobody"
        raise ApiError(409, N_("not your turn: hints are for the seat to move (to act: {now})",
                               now=now))
    key = (lg.id, seat, version)
    fut = _cache.get(key)
    if fut is None:
        loop = asyncio.get_running_loop()
        seed = random.SystemRandom().randrange(2**63)
        fut = asyncio.ensure_future(loop.run_in_executor(m.executor, compute_hint, state.clone(),
                                                         seat, seed))
        _cache[key] = fut
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    try:
        hint = await asyncio.shield(fut)
    except Exception as exc:  # noqa: BLE001 - a failing bot is a clear error, never a 500
        _cache.pop(key, None)
        raise ApiError(503, N_("the hint bot failed: {name__}", name__=type(exc).__name__)) from None
    lang = normalize(request.query_params.get("lang")) or "en"
    # the page shows it to a person: a sentence where the game has one, else glossed notation
    text = (lg.game.view.move_words(hint["text"], lang)
            or notation_text(lg.game, hint["text"], lang))
    return JSONResponse({**hint, "text": text, "state_id": version, "level": HINT_LEVEL})
