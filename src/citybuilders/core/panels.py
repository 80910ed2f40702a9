"""Helpers for the "Your view" panels of the web pages (a seat's observation for people).

An observation is the engine's JSON view of the position (``State.observation``), made for bots
and tests: it carries bitsets (``"roads": "0x1080..."``), sentinels (``current_player: -4`` at
the end), 0-based seat and die indices and fields a player never needs. A game's
``View.display_panels`` (in its ``render.py``) turns it into a short list of panels
``[{"title": str, "value": JSON}]`` with these helpers; :func:`generic_panels` serves any key
the game does not lay out itself:

* internal values are dropped (hex strings, integers outside 0..65535 such as bitsets or
  negative sentinels, ``None``, ids), seat indices become seat names ("Player 1 (you)"),
  ``players``/``sheets`` lists become one entry per seat.

Only what is in the seat's observation is shown, so nothing hidden can leak through here.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from .view import Panel
from .i18n import gettext_now

__all__ = ["Panel", "clean", "generic_panels", "per_seat", "nonzero", "seat_name", "title_of", "HEX"]

HEX = re.compile(r"^0x[0-9a-fA-F]+$")
_DROP_KEYS = {"game", "you", "player", "seat", "scores", "score", "id"}
_SEAT_KEYS = {"current_player", "start_player", "active_player", "to_move", "first_player"}
_SEAT_LIST_KEYS = {"active_players", "winners"}
_PER_SEAT_KEYS = {"players", "sheets"}
_MAX_SMALL_INT = 65535


def title_of(key: str) -> str:
    text = key.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def seat_name(names: Sequence[str], seat: int, you: int | None) -> str:
    name = names[seat] if 0 <= seat < len(names) else gettext_now("Player {num}", num=seat + 1)
    return gettext_now("{name} (you)", name=name) if you is not None and seat == you else name


def _internal(value: Any) -> bool:
    """A value no player needs: a bitset, a sentinel, a hex string, nothing."""
    if value is None:
        return True
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value < 0 or value > _MAX_SMALL_INT
    if isinstance(value, str):
        return bool(HEX.match(value))
    return False


def clean(value: Any, names: Sequence[str], you: int | None, key: str = "") -> Any:
    """``value`` without internal fields, seat indices as names; ``None`` = leave it out.

    Rules: keys ``game, you, player, seat, scores, score, id``, ``*_id`` and ``_*`` are left
    out; a seat key (``current_player``...) becomes the seat's name (left out if negative);
    a list of as many objects as there are seats under ``players``/``sheets`` becomes an
    object seat name -> entry; booleans read yes/no."""
    if key in _SEAT_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return seat_name(names, value, you) if 0 <= value < len(names) else None
    if key in _SEAT_LIST_KEYS and isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return ", ".join(seat_name(names, v, you) for v in value) or "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if _internal(value):
        return None
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            k = str(k)
            if k in _DROP_KEYS or k.endswith("_id") or k.startswith("_"):
                continue
            c = clean(v, names, you, k)
            if c is not None:
                out[title_of(k)] = c
        return out
    if isinstance(value, list):
        if key in _PER_SEAT_KEYS and len(value) == len(names) and all(
                isinstance(v, dict) for v in value):
            return {seat_name(names, i, you): clean(v, names, you) for i, v in enumerate(value)}
        items = [clean(v, names, you) for v in value]
        return [v for v in items if v is not None]
    return value


def generic_panels(obs: dict[str, Any], names: Sequence[str], you: int | None,
             skip: set[str] = frozenset()) -> list[Panel]:  # type: ignore[assignment]
    out = []
    for k, v in obs.items():
        if k in skip or k in _DROP_KEYS or k.endswith("_id") or k.startswith("_"):
            continue
        c = clean(v, names, you, k)
        if c is None or c == {} or c == []:
            continue
        out.append({"title": title_of(k), "value": c})
    return out


def per_seat(rows: Sequence[Any], names: Sequence[str], you: int | None,
              fn: Callable[[int, dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """Seat name -> ``fn(seat, row)``, your own seat first."""
    order = list(range(len(rows)))
    if you is not None and 0 <= you < len(rows):
        order.remove(you)
        order.insert(0, you)
    return {seat_name(names, i, you): fn(i, rows[i]) for i in order
            if isinstance(rows[i], dict)}


def nonzero(counts: Any) -> Any:
    if not isinstance(counts, dict):
        return counts
    shown = {k.replace("_", " "): v for k, v in counts.items() if v}
    return shown or "(none)"
