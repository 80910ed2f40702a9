"""The direct tensor paths (read from the engine's fields, no observation JSON) give exactly the
tensor of the reference path built from ``observation(player)`` - so they show nothing more."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citybuilders.core.registry import load_game
from citybuilders.rl.encoders import encoder_for


def positions(game, n: int, seed: int, every: int):
    s = game.new_initial_state(n, seed)
    rng = random.Random(seed)
    k = 0
    while not s.is_terminal():
        if s.current_player() < 0:
            s.apply_legal(s.sample_chance(rng))
        else:
            p = rng.choice(s.active_players())
            s.apply_legal(rng.choice(s.legal_actions(p)), p)
        k += 1
        if k % every == 0:
            yield s
    yield s


@pytest.mark.parametrize("n", [2, 3, 4])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_kingdom_builder_direct_tensor_equals_the_observation_tensor(n, seed):
    game = load_game("kingdom-builder")
    enc = encoder_for(game, n)
    assert enc._direct is not None
    for s in positions(game, n, seed, 13):
        for p in range(n):
            a, b = enc.encode(s, p), enc.encode_from_observation(s, p)
            bad = [name for name, lo, hi, _ in enc._slices if not np.array_equal(a[lo:hi], b[lo:hi])]
            assert not bad, f"pieces differ at move {s.move_number()} for player {p}: {bad}"
            out = np.full(enc.size, 7.0, dtype=np.float32)
            enc.encode_into(s, p, out)
            assert np.array_equal(out, a)
