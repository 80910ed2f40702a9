"""Playing with friends on other computers: invite claims, spectator links, presence, rematch.

* **Invite claim.** An invite seat's link holds the seat's token. The first browser that opens
  it *claims* the seat: the seat gets a fresh secret token that only that browser holds (its
  page address), the link is remembered as ``SeatRow.invite_token`` and ``claimed_by`` is the
  browser's owner cookie. Anyone who opens the link later gets the spectator view; the same
  browser opening it again gets its seat back. The host *re-issues* a seat's link: a new link,
  the old link and the claimed browser's token stop working (its websockets are closed).
* **Spectator link.** ``games.spectator_token`` (made when first asked for): the view of no
  player (``manager.public_observation``, no hand, hidden draws shown as hidden), no moves.
* **Presence.** A seat is *connected* while at least one websocket holds its token; every
  change is pushed as ``{"type": "presence", "online": [bool per seat]}`` to the
  presence-only sockets (``/ws/games/{id}?token=...&presence=1``, opened by online.js).
* **Rematch.** Same game, options, seat kinds, bots and names, a fresh seed; one rematch per
  game (asking again returns it); each seated player gets their own new link, invite seats
  stay claimed by the same browsers. ``{"type": "rematch", "id": ...}`` is pushed.

All writes are committed (``Store.set_seat`` / ``set_game_links``) before anything is
acknowledged; a failed write answers 503 and changes nothing in memory.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

from .manager import SPECTATOR, ApiError, GameManager, LiveGame, unavailable
from .store import SeatRow, StoreError
from ..core.errors import CitybuildersError
from ..core.i18n import N_, message_of
from ..core.names import NAME_MAX, check_name

__all__ = ["claim_link", "spectator_token", "reissue", "presence", "push_presence",
           "rematch", "rename", "is_host", "presence_message", "NAME_MAX"]



def _same(a: str | None, b: str) -> bool:
    return bool(a) and secrets.compare_digest(a.encode("utf-8"), b.encode("utf-8",
                                                                          "surrogatepass"))


async def _write(fn: Any, *args: Any, **kwargs: Any) -> None:
    """Run a blocking store write off the event loop; 503 if the database refused it."""
    try:
        await asyncio.to_thread(fn, *args, **kwargs)
    except StoreError as exc:
        raise unavailable(exc) from None


async def spectator_token(m: GameManager, lg: LiveGame) -> str:
    """The game's spectator secret, made (and committed) on first use."""
    async with lg.lock:
        if lg.row.spectator_token is None:
            tok = "s" + secrets.token_urlsafe(18)
            await _write(m.store.set_game_links, lg.id, spectator_token=tok)
            lg.row.spectator_token = tok
        return lg.row.spectator_token


async def claim_link(m: GameManager, lg: LiveGame, token: str, owner: str | None
                     ) -> tuple[str, int | None]:
    """What opening a page with ``token`` gives browser ``owner``: ``(token to use, seat)``.

    * an unclaimed invite seat's link: the seat is claimed by ``owner`` (new secret token);
    * a claimed invite link opened by the claiming browser: that seat's current token;
    * a claimed invite link opened by any other browser: the spectator token, seat None;
    * any other token: itself (checked later by ``seat_of``: 403 if it holds nothing).
    A browser without an owner cookie never claims (it gets the spectator view)."""
    async with lg.lock:
        for s in lg.row.seats:
            if s.kind == "invite" and s.invite_token is None and _same(s.token, token):
                if not owner:
                    break
                new = secrets.token_urlsafe(18)
                await _write(m.store.set_seat, lg.id, s.seat, token=new, invite_token=s.token,
                             claimed_by=owner)
                s.invite_token, s.token, s.claimed_by = s.token, new, owner
                return new, s.seat
            if s.kind == "invite" and _same(s.invite_token, token):
                if owner and s.claimed_by == owner and s.token:
                    return s.token, s.seat
                break
        else:
            return token, None
    return await spectator_token(m, lg), None


def is_host(lg: LiveGame, owner: str | None, seats: set[int]) -> bool:
    """The host: the browser that created the game (owner cookie), or a holder of one of its
    ``human`` seats (the creator's own seats)."""
    if owner and lg.row.owner == owner:
        return True
    return any(0 <= s < len(lg.row.seats) and lg.row.seats[s].kind == "human" for s in seats)


