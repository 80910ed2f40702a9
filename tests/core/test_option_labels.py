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


def test_command_line_words_stay_out_of_what_the_lobby_shows():
    """An option's doc (the lobby's "More about this choice") speaks to a person at the
    lobby: no command line, no Python value ``None``; how a file is passed on the command
    line is the option's note, which ``citybuilders options`` and the docs add after it."""
    import re

    for name in GAMES:
        for o in game_class(name).option_specs:
            shown = " ".join([o.doc, *o.alternatives.values()])
            assert not re.search(r"command line|-o \w+=|load_game|citybuilders \w+|\bNone\b|"
                                 r"\bids?\b|modules?\b|\bB\d:|Index of", shown), (name, o.name, shown)
    notes = {(name, o.name) for name in GAMES for o in game_class(name).option_specs if o.note}
    assert notes == {("kingdom-builder", "sections_doc"), ("kingdom-builder", "cards"),
                     ("kingdom-builder", "tasks"), ("roll-builder", "sheet"),
                     ("roll-builder", "sheet_doc")}


def test_the_note_follows_the_doc_in_the_cli_and_the_docs(tmp_path):
    import subprocess
    import sys

    from citybuilders.core.options import options_markdown

    rb = game_class("roll-builder")
    md = options_markdown("roll-builder", rb.title, rb.option_specs)
    assert "City sheet every player uses. `citybuilders sheets` lists the shipped sheets." in md
    out = subprocess.run([sys.executable, "-m", "citybuilders", "options", "roll-builder"],
                         capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "LANG": "pt_BR.UTF-8",
                              "LC_ALL": "", "LC_MESSAGES": ""}).stdout
    assert "`citybuilders sheets` lista as fichas que vêm no jogo." in out
    assert "`-o sheet_file=PATH`" in out
