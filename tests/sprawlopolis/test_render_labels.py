"""Sprawlopolis text view and terminal start: the conditions are said once (the board header
carries the setup line), and players are labelled from 1."""

from __future__ import annotations

import io
import random

from citybuilders.core.registry import load_game
from citybuilders.terminal import play_terminal


def _eof(prompt: str) -> str:
    raise EOFError


def test_terminal_states_the_conditions_once_when_a_human_plays() -> None:
    g = load_game("sprawlopolis")
    out = io.StringIO()
    s = play_terminal(g, ["human", "greedy"], seed=4, color=False, inp=_eof, out=out)
    setup = g.describe_setup(s)
    assert setup == "conditions 6-10-13 (target 29)"
    text = out.getvalue()
    assert text.count(setup) == 1
    assert text.count("13 Park Hopping") == 1
    assert "Sprawlopolis - conditions 6-10-13 (target 29): 6 Master Planned, 10 The Strip, " \
           "13 Park Hopping" in text.splitlines()


def test_terminal_with_bots_only_prints_the_setup_line_first() -> None:
    g = load_game("sprawlopolis")
    out = io.StringIO()
    play_terminal(g, ["random"], seed=4, color=False, inp=_eof, out=out)
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("conditions ") and lines[1].endswith(")")


def test_hands_and_active_player_are_one_based() -> None:
    s = load_game("sprawlopolis").new_initial_state(2, 4)
    rng = random.Random(1)
    while s.is_chance_node():
        s.apply_action(s.sample_chance(rng))
    text = s.render_text(1, color=False)
    assert "hands: P1 3, P2 1; active P1" in text and "your hand (P2)" in text
