"""Names people give: the one check of a seat or player name wherever one comes in.

A name is one line of text: 1 to :data:`NAME_MAX` characters once whitespace runs are folded
to one space and the ends trimmed, and no control character at all (no NUL, which PostgreSQL
refuses and SQLite keeps, so both databases agree; no escape sequence, carriage return or line
break, which would reach a terminal or forge a table row), and no text direction control (which
would make one name display as another). Used by the web API (create,
rename), the lobby form, records (``players``), the store, and the files of the command line
(score files' and sheets' names) with their own field names and error types.
"""

from __future__ import annotations

from typing import Any

from .errors import CitybuildersError, FormatError
from .i18n import N_
from .jsonsafe import control_char

__all__ = ["DIRECTION_CONTROLS", "NAME_MAX", "check_name", "direction_char", "fold_name"]

NAME_MAX = 40
"""Longest seat or player name (characters, after folding whitespace)."""


DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The Unicode embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069): they
reorder the text after them, so a name holding one could display as another ("Ann" + U+202E
reversing what follows). Right-to-left names need none of them: the letters carry their own
direction."""


def direction_char(text: str) -> str | None:
    """The first of :data:`DIRECTION_CONTROLS` in ``text``, spelled ``U+202E``; None if none.

    >>> direction_char("Ann\u202eeoJ"), direction_char("\u05d3\u05e0\u05d4")
    ('U+202E', None)
    """
    for ch in text:
        if ch in DIRECTION_CONTROLS:
            return f"U+{ord(ch):04X}"
    return None


def fold_name(text: str) -> str:
    """``text`` with each run of whitespace as one space, trimmed (``" Ann  Lee "`` -> ``"Ann
    Lee"``)."""
    return " ".join(text.split())


def check_name(value: Any, where: str, *, optional: bool = False, limit: int = NAME_MAX,
               error: type[CitybuildersError] = FormatError) -> str | None:
    """``value`` as a name is stored (:func:`fold_name`), or None for a missing or blank name
    when ``optional`` (the caller gives the default name).

    Raises ``error`` naming ``where``: ``"<where>: control character U+0000; a name is one
    line of text"`` (checked first: the folding would hide a tab or line break), or
    ``"<where>: expected a name of 1 to <limit> characters"`` (not a string, blank, too long).

    >>> check_name("  Ann   Lee ", "name")
    'Ann Lee'
    >>> check_name("", "seats[1].name", optional=True) is None
    True
    >>> check_name("a\\x00b", "seats[0].name")
    Traceback (most recent call last):
        ...
    citybuilders.core.errors.FormatError: seats[0].name: control character U+0000; a name is one line of text
    """
    if value is None and optional:
        return None
    if isinstance(value, str):
        code = control_char(value)
        if code is not None:
            raise error(N_("{where}: control character {code}; a name is one line of text",
                           where=where, code=code))
        code = direction_char(value)
        if code is not None:
            raise error(N_("{where}: text direction control {code}; a name is shown as it is "
                           "typed, in either direction, without them", where=where, code=code))
        name = fold_name(value)
        if not name and optional:
            return None
        if 0 < len(name) <= limit:
            return name
    raise error(N_("{where}: expected a name of 1 to {limit} characters", where=where,
                   limit=limit))
