"""The greedy bot's incremental values (strategy.BuildValues) equal the values of the real
successor positions, move for move, so the greedy bot plays exactly as before."""

from __future__ import annotations

import random

import citybuilders
from citybuilders.core.game import CHANCE
from citybuilders.games.kingdom_builder.scoring import CARDS
from citybuilders.games.kingdom_builder.strategy import KingdomBuilderStrategy, base_value


def test_incremental_values_equal_the_successors_values() -> None:
    strategy = KingdomBuilderStrategy()
    checked = 0
    for seed in range(10):  # null move allowed in odd seeds, end-of-turn tile loss in some
        # every card appears: 3 of the 10 per game, rotated through the seeds
        cards = [CARDS[(seed + k) % 10] for k in (0, 3, 6)]
        extra = {"null_move": "allowed"} if seed % 2 else {}
        if seed % 3 == 1:
            extra["tile_loss_timing"] = "end_of_turn"
        g = citybuilders.load_game("kingdom-builder", cards=cards, **extra)
        s = g.new_initial_state(2 + seed % 3, seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s.apply_legal(s.sample_chance(rng))
                continue
            p = s.current_player()
            legal = s.legal_actions(p)
            got = strategy.one_ply_values(s, p, legal)
            want = [base_value(s.successor(a, p), p) for a in legal]
            assert got == want
            checked += len(legal)
            s.apply_legal(legal[rng.randrange(len(legal))], p)
    assert checked > 5000
