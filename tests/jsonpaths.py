"""Test helper: the field paths of a parsed JSON value, for tests that break one field of a
file at a time (the score calculator's fuzz and its translated refusals)."""

from __future__ import annotations

from typing import Any, Iterator


def field_paths(value: Any, items: int | None = None,
                path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path of ``value``: ``()`` first, then each key of a dict and index of a list
    (``("cards", 0, "row")``), depth first; ``items``: only the first that many items of
    each list (None: all)."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from field_paths(v, items, path + (k,))
    elif isinstance(value, list):
        for k, v in enumerate(value[:items]):
            yield from field_paths(v, items, path + (k,))
