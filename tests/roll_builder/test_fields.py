"""The player sheet's fields are declared once (rules/player_sheet.py FIELDS): readable
attributes, the saved JSON keys unchanged (old records and positions load), aliases agree."""
from __future__ import annotations

from rb_helpers import do, new, roll

from citybuilders.games.roll_builder.rules.player_sheet import (
    CACHE_FIELDS, FIELDS, SAVED_ATTRS, SAVED_FIELDS, PlayerSheet,
)


def test_one_declaration_drives_slots_and_saved_keys() -> None:
    assert PlayerSheet.__slots__ == CACHE_FIELDS + tuple(f[0] for f in FIELDS)
    assert SAVED_FIELDS == tuple(f[1] for f in FIELDS) and len(SAVED_FIELDS) == 45
    assert SAVED_ATTRS["pres"] == "pending_resources" and SAVED_ATTRS["bld1"] == "built"
    assert SAVED_ATTRS["guild"] == "second_mark_of" and SAVED_ATTRS["roads"] == "roads"
    s = new()
    roll(s, 3, 2)
    do(s, "mark 4,4")
    saved = s.to_json()["position"]["players"][0]
    assert list(saved) == [*SAVED_FIELDS, "roads_named"]  # same keys, same order as before
    assert saved["pres"] == [1, 0, 0, 0, 0]


def test_saved_names_are_aliases_of_the_attributes() -> None:
    s = new()
    roll(s, 3, 2)
    do(s, "mark 4,4")
    p = s.players[0]
    for attr, key, _, _ in FIELDS:
        assert getattr(p, key) is getattr(p, attr), key
    assert p.pending_resources == [1, 0, 0, 0, 0] and p.pres is p.pending_resources
    p.pib = 2
    assert p.pending_innovation_bonus == 2
