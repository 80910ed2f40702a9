"""Exceptions shared by every game.

Every error a user can trigger derives from :class:`CitybuildersError`; its message is one
line that names the offending field or move and says what is allowed, so the CLI and the web
server can show it as is (never a traceback).
"""

from __future__ import annotations

from typing import Any

SHORT_MAX = 40
"""Longest echo of a client's or file's value in a message (characters)."""


def short(value: Any) -> str:
    r"""``value`` as an error message shows it: its type for containers, else its ``repr`` (one
    line: control characters escaped) cut to :data:`SHORT_MAX` characters, so a message never
    grows with the input (a 1 MB move text is echoed as 40 characters).

    >>> len(short("x" * 1000)), short("x" * 1000)[-4:]
    (40, 'x...')
    >>> short({"a": 1}), short([1]), short(10 ** 100)
    ('a JSON object', 'a JSON list', 'a very large number')
    >>> print(short("\x1b[31m"))
    '\x1b[31m'
    """
    from .i18n import N_  # (i18n imports this module)

    if isinstance(value, (dict, list)):
        return N_("a JSON object") if isinstance(value, dict) else N_("a JSON list")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return N_("a very large number")
    text = repr(value)
    return text if len(text) <= SHORT_MAX else text[:SHORT_MAX - 3] + "..."


class CitybuildersError(Exception):
    """Base class of all user-facing errors (one-line message)."""


class IllegalActionError(CitybuildersError, ValueError):
    """An action that is not legal in the current state.

    Raised by ``State.apply_action`` (the state is left unchanged) and by
    ``State.string_to_action`` for text that does not parse or names an illegal move.
    """


class OptionError(CitybuildersError, ValueError):
    """An unknown rules/setup option or a bad value; the message lists what is allowed."""


class RecordError(CitybuildersError, ValueError):
    """A record (or saved position) that cannot be loaded or replayed; names the move number."""


class FormatError(CitybuildersError, ValueError):
    """A malformed input file (score file, sheet, position); names the field and the problem."""


class UnknownGameError(CitybuildersError, KeyError):
    """A game name that is not registered; the message lists the registered games."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown game"
