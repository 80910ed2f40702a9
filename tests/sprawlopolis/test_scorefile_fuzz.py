"""Fuzz the score calculator: random and mutated score files through ``Game.score_file`` raise
nothing but a one-line FormatError whose message starts with the field (issue 11)."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from citybuilders.core.errors import FormatError
from citybuilders.core.registry import load_game
from citybuilders.games.sprawlopolis.actions import index_of

GAME = load_game("sprawlopolis")
FIELD = re.compile(r"^(file|game|conditions|cards|grid|options)\b")


def _finished(seed: int) -> dict[str, Any]:
    state = GAME.new_initial_state(1, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(state.sample_chance(rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    return {"game": "sprawlopolis", "conditions": list(state.conditions),
            "cards": state.placements_json()}


BASES: list[dict[str, Any]] = [_finished(k) for k in range(4)]


def _with_grid(base: dict[str, Any]) -> dict[str, Any]:
    state = GAME.new_initial_state(1, 0)
    for pl in base["cards"]:
        state.city.place(pl["card"], *_pos(pl))
    return {"conditions": base["conditions"], "grid": state.grid_rows()[2],
            "options": {"city_edge": "outer"}}


def _pos(pl: dict[str, int]) -> tuple[int, int]:
    return index_of(pl["row"], pl["col"]), 1 if pl["rot"] == 180 else 0


BASES += [_with_grid(b) for b in BASES[:2]]

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10 ** 8), max_value=10 ** 8),
    st.sampled_from([0, 1, 18, 19, -1, 180, 90, 10 ** 400]),
    st.floats(allow_nan=False), st.text(max_size=12),
    st.sampled_from(["C", "P I-NE", "R-EW .", "x\ny", "sprawlopolis", "outer", "forbidden"]),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.text(max_size=8), inner, max_size=5)),
    max_leaves=20,
)
KEYS = ["game", "conditions", "cards", "grid", "options", "card", "row", "col", "rot", "city_edge",
        "cover_whole_card", "colour", "", "rot\n"]


def _containers(obj: Any, out: list[Any]) -> list[Any]:
    if isinstance(obj, (dict, list)):
        out.append(obj)
        for v in (obj.values() if isinstance(obj, dict) else obj):
            _containers(v, out)
    return out


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    data = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        target = draw(st.sampled_from(_containers(data, [])))
        op = draw(st.sampled_from(["set", "delete", "add"]))
        if isinstance(target, dict):
            if op == "delete" and target:
                target.pop(draw(st.sampled_from(sorted(target))))
            elif op == "set" and target:
                target[draw(st.sampled_from(sorted(target)))] = draw(json_value)
            else:
                target[draw(st.sampled_from(KEYS))] = draw(json_value)
        elif target:
            k = draw(st.integers(min_value=0, max_value=len(target) - 1))
            if op == "delete":
                target.pop(k)
            elif op == "set":
                target[k] = draw(json_value)
            else:
                target.insert(k, draw(json_value) if draw(st.booleans()) else copy.deepcopy(target[k]))
    return data


def _check(data: Any) -> None:
    try:
        result = GAME.score_file(data)
    except FormatError as exc:
        msg = str(exc)
        assert FIELD.match(msg), msg
        assert "\n" not in msg and len(msg) < 400, msg
        return
    result.to_json()
    result.to_text()


@settings(max_examples=150, deadline=None)
@given(mutated())
def test_mutated_score_files(data: Any) -> None:
    _check(data)


@settings(max_examples=50, deadline=None)
@given(json_value)
def test_random_json_values(data: Any) -> None:
    _check(data)


def test_the_bases_score() -> None:
    for base in BASES:
        assert isinstance(GAME.score_file(base).to_json()["total"], int)
