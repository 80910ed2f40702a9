"""Property tests over random Kingdom Builder games (hypothesis): the board's invariants, hidden
terrain cards, resampling (clone independence, JSON and record round trips are the shared
protocol test's: tests/core/test_protocol.py)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import citybuilders
from citybuilders.games.kingdom_builder.rules.board import dilate
from citybuilders.games.kingdom_builder.rules.state import LOST, NEW, READY, USED

from .helpers import play_random

SEEDS = st.integers(min_value=0, max_value=10**6)


def random_game(seed: int, n: int, stop: float = 1.0, **opts):
    """Play a random game (tiles used often) and return the states seen every few steps."""
    g = citybuilders.load_game("kingdom-builder", **opts)
    return play_random(g, n, seed, 17, stop)


def check_invariants(s) -> None:
    n = s.num_players
    union = 0
    for p in range(n):
        assert union & s.occ[p] == 0  # never two pieces on a hex
        union |= s.occ[p]
        assert s.stl[p].bit_count() == 40 - s.supply[p]
        assert s.occ[p] & ~s.board.buildable & ~s.board.tmask[5] == 0  # only land or water
        # tiles held only while a settlement touches the location
        for k, kind, status in s.tiles_of(p):
            if s.loss_immediate:
                assert s.board.loc_nbr[k] & s.occ[p], (p, kind)
    assert union == s.all_occ
    for k in range(s.nloc):
        taken = sum(1 for p in range(n) if s.hold[p * s.nloc + k] in (READY, USED, NEW, LOST))
        assert taken + s.loc_left[k] == s.board.tiles_per_location[k]
    in_hands = [0] * 5
    for c in s.hand:
        if c >= 0:
            in_hands[c] += 1
    for t in range(5):
        assert s.deck[t] + s.discard[t] + s.removed[t] + in_hands[t] == 5
    assert s.board.special & s.all_occ == 0
    assert dilate(0) == 0


@settings(max_examples=6, deadline=None)
@given(SEEDS, st.integers(min_value=2, max_value=4))
def test_random_game_invariants_and_roundtrips(seed: int, n: int) -> None:
    final, seen = random_game(seed, n)
    assert final.is_terminal()
    assert 0 in final.supply
    for s in seen[::2]:
        check_invariants(s)
        for p in range(n):
            obs = s.observation(p)
            json.dumps(obs)
            for q in range(n):
                vis = obs["players"][q]["card"]
                if q != p and not (q == s.current_player()):
                    assert vis in (None, "none")  # another player's hidden card never shown


@settings(max_examples=8, deadline=None)
@given(SEEDS)
def test_resample_keeps_what_the_player_knows(seed: int) -> None:
    _, seen = random_game(seed, 4, stop=0.995)
    for s in seen[-3:]:
        for p in range(4):
            r = s.resample_from_infostate(p, random.Random(seed))
            assert r.observation(p) == s.observation(p)
            assert r.information_state_key(p) == s.information_state_key(p)
            assert r.hand[p] == s.hand[p]
            check_invariants(r)


def test_information_state_key_hides_other_draws() -> None:
    g = citybuilders.load_game("kingdom-builder", preset="first-game", start_player=0)
    a, b = g.new_initial_state(2, 0), g.new_initial_state(2, 0)
    a.apply_action(0)
    b.apply_action(0)
    a.apply_action(1)
    b.apply_action(2)
    assert a.information_state_key(0) == b.information_state_key(0)
    assert a.information_state_key(1) != b.information_state_key(1)
    assert a.observation(0) == b.observation(0)
