"""Smoke test: random games run to the end with consistent invariants."""

from __future__ import annotations

import random

import citybuilders
from citybuilders.bots.random_bot import RandomBot
from citybuilders.core.runner import play_out


def test_random_games_finish() -> None:
    g = citybuilders.load_game("kingdom-builder")
    for n in (2, 3, 4):
        s = g.new_initial_state(n, 11 + n)
        play_out(s, [RandomBot(i) for i in range(n)], random.Random(n))
        assert s.is_terminal()
        assert 0 in s.supply
        for p in range(n):
            assert s.stl[p].bit_count() == 40 - s.supply[p]
