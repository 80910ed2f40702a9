"""Checks on parsed JSON that the parser itself lets through.

JSON text may spell a lone UTF-16 surrogate (``"\\udfff"``); Python's parser turns it into a
``str`` that cannot be encoded as UTF-8, so it would fail much later — in a database write, a
response, a log line. Every JSON document from outside (request bodies, files given to the CLI)
goes through :func:`unicode_problem` right after parsing.

JSON may also spell control characters (``"\\u0000"``, ``"\\u001b]0;..."``): PostgreSQL refuses
NUL in text columns, and escape sequences and carriage returns reach a terminal as commands (a
changed window title, a forged table row). The documents that are shown (files given to the
CLI, sheet and sections documents wherever they come from) go through :func:`text_problem`:
every control character but tab and line feed is refused, naming the field. Names refuse those
two as well, wherever they come from (``core.names.check_name``: request bodies, forms,
records, score files, sheets).
"""

from __future__ import annotations

from typing import Any

from .i18n import N_

__all__ = ["unicode_problem", "text_problem", "control_char", "TEXT_CONTROLS"]

TEXT_CONTROLS = "\t\n"
"""The control characters a text field of a document may hold (tab, line feed)."""


def _bad(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def unicode_problem(value: Any, where: str) -> str | None:
    """``"<path>: not valid Unicode (a lone surrogate)"`` for the first string (key or value)
    in ``value`` that is not valid Unicode, else None. ``where`` names the document (``body``).

    >>> unicode_problem({"seats": [{"name": "\\udfff"}]}, "body")
    'body.seats[0].name: not valid Unicode (a lone surrogate)'
    >>> unicode_problem({"ok": ["é", 1]}, "body") is None
    True
    """
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        v, path = stack.pop()
        if isinstance(v, str):
            if _bad(v):
                return f"{path}: not valid Unicode (a lone surrogate)"
        elif isinstance(v, dict):
            for k, item in v.items():
                if isinstance(k, str) and _bad(k):
                    return f"{path}: a key is not valid Unicode (a lone surrogate)"
                stack.append((item, f"{path}.{k}"))
        elif isinstance(v, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(v))
    return None


def control_char(text: str, allowed: str = "") -> str | None:
    """The first control character of ``text`` (Unicode category Cc: U+0000-U+001F and
    U+007F-U+009F) that is not in ``allowed``, spelled ``U+001B``; None if there is none.

    >>> control_char("Ann\\x1b]0;x"), control_char("a\\tb", "\\t"), control_char("Zoë")
    ('U+001B', None, None)
    """
    for ch in text:
        code = ord(ch)
        if (code < 0x20 or 0x7F <= code <= 0x9F) and ch not in allowed:
            return f"U+{code:04X}"
    return None


def text_problem(value: Any, where: str) -> str | None:
    """:func:`unicode_problem`, then the first string (key or value) in ``value`` holding a
    control character other than tab and line feed: ``"<path>: control character U+001B; a
    text may hold no control characters but tabs and line breaks"``; else None.

    >>> text_problem({"seats": [{"name": "a\\u0000b"}]}, "body").split(";")[0]
    'body.seats[0].name: control character U+0000'
    >>> text_problem({"note": "two\\nlines"}, "body") is None
    True
    """
    problem = unicode_problem(value, where)
    if problem is not None:
        return problem
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        v, path = stack.pop()
        if isinstance(v, str):
            code = control_char(v, TEXT_CONTROLS)
            if code is not None:
                return N_("{path}: control character {code}; a text may hold no control "
                          "characters but tabs and line breaks", path=path, code=code)
        elif isinstance(v, dict):
            for k, item in v.items():
                code = control_char(k, TEXT_CONTROLS) if isinstance(k, str) else None
                if code is not None:
                    return N_("{path}: a key holds control character {code}", path=path,
                              code=code)
                stack.append((item, f"{path}.{k}"))
        elif isinstance(v, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(v))
    return None
