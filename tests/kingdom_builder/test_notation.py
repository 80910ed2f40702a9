"""Notation, click paths, text/SVG rendering and the greedy bot's use of tiles."""

from __future__ import annotations

import random
import re

import pytest

from citybuilders.core.errors import IllegalActionError
from citybuilders.games.kingdom_builder.actions import BUILD_BASE, END
from citybuilders.games.kingdom_builder.rules.tiles import TILE_KINDS

from .helpers import give_tile, h, new_state


def position():
    s = new_state(pieces={0: [(4, 5)]}, hands=["grass", "desert"])
    give_tile(s, 0, 2, 18)  # paddock
    give_tile(s, 0, 11, 17)  # farm
    return s


def test_notation_round_trip_of_every_legal_action() -> None:
    s = position()
    legal = s.legal_actions()
    assert legal == sorted(legal)
    for a in legal:
        text = s.action_to_string(a)
        assert s.string_to_action(text) == a
        assert s.string_to_action("  " + text.upper() + " ") == a
    assert s.action_to_string(BUILD_BASE + h(7, 12)) == "build 7,12"
    assert s.action_to_string(END) == "end"
    pad = TILE_KINDS["paddock"]
    assert s.action_to_string(pad.base + h(4, 5) * 400 + h(2, 6)) == "paddock 4,5>2,6"
    assert s.action_to_string(2) == "card desert"


def test_action_paths() -> None:
    s = position()
    pad = TILE_KINDS["paddock"]
    assert s.action_path(BUILD_BASE + h(7, 12)) == ("hex:7,12",)
    assert s.action_path(pad.base + h(7, 12) * 400 + h(9, 12)) == (
        "tile:paddock", "hex:7,12", "hex:9,12")
    assert s.action_path(TILE_KINDS["farm"].base + h(3, 4)) == ("tile:farm", "hex:3,4")
    assert s.action_path(END) == ("end",)


@pytest.mark.parametrize("text,needle", [
    ("fly 1,2", "unknown move 'fly'"),
    ("build 7", "not a hex"),
    ("build 20,3", "off the board"),
    ("paddock 4,5", "FROM>TO"),
    ("paddock 4,5>4,3", "not a legal Paddock action"),
    ("oasis 0,1", "hold no Oasis tile"),
    ("", "empty move"),
])
def test_parse_errors(text: str, needle: str) -> None:
    with pytest.raises(IllegalActionError, match=needle) as exc:
        position().string_to_action(text)
    assert "\n" not in str(exc.value)


def test_render_text_marks_legal_hexes_and_hides_cards() -> None:
    s = position()
    text = s.render_text(0)
    row4 = [line for line in text.splitlines() if line.startswith(" 4 ")][0]
    assert " 1  " in row4 and "G* " in row4  # own settlement (P1 shows as 1) and marked grass
    assert "card grass" in text  # the mover's card is public
    assert "P2: card hidden" in text
    assert "\x1b[" in s.render_text(0, color=True)
    s1 = s.render_text(1)
    assert "P2: card desert" in s1


def test_render_svg_keys() -> None:
    s = position()
    svg = s.render_svg(0)
    keys = re.findall(r'data-key="([^"]+)"', svg)
    assert sum(1 for k in keys if k.startswith("hex:")) == 400
    assert "tile:paddock" in keys and "tile:farm" in keys
    assert 'data-key="hex:3,4" class="hex legal"' in svg
    assert len(set(keys)) == len(keys)


def test_greedy_uses_tiles() -> None:
    s = position()
    rng = random.Random(0)
    played = []
    while s.current_player() == 0:
        a = s.greedy_action(0, rng)
        played.append(s.action_to_string(a))
        s.apply_action(a)
    assert any(p.startswith("farm ") for p in played), played
    assert played[-1] == "end"


def test_notation_lives_in_actions_and_matches_the_loader():
    """actions.py owns the notation (issue 10); its card order is the loader's."""
    from citybuilders.games.kingdom_builder import actions, loader
    from citybuilders.games.kingdom_builder.rules.tiles import TILE_KINDS, kind_of_action

    assert actions.CARD_NAMES_IN_ORDER == loader.CARD_TERRAINS
    assert actions.hex_name(7 * 20 + 12) == "7,12" and actions.parse_hex(" 7, 12") == 152
    for text in ("card flower_field", "end", "build 0,19", "farm 3,4", "paddock 7,12>9,12"):
        a = actions.parse_action(text, TILE_KINDS, tuple(TILE_KINDS))
        assert actions.action_to_string(a, kind_of_action) == text
    import pytest
    with pytest.raises(ValueError, match="off the board"):
        actions.parse_hex("20,0")
    with pytest.raises(ValueError, match="unknown move 'fly'"):
        actions.parse_action("fly 1,1", TILE_KINDS, ("farm",))
