"""Roll Builder renderers: the SVG viewBox holds every element on every shipped sheet, and the
text header names the sheet once with a 1-based player label."""

from __future__ import annotations

import random

import pytest
from svg_layout import boxes, parse, viewbox

from citybuilders.core.registry import load_game
from citybuilders.core.rng import make_rng
from citybuilders.games.roll_builder.loader import shipped_sheet_names


def _played(sheet: str, n: int, plies: int, seed: int = 5):
    g = load_game("roll-builder", sheet=sheet)
    s = g.new_initial_state(n, seed)
    rng, chance = random.Random(seed), make_rng(seed, "chance")
    for _ in range(plies):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_legal(s.sample_chance(chance))
            continue
        cp = s.current_player()
        s.apply_legal(rng.choice(s.legal_actions(cp)), cp)
    return s


@pytest.mark.parametrize("sheet", shipped_sheet_names())
@pytest.mark.parametrize("plies", [0, 40])
def test_svg_viewbox_holds_every_element(sheet, plies):
    s = _played(sheet, 1, plies)
    root = parse(s.render_svg(0))
    vx, vy, vw, vh = viewbox(root)
    bs = boxes(root)
    assert any(b.key == "track:strength" for b in bs) and any(b.key == "storage" for b in bs)
    for b in bs:
        assert vy <= b.y0 and b.y1 <= vy + vh, (b, vh)
        assert vx <= b.x0 and b.x1 <= vx + vw, (b, vw)
    # no slack: the last line ends within 20 units of the bottom edge
    assert vy + vh - max(b.y1 for b in bs) < 20


def test_text_header_player_label_is_one_based():
    s = _played("rivermouth", 2, 0)
    first = s.render_text(1, color=False).splitlines()[0]
    assert first == "Roll Builder — Rivermouth  P2 of 2  turn 1/15"
    key = [line for line in s.render_text(1).splitlines() if line.startswith("key:")]
    assert key and "T town" in key[0]  # every map glyph is explained
    solo = _played("rivermouth", 1, 0).render_text(0, color=False).splitlines()[0]
    assert solo == "Roll Builder — Rivermouth  turn 1/15"


def test_terminal_names_the_sheet_once() -> None:
    import io

    from citybuilders.terminal import play_terminal

    def eof(prompt: str) -> str:
        raise EOFError

    out = io.StringIO()
    play_terminal(load_game("roll-builder"), ["human", "greedy"], seed=4, color=False, inp=eof,
                  out=out)
    text = out.getvalue()
    assert text.count("Rivermouth") == 1
    assert "Roll Builder — Rivermouth  P1 of 2  turn 1/15" in text.splitlines()
