"""Kingdom Builder's fused ``playout`` (rules/state.py) against the plain rollout loop it stands
for, on positions along random games of both editions under the rules options that change the
turn (rare exception, tile loss timing, null moves, the Crossroads tile's cards): the same state
afterwards (history included) and the same random draws, with and without a limit on the
player actions, with ``random.Random`` (the inlined draws) and with a subclass that draws
otherwise (the core loop). The rollout's end, ``winners`` from ``score_totals``, against the
scores' totals."""

from __future__ import annotations

import random

import pytest

import citybuilders
from plain_playout import plain_playout
from citybuilders.core.game import CHANCE, TERMINAL

OPTIONS = [
    {},
    {"rare_exception": "no_redraw"},
    {"tile_loss_timing": "end_of_turn", "null_move": "allowed"},
    {"expansions": ["crossroads"]},
    {"expansions": ["crossroads"], "crossroads_identical_cards": "any_terrain",
     "crossroads_first_draw": "next_turn", "base_tiles_move_pieces": True},
    {"expansions": ["crossroads"], "rare_exception": "no_redraw",
     "fort_without_target": "redraw", "tile_loss_timing": "end_of_turn"},
]


def _label(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "base"


class _OtherDraws(random.Random):
    """An rng whose ``_randbelow`` is not ``random.Random``'s (it draws from ``random()``)."""

    def random(self) -> float:
        return super().random()


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: _label(o))
def test_fused_playout_is_the_plain_loop(options: dict) -> None:
    game = citybuilders.load_game("kingdom-builder", **options)
    checked = 0
    for seed in range(4):
        s = game.new_initial_state(2 + seed % 3, seed)
        walk = random.Random(seed)
        step = 0
        while s.current_player() != TERMINAL:
            if step % 7 == seed % 7:
                limit = (None, 0, 1, 4, 13)[step % 5]
                fast, plain = s.clone(), s.clone()
                rng_type = _OtherDraws if step % 3 == 2 else random.Random
                r1, r2 = rng_type(step * 31 + seed), rng_type(step * 31 + seed)
                fast.playout(r1, limit)
                plain_playout(plain, r2, limit)
                assert fast.history() == plain.history(), (seed, step, limit)
                assert fast == plain
                assert r1.getstate() == r2.getstate()
                checked += 1
            cp = s.current_player()
            if cp == CHANCE:
                s.apply_legal(s.sample_chance(walk))
            else:
                s.apply_legal(s.sample_action(walk, cp), cp)
            step += 1
    assert checked > 60


@pytest.mark.parametrize("options", OPTIONS[::3] + OPTIONS[4:5], ids=lambda o: _label(o))
def test_winners_from_the_totals_are_the_scores_winners(options: dict) -> None:
    game = citybuilders.load_game("kingdom-builder", **options)
    for seed in range(12):
        s = game.new_initial_state(2 + seed % 3, seed)
        rng = random.Random(seed)
        if seed % 2:
            s.playout(rng, 10 + 4 * seed)
        else:
            s.playout(rng)
        totals = [ps.total for ps in s.scores()]
        assert s.score_totals() == totals
        best = max(totals)
        assert s.winners() == [p for p, t in enumerate(totals) if t == best]
        assert s.is_terminal() == (seed % 2 == 0)
