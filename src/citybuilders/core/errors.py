"""Exceptions shared by every game.

Every error a user can trigger derives from :class:`CitybuildersError`; its message is one
line that names the offending field or move and says what is allowed, so the CLI and the web
server can show it as is (never a traceback).
"""

from __future__ import annotations


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
