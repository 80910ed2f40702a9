"""Checks on parsed JSON that the parser itself lets through.

JSON text may spell a lone UTF-16 surrogate (``"\\udfff"``); Python's parser turns it into a
``str`` that cannot be encoded as UTF-8, so it would fail much later — in a database write, a
response, a log line. Every JSON document from outside (request bodies, files given to the CLI)
goes through :func:`unicode_problem` right after parsing.
"""

from __future__ import annotations

from typing import Any

__all__ = ["unicode_problem"]


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
