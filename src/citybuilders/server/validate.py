"""Checks on client input done before anything is built from it (the server's limits).

Every check raises :class:`~citybuilders.server.manager.ApiError` 400 (or 413) with
``"field: problem"``; none allocates in proportion to a number the client sent: the player
count is checked against the game's ``min_players..max_players`` before a seat list exists,
seeds against the platform's one range (``core.game.check_seed``), option documents against a
size cap. The server never reads a path a client names: ``sheet_file`` (Roll Builder's
user-sheet path option, for the CLI) is refused; a user sheet is uploaded as a document
(``options.sheet_doc``, a JSON object) and stored in the game's options, so its record is
self-contained. Kingdom Builder's custom board sections likewise: ``sections_file`` is refused,
the document is uploaded as ``options.sections_doc``.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from ..core.errors import CitybuildersError, short
from ..core.game import Game, check_seed
from ..core.registry import game_class
from .manager import SEAT_KEYS, SEAT_KINDS, ApiError, requested_game, seat_name
from ..core.i18n import N_, message_of
from ..core.names import NAME_MAX

__all__ = ["SHEET_DOC_MAX", "SECTIONS_DOC_MAX", "REFUSED_OPTIONS", "DOC_OPTIONS", "NAME_MAX",
           "check_create_body",
           "check_options", "check_new_options", "check_record", "check_player_count"]

SHEET_DOC_MAX = 200_000
"""Largest uploaded sheet document (``options.sheet_doc``), in bytes of compact JSON."""
SECTIONS_DOC_MAX = 64 * 1024
"""Largest uploaded Kingdom Builder sections document (``options.sections_doc``), in bytes."""
REFUSED_OPTIONS = {
    "sheet_file": ("the server reads no files: choose a shipped sheet with 'sheet' or upload "
                   "the sheet document itself as options.sheet_doc (a JSON object)"),
    "sections_file": ("the server reads no files: upload the sections document itself as "
                      "options.sections_doc (a JSON object {\"sections\": [...]})"),
}
"""Options the server refuses whatever their value (other than null): they name server paths."""
_DOC_OPTIONS = {"sheet_doc": ("sheet", SHEET_DOC_MAX),
                "sections_doc": ("sections", SECTIONS_DOC_MAX)}
"""Document options: what the document is (for messages) and its size cap in bytes."""
DOC_OPTIONS = _DOC_OPTIONS
"""Public name of the document options (the lobby form uploads them as files)."""


def check_options(options: Any, where: str = "options") -> dict[str, Any]:
    """The options object of a create body or a record, without touching any path.

    Refuses (400) a non-object, a ``REFUSED_OPTIONS`` entry with a non-null value (naming the
    option, never reading or echoing it), and a document option (``sheet_doc``) that is not a
    JSON object or is larger than ``SHEET_DOC_MAX`` (413). The values are then checked by the
    game itself (``load_game``)."""
    if not isinstance(options, Mapping):
        raise ApiError(400, N_("{where}: expected an object of option name -> value", where=where))
    for key, value in options.items():
        if not isinstance(key, str):
            raise ApiError(400, N_("{where}: option names are strings", where=where))
        if key in REFUSED_OPTIONS and value is not None:
            raise ApiError(400, N_("{where}.{key}: refused; {REFUSED_OPTIONS}",
                                   where=where, key=key, REFUSED_OPTIONS=REFUSED_OPTIONS[key]))
        if key in _DOC_OPTIONS and value is not None:
            what, cap = _DOC_OPTIONS[key]
            if not isinstance(value, dict):
                raise ApiError(400, N_("{where}.{key}: expected the {what} document as a JSON "
                                       "object, got {short}",
                                       where=where, key=key, what=what, short=short(value)))
            size = len(json.dumps(value, separators=(",", ":")))
            if size > cap:
                raise ApiError(413, N_("{where}.{key}: {size} bytes, at most {cap}",
                                       where=where, key=key, size=size, cap=cap))
    return dict(options)


EXCLUSIVE_OPTIONS = {"sheet_doc": "sheet"}
"""Document option -> the option it replaces (Roll Builder: an uploaded sheet is played
instead of the shipped sheet named by ``sheet``)."""


def check_new_options(options: Mapping[str, Any], cls: type[Game],
                      where: str = "options") -> None:
    """A new game's options may not both upload a document and choose, away from its
    default, the option the document replaces (``EXCLUSIVE_OPTIONS``: a sheet document and
    ``sheet: "highcrag"``), so what is played is never a guess. Records are not checked
    (a game's stored options carry every option). Raises ApiError 400 naming the option."""
    defaults = {o.name: o.default for o in cls.option_specs}
    for doc, plain in EXCLUSIVE_OPTIONS.items():
        if (options.get(doc) is not None and plain in options
                and options[plain] not in (None, defaults.get(plain))):
            raise ApiError(400, N_("{where}.{plain}: {short} chosen and a {doc} document "
                                   "uploaded; give one of them (the document replaces "
                                   "{plain})", where=where, plain=plain,
                                   short=short(options[plain]), doc=doc))


def check_player_count(cls: type[Game], n: Any, where: str = "num_players") -> int:
    """``n`` if it is an integer within ``cls.min_players..cls.max_players``; else 400."""
    lo, hi = cls.min_players, cls.max_players
    if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
        raise ApiError(400, N_("{where}: expected an integer from {lo} to {hi} for {name}, got "
                               "{short}",
                               where=where, lo=lo, hi=hi, name=cls.name, short=short(n)))
    return n


def check_create_body(body: Any, bots: set[str] | frozenset[str]) -> None:
    """Check a create-game body (``POST /api/games``; shape in ``GameManager.create_async``)
    before the manager builds anything from it. Raises ApiError 400 naming the field."""
    if not isinstance(body, dict):
        raise ApiError(400, N_("body: expected a JSON object"))
    cls = requested_game(body)
    if "options" in body:
        check_new_options(check_options(body["options"]), cls)
    seats = body.get("seats")
    if seats is not None:
        if not isinstance(seats, list) or not seats:
            raise ApiError(400, N_("seats: expected a non-empty list of seats"))
        if len(seats) > cls.max_players and "num_players" not in body:
            raise ApiError(400, N_("seats: at most {max_players} seats for {name}, got {count}",
                                   max_players=cls.max_players, name=cls.name, count=len(seats)))
    if "num_players" in body:
        n = check_player_count(cls, body["num_players"])
        if seats is not None and len(seats) != n:
            raise ApiError(400, N_("seats: {n} players need {n} seats, got {count}",
                                   n=n, count=len(seats)))
    elif seats is not None:
        check_player_count(cls, len(seats), "seats")
    for i, s in enumerate((seats or [])[:cls.max_players]):
        if not isinstance(s, dict):
            raise ApiError(400, N_("seats[{i}]: expected an object", i=i))
        extra = sorted(str(k) for k in s if k not in SEAT_KEYS)
        if extra:
            raise ApiError(400, N_("seats[{i}]: unknown key {short}; allowed: {allowed}",
                                   i=i, short=short(extra[0]), allowed=", ".join(SEAT_KEYS)))
        kind = s.get("kind", "human")
        if not isinstance(kind, str) or kind not in SEAT_KINDS:
            raise ApiError(400, N_("seats[{i}].kind: bad value {short}; allowed: {allowed}",
                                   i=i, short=short(kind), allowed=", ".join(SEAT_KINDS)))
        if kind == "bot" and "bot" in s and (not isinstance(s["bot"], str)
                                             or s["bot"] not in bots):
            raise ApiError(400, N_("seats[{i}].bot: unknown bot {short}; allowed: {allowed}",
                                   i=i, short=short(s['bot']), allowed=", ".join(sorted(bots))))
        seat_name(s.get("name"), f"seats[{i}].name")
    if body.get("seed") is not None:
        try:
            check_seed(body["seed"])
        except CitybuildersError as exc:
            raise ApiError(400, message_of(exc)) from None


def check_record(data: Any) -> None:
    """Check an imported record's envelope before it is replayed: an object; ``options``
    without refused (path) options; ``seed`` in range; ``num_players`` within the game's
    range. The replay itself checks the rest. Raises ApiError 400 naming the field."""
    if not isinstance(data, dict):
        raise ApiError(400, N_("record: expected a JSON object"))
    if "options" in data:
        check_options(data["options"], "record: options")
    if "seed" in data:
        try:
            check_seed(data["seed"], "record: seed")
        except CitybuildersError as exc:
            raise ApiError(400, message_of(exc)) from None
    name = data.get("game")
    if isinstance(name, str) and "num_players" in data:
        try:
            cls = game_class(name)
        except CitybuildersError as exc:
            raise ApiError(400, N_("record: game: {exc}", exc=exc)) from None
        check_player_count(cls, data["num_players"], "record: num_players")
