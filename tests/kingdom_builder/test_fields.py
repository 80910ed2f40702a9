"""The state's fields are declared once (SAVED_FIELDS / CROSSROADS_SAVED_FIELDS + SETUP_FIELDS):
``__slots__`` and the position JSON are derived from them and the hand-written ``_clone`` /
``__init__`` are checked against them here."""

from __future__ import annotations

import random

import citybuilders
from citybuilders.games.kingdom_builder.rules.crossroads_state import (
    CROSSROADS_SAVED_FIELDS,
    CrossroadsState,
)
from citybuilders.games.kingdom_builder.rules.state import (
    SAVED_FIELDS,
    SETUP_FIELDS,
    STATUS_NAMES,
    KingdomBuilderState,
    TileStatus,
)


def _played(options: dict, seed: int, steps: int) -> KingdomBuilderState:
    g = citybuilders.load_game("kingdom-builder", **options)
    s = g.new_initial_state(3, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply_action(s.sample_chance(rng) if s.is_chance_node()
                       else rng.choice(s.legal_actions()))
    return s


def test_slots_are_the_declared_fields() -> None:
    saved = tuple(n for n, _ in SAVED_FIELDS)
    assert KingdomBuilderState.__slots__ == SETUP_FIELDS + saved
    assert CrossroadsState.__slots__ == tuple(n for n, _ in CROSSROADS_SAVED_FIELDS) + ("xo",)
    assert len(set(KingdomBuilderState.__slots__)) == 31


def test_position_json_keys_follow_the_field_table() -> None:
    s = _played({}, 1, 60)
    assert list(s._position_json()) == [n for n, _ in SAVED_FIELDS] + ["sections", "cards"]
    x = _played({"expansions": ["crossroads"]}, 1, 60)
    assert list(x._position_json()["crossroads"]) == [n for n, _ in CROSSROADS_SAVED_FIELDS]


def test_init_and_clone_set_every_field() -> None:
    for options in ({}, {"expansions": ["crossroads"]}):
        s = _played(options, 2, 90)
        slots = [n for cls in type(s).__mro__ for n in getattr(cls, "__slots__", ())]
        c = s.clone()
        for name in slots:
            assert hasattr(s, name), name
            a, b = getattr(s, name), getattr(c, name)
            assert a == b, name
            if isinstance(a, list):
                assert a is not b, f"{name} is shared by the clone"
        fresh = s.game.new_initial_state(3, 2)
        for name in slots:
            assert hasattr(fresh, name), name


def test_saved_fields_round_trip() -> None:
    for options in ({}, {"expansions": ["crossroads"]}):
        s = _played(options, 3, 120)
        back = s.game.state_from_json(s.to_json())
        for name, _ in SAVED_FIELDS:
            assert getattr(back, name) == getattr(s, name), name


def test_tile_status_codes() -> None:
    assert [int(t) for t in TileStatus] == [0, 1, 2, 3, 4]
    assert STATUS_NAMES == ("none", "ready", "used", "new", "lost")
