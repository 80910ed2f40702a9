"""Roll into Town renderers: the SVG layout (header, dice and map never overlap; everything
inside the viewBox) and the 1-based player labels of the text view."""

from __future__ import annotations

import pytest
from rit_helpers import DISCOVER, game, state_at
from svg_layout import boxes, overlap, parse, viewbox

from citybuilders.games.roll_into_town.render import render_svg


def _layout(s):
    root = parse(s.render_svg(0))
    return viewbox(root), boxes(root)


@pytest.mark.parametrize("size", [5, 9, 15])
@pytest.mark.parametrize("ndice", [5, 6])
def test_svg_header_dice_and_map_do_not_overlap(size, ndice):
    s = game(rows=size, cols=size).new_initial_state(1, 0)
    for _ in range(5):
        s.apply_action(s.game.A_DIE + 5)  # five rolled sixes
    s.sheets[0].res = [9, 9, 9]
    s.dice[0] = [6, 6, 6, 6, 6, 6][:ndice]
    (vx, vy, vw, vh), bs = _layout(s)
    header = [b for b in bs if b.tag == "text" and b.text.startswith("round ")]
    footer = [b for b in bs if b.tag == "text" and b.text.startswith("town hall uses")]
    dice = [b for b in bs if b.tag == "rect" and b.key.startswith("die:")]
    cells = [b for b in bs if b.tag == "rect" and b.key.startswith("sq:")]
    assert len(header) == 1 and len(footer) == 1
    assert len(dice) == ndice and len(cells) == size * size
    assert header[0].text == "round 1 · food 9 stone 9 wood 9"
    grid = (min(b.x0 for b in cells), min(b.y0 for b in cells),
            max(b.x1 for b in cells), max(b.y1 for b in cells))
    for b in [header[0], footer[0]] + dice:
        assert not (b.x0 < grid[2] and grid[0] < b.x1 and b.y0 < grid[3] and grid[1] < b.y1), b
    for i, a in enumerate([header[0], footer[0]] + dice):
        for b in ([header[0], footer[0]] + dice)[i + 1:]:
            assert not overlap(a, b), (a, b)
    for b in bs:
        assert vx <= b.x0 and b.x1 <= vx + vw and vy <= b.y0 and b.y1 <= vy + vh, b


@pytest.mark.parametrize("lang", ["en", "pt_BR", "zh_Hant"])
def test_svg_is_as_wide_as_the_map_in_every_language(lang):
    """A solo 9x9 map: the SVG is the map's width (380 px), not widened by the die -> icon
    table (pt-BR's is ~560 px on one line), whose parts wrap onto more lines; every text
    lies inside the viewBox; on a 5x5 map the dice set the width."""
    s = game().new_initial_state(1, 0)
    root = parse(render_svg(s, 0, lang))
    (vx, vy, vw, vh), bs = viewbox(root), boxes(root)
    assert vw == 9 * 40 + 20
    texts = [b for b in bs if b.tag == "text"]
    for b in texts:
        assert vx <= b.x0 and b.x1 <= vx + vw and vy <= b.y0 and b.y1 <= vy + vh, b
    cells = [b for b in bs if b.tag == "rect" and b.key.startswith("sq:")]
    below = sorted((b for b in texts if b.y0 > max(c.y1 for c in cells)), key=lambda b: b.y0)
    assert len(below) >= (3 if lang == "pt_BR" else 2)  # the table wraps in Portuguese
    for a, b in zip(below, below[1:]):
        assert not overlap(a, b), (a, b)
    small = game(rows=5, cols=5).new_initial_state(1, 0)
    assert viewbox(parse(render_svg(small, 0, lang)))[2] == 10 + 6 * 44 + 2


def test_text_labels_players_from_one():
    s = state_at(DISCOVER, num_players=2)
    text = s.render_text(1, color=False)
    assert "Player 2 (you):" in text and "Player 1:" in text
    assert "Player 0" not in text and "player 0" not in text
    # no empty breakdown "()" before any points are scored
    assert "Player 1: 0 points  [choosing]" in text.splitlines() and "()" not in text
