"""texts.py names every symbol, effect and action of Roll Builder; the SVG shows the legend."""
from __future__ import annotations

from citybuilders.core.registry import load_game
from citybuilders.games.roll_builder import texts
from citybuilders.games.roll_builder.actions import KINDS
from citybuilders.games.roll_builder.loader import EFFECT_TYPES, RES_ABBR, RESOURCES


def test_every_code_has_a_text() -> None:
    assert set(texts.SYMBOL_NAMES) == {*RES_ABBR, "BB", "BW", "IB", "U!", "2v"}
    assert set(texts.EFFECT_RULES) == set(EFFECT_TYPES)
    assert set(texts.ACTION_NAMES) == set(KINDS)
    assert set(RESOURCES) < set(texts.RESOURCE_NAMES) == set(texts.RESOURCE_RULES)


def test_svg_has_the_symbol_legend() -> None:
    svg = load_game("roll-builder").new_initial_state(1, 0).render_svg(0)
    assert ('<text class="legend" x="30" y="597" font-size="9" fill="#555">symbols:  Fo food  '
            'Su supplies  We wealth  Fa favor  St strength  BB bonus Build</text>') in svg
    assert svg.endswith(">BW bonus Wonder  IB innovation bonus  U! unlocks a wonder box  2v points"
                        "  ✗ collected</text></svg>")


def test_text_board_key_is_the_texts_key() -> None:
    s = load_game("roll-builder").new_initial_state(1, 0)
    assert texts.TEXT_MAP_KEY in s.render_text(0).splitlines()
