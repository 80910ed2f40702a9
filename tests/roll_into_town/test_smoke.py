from __future__ import annotations

import random

from citybuilders.bots import make_bot
from citybuilders.core.registry import load_game
from citybuilders.core.runner import play_out


def test_random_solo_game_ends_with_twelve_rounds():
    g = load_game("roll-into-town")
    s = g.new_initial_state(1, 0)
    play_out(s, [make_bot("random", 1)], random.Random(2))
    assert s.is_terminal()
    rolls = [a for actor, a in s.history() if actor < 0]
    assert len(rolls) == 6 * 5 + 3 * 4 + 3 * 3
