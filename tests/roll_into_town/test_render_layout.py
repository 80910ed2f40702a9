"""Roll into Town renderers: the SVG layout (header, dice and map never overlap; everything
inside the viewBox) and the 1-based player labels of the text view."""

from __future__ import annotations

import pytest
from rit_helpers import DISCOVER, game, state_at
from svg_layout import boxes, overlap, parse, viewbox


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


def test_text_labels_players_from_one():
    s = state_at(DISCOVER, num_players=2)
    text = s.render_text(1, color=False)
    assert "Player 2 (you):" in text and "Player 1:" in text
    assert "Player 0" not in text and "player 0" not in text
    # no empty breakdown "()" before any points are scored
    assert "Player 1: 0 points  [choosing]" in text.splitlines() and "()" not in text
