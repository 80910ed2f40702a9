"""The random bot draws through ``State.sample_action``: on every game the same moves and the
same random draws as picking from the full legal list (the core contract)."""

from __future__ import annotations

import random

import pytest

import citybuilders
from citybuilders.bots import RandomBot
from citybuilders.core.game import CHANCE, TERMINAL


@pytest.mark.parametrize("game,players", [("kingdom-builder", 3), ("sprawlopolis", 1),
                                          ("roll-into-town", 1), ("roll-builder", 2)])
def test_random_bot_plays_the_list_draw(game: str, players: int) -> None:
    s = citybuilders.load_game(game).new_initial_state(players, 7)
    chance = random.Random(7)
    bot = RandomBot(3)
    mirror = random.Random(3)
    moves = 0
    while s.current_player() != TERMINAL and moves < 150:
        if s.current_player() == CHANCE:
            s.apply_legal(s.sample_chance(chance))
            continue
        p = s.active_players()[0]
        legal = s.legal_actions(p)
        a = bot.step(s, p)
        assert a == legal[mirror.randrange(len(legal))]
        s.apply_legal(a, p)
        moves += 1
    assert bot.rng.getstate() == mirror.getstate()
    assert moves > 10
