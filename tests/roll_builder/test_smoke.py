from __future__ import annotations

import random

import pytest

from citybuilders.core.game import CHANCE
from citybuilders.core.registry import load_game


@pytest.mark.parametrize("sheet", ["rivermouth", "highcrag", "goldplain"])
def test_random_game_ends_after_15_turns(sheet: str) -> None:
    g = load_game("roll-builder", sheet=sheet)
    s = g.new_initial_state(2, 0)
    rng = random.Random(5)
    while not s.is_terminal():
        cp = s.current_player()
        if cp == CHANCE:
            s.apply_legal(s.sample_chance(rng))
        else:
            la = s.legal_actions(cp)
            s.apply_legal(la[rng.randrange(len(la))], cp)
    assert s.turn == 15 and len(s.turn_list) == 15
    assert all(sc.total == sum(sc.parts.values()) for sc in s.scores())
