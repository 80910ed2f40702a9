"""``State.playout`` (the rollout of a tree search) against the plain loop it stands for: on every
game, from positions along a random game, with and without a limit, the same state afterwards
(history included) and the same random draws. A game's fused override must keep this."""

from __future__ import annotations

import random

import pytest

import citybuilders
from plain_playout import plain_playout
from citybuilders.core.game import CHANCE, TERMINAL

GAMES = [("kingdom-builder", {}, 3), ("kingdom-builder", {"expansions": ["crossroads"]}, 2),
         ("sprawlopolis", {}, 1), ("roll-into-town", {}, 1), ("roll-builder", {}, 2)]


@pytest.mark.parametrize("name,options,players", GAMES)
def test_playout_is_the_plain_loop(name: str, options: dict, players: int) -> None:
    game = citybuilders.load_game(name, **options)
    checked = 0
    for seed in (1, 2):
        s = game.new_initial_state(players, seed)
        walk = random.Random(seed)
        step = 0
        while s.current_player() != TERMINAL:
            if step % 9 == 0:
                for limit in (None, 0, 1, 5):
                    fast, plain = s.clone(), s.clone()
                    r1, r2 = random.Random(step), random.Random(step)
                    fast.playout(r1, limit)
                    plain_playout(plain, r2, limit)
                    assert fast.history() == plain.history(), (name, seed, step, limit)
                    assert fast == plain
                    assert r1.getstate() == r2.getstate()
                    if limit is None:
                        assert fast.is_terminal()
                    elif not fast.is_terminal():
                        assert fast.current_player() != CHANCE
                    checked += 1
            cp = s.current_player()
            if cp == CHANCE:
                s.apply_legal(s.sample_chance(walk))
            else:
                s.apply_legal(s.sample_action(walk, cp), cp)
            step += 1
    assert checked > 8