def invite_url(s: SeatRow) -> str | None:
    """The token of seat ``s``'s invite link (claimed or not), or None if it is no invite."""
    if s.kind != "invite":
        return None
    return s.invite_token or s.token


async def reissue(m: GameManager, lg: LiveGame, seat: int) -> str:
    """A new invite link for invite seat ``seat``: the old link and the token of the browser
    that claimed it stop working (its websockets are closed). Returns the new link's token.
    400 if ``seat`` is not an invite seat."""
    async with lg.lock:
        if not 0 <= seat < len(lg.row.seats) or lg.row.seats[seat].kind != "invite":
            raise ApiError(400, N_("seat: {seat} is not an invite seat of this game", seat=seat))
        s = lg.row.seats[seat]
        new = secrets.token_urlsafe(18)
        await _write(m.store.set_seat, lg.id, seat, token=new, invite_token=None,
                     claimed_by=None)
        s.token, s.invite_token, s.claimed_by = new, None, None
        for conn in list(lg.connections):
            client, held = conn
            if held == seat:
                lg.connections.discard(conn)
                client.drop(4403)
    push_presence(lg)
    return new


def presence(lg: LiveGame) -> list[bool]:
    """Per seat: whether at least one websocket holds that seat now."""
    held = {seat for _, seat in lg.connections}
    return [s.seat in held for s in lg.row.seats]


def presence_message(lg: LiveGame) -> str:
    """The websocket message ``{"type": "presence", "online": [bool per seat]}`` of now."""
    return json.dumps({"type": "presence", "online": presence(lg)})


def push_presence(lg: LiveGame) -> None:
    """Offer every presence-only socket of ``lg`` the current presence."""
    _push(lg, presence_message(lg))


def _push(lg: LiveGame, text: str) -> None:
    for conn in list(lg.connections):
        client, _ = conn
        if not getattr(client, "views", True) and not client.offer(text):
            lg.connections.discard(conn)


async def rematch(m: GameManager, lg: LiveGame, seat: int) -> tuple[str, list[str]]:
    """The rematch of ``lg`` (made on first request): ``(game id, tokens)``: the new token of
    seat ``seat`` (the host's browser: of all its own seats), none for a spectator. Only a
    finished game has a rematch (409)."""
    if lg.row.status != "finished":
        raise ApiError(409, N_("a rematch can start only once the game is over"))
    async with lg.lock:
        if lg.row.rematch_id is None:
            body = {"game": lg.game.name, "options": dict(lg.game.options),
                    "num_players": lg.state.num_players,
                    "seats": [{"kind": s.kind, "name": s.name,
                               **({"bot": s.bot} if s.kind == "bot" else {})}
                              for s in lg.row.seats]}
            new, _ = await m.create_async(body, lg.row.owner)
            for old, s in zip(lg.row.seats, new.row.seats):
                if old.kind == "invite" and old.claimed_by:
                    # the friend's browser keeps its seat: its new link is its own at once
                    await _write(m.store.set_seat, new.id, s.seat, invite_token=s.token,
                                 claimed_by=old.claimed_by)
                    s.invite_token, s.claimed_by = s.token, old.claimed_by
            await _write(m.store.set_game_links, lg.id, rematch_id=new.id)
            lg.row.rematch_id = new.id
            _push(lg, json.dumps({"type": "rematch", "id": new.id}))
        rid = lg.row.rematch_id
    new_lg = await m.get(rid)
    if seat == SPECTATOR or not 0 <= seat < len(new_lg.row.seats):
        return rid, []
    if new_lg.row.seats[seat].kind == "human":  # the host's browser: all its own seats
        return rid, [s.token for s in new_lg.row.seats if s.kind == "human" and s.token]
    return rid, [t for t in [new_lg.row.seats[seat].token] if t]


async def rename(m: GameManager, lg: LiveGame, seat: int, name: Any) -> str:
    """Give seat ``seat`` a new name (``core.names.check_name``: one line of 1 to 40
    characters after folding whitespace); every view is rebuilt and pushed. 400 naming
    ``name`` otherwise."""
    m.check_player(seat)
    try:
        name = str(check_name(name, "name"))
    except CitybuildersError as exc:
        raise ApiError(400, message_of(exc)) from None
    async with lg.lock:
        await _write(m.store.set_seat, lg.id, seat, name=name)
        lg.row.seats[seat].name = name
        lg.views = {}
    await m.broadcast(lg)
    return name
