"""Every option of every game has a human label and the question it answers (the lobby,
``citybuilders options`` and docs/rules-options.md show them); expansion options name a real
expansion."""

from __future__ import annotations

from citybuilders.core.options import Option
from citybuilders.core.registry import game_class

GAMES = ("kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder")


def test_every_option_has_a_label_and_a_question():
    for name in GAMES:
        for o in game_class(name).option_specs:
            assert o.label and o.label[0].isupper() and "_" not in o.label, (name, o.name)
            assert o.question.endswith("?") and "_" not in o.question, (name, o.name)


def test_only_crossroads_options_wait_for_their_expansion():
    kb = game_class("kingdom-builder")
    gated = {o.name for o in kb.option_specs if o.expansion}
    assert gated == {"tasks", "crossroads_first_draw", "crossroads_identical_cards",
                     "wagon_on_mountains", "piece_move_path", "base_tiles_move_pieces",
                     "tavern_counts_pieces", "fort_without_target", "home_country_terrains",
                     "city_hall_adjacency"}
    expansions = next(o for o in kb.option_specs if o.name == "expansions")
    assert {o.expansion for o in kb.option_specs if o.expansion} <= set(expansions.choices)
    for name in GAMES[1:]:
        assert not any(o.expansion for o in game_class(name).option_specs)


def test_title_and_value_labels():
    o = Option("rare_exception", "redraw", "doc", choices=("redraw", "no_redraw"))
    assert o.title == "Rare exception" and o.value_label("no_redraw") == "No redraw"
    assert Option("x", True, "d", type=bool, label="Wagon").title == "Wagon"
    assert o.value_label(True) == "Yes" and o.value_label(False) == "No"
