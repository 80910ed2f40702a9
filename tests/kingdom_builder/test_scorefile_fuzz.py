"""Fuzz the score calculator (``citybuilders score kingdom-builder FILE`` = ``Game.score_file``):
random and mutated score files give a score or one FormatError line starting with a field name,
never another exception."""

from __future__ import annotations

import copy
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import citybuilders
from citybuilders.core.errors import FormatError

from .test_crossroads_scorefile import example as crossroads_example
from .test_scorefile import example

GAME = citybuilders.load_game("kingdom-builder")
FIELD = re.compile(
    r"^(score file|'?[a-z_]+'?(\[\d+\])*)(: | must | has )"
)
"""A message starts with the field: ``score file``, ``cards``, ``'sections'``,
``settlements[1][3]`` ..., then ``: `` (or ``' must``/``' has`` after a quoted key)."""

KEYS = ["game", "sections", "cards", "settlements", "options", "wagons", "ships", "warriors",
        "city_hall", "tasks", "warrior", "bogus"]
leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 25), st.sampled_from(
        ["tavern", "farm", "lords", "road", "x", "", "monastery_wagon", "never", "\n<b>"]),
)
value = st.recursive(leaf, lambda kids: st.one_of(
    st.lists(kids, max_size=8), st.dictionaries(st.sampled_from(KEYS), kids, max_size=4)),
    max_leaves=20)
path_step = st.integers(0, 9)


def _mutate(data: Any, path: list[int], new: Any, delete: bool) -> Any:
    """Replace (or delete) the node reached by following ``path`` (indices modulo the size of
    each list / object on the way)."""
    data = copy.deepcopy(data)
    parent: Any = None
    key: Any = None
    node = data
    for step in path:
        if isinstance(node, dict) and node:
            key = sorted(node)[step % len(node)]
        elif isinstance(node, list) and node:
            key = step % len(node)
        else:
            break
        parent, node = node, node[key]
    if parent is None:
        return new
    if delete:
        del parent[key]
    else:
        parent[key] = new
    return data


def _check(data: Any) -> None:
    try:
        res = GAME.score_file(data)
    except FormatError as exc:
        msg = str(exc)
        assert "\n" not in msg, msg
        assert FIELD.match(msg), msg
        return
    out = res.to_json()
    assert len(out["players"]) in (2, 3, 4)
    assert res.to_text()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from([example, crossroads_example]),
       path=st.lists(path_step, max_size=5), new=value, delete=st.booleans())
def test_mutated_files(base, path: list[int], new: Any, delete: bool) -> None:
    _check(_mutate(base(), path, new, delete))


@settings(max_examples=80, deadline=None)
@given(data=st.dictionaries(st.sampled_from(KEYS), value, max_size=6))
def test_random_files(data: dict) -> None:
    _check(data)


def test_examples_still_score() -> None:
    _check(example())
    _check(crossroads_example())
