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


def check_both_paths(game, n: int, seed: int, every: int) -> None:
    """Along one random game: the direct tensor equals the observation tensor for every seat."""
    enc = encoder_for(game, n)
    assert enc._direct is not None
    for s in positions(game, n, seed, every):
        for p in range(n):
            a, b = enc.encode(s, p), enc.encode_from_observation(s, p)
            bad = [name for name, lo, hi, _ in enc._slices if not np.array_equal(a[lo:hi], b[lo:hi])]
            assert not bad, f"pieces differ at move {s.move_number()} for player {p}: {bad}"
            out = np.full(enc.size, 7.0, dtype=np.float32)
            enc.encode_into(s, p, out)
            assert np.array_equal(out, a)


@pytest.mark.parametrize("n", [2, 3, 4])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_kingdom_builder_direct_tensor_equals_the_observation_tensor(n, seed):
    check_both_paths(load_game("kingdom-builder"), n, seed, 13)


@pytest.mark.parametrize("game_id,n", [("sprawlopolis", 1), ("sprawlopolis", 3),
                                       ("roll-into-town", 1), ("roll-into-town", 3),
                                       ("roll-builder", 1), ("roll-builder", 2)])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_direct_tensor_equals_the_observation_tensor(game_id, n, seed):
    check_both_paths(load_game(game_id), n, seed, 7)


def test_hidden_hand_changes_nothing_in_the_direct_tensor():
    """Another player's Sprawlopolis hand (hidden) never shows in this player's direct tensor."""
    game = load_game("sprawlopolis")
    enc = encoder_for(game, 2)
    s = game.new_initial_state(2, 5)
    rng = random.Random(5)
    while s.is_chance_node():
        s.apply_legal(s.sample_chance(rng))
    other = s.resample_from_infostate(0, random.Random(1))
    assert other.hands[1] != s.hands[1] or other.deck != s.deck
    assert np.array_equal(enc.encode(s, 0), enc.encode(other, 0))


@pytest.mark.parametrize("n", [2, 3, 4])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_crossroads_direct_tensor_equals_the_observation_tensor(n, seed):
    check_both_paths(load_game("kingdom-builder", expansions=["crossroads"]), n, seed, 9)


def _crossroads_with_hidden_second_card():
    """Seed 8, 2 players, move 23: player 0 holds a second terrain card (desert, id 2) that
    player 1 may not see; player 1 is to play."""
    game = load_game("kingdom-builder", expansions=["crossroads"])
    for s in positions(game, 2, 8, 1):
        if s.move_number() == 23:
            break
    assert (s.hand, s.hand2, s.cur) == ([0, 3], [2, -1], 1)
    assert s.visible_hand2(0, 1) is None and s.visible_hand(0, 1) is None
    return game, s


def test_crossroads_hidden_cards_change_nothing_in_the_other_players_tensor():
    """Player 0's hidden first and second terrain cards and the deck's contents never show in
    player 1's Crossroads tensor (direct and JSON path); player 0 sees his own."""
    game, s = _crossroads_with_hidden_second_card()
    enc = encoder_for(game, 2)
    seen = enc.encode(s, 1)
    mine = enc.views(enc.encode(s, 0))
    assert mine["second_card"][0].tolist() == [0, 0, 1, 0, 0, 0]  # own desert, seat 0
    assert mine["card"][0].tolist() == [1, 0, 0, 0, 0, 0]  # own grass
    assert enc.views(seen)["second_card"].sum() == 0  # hidden from player 1
    for hand, hand2 in [(4, 1), (3, 3), (1, 0)]:
        other = s.clone()
        other.hand[0], other.hand2[0] = hand, hand2
        other.deck = [4, 3, 4, 3, 4]  # another split of the same 18 unseen cards
        assert np.array_equal(enc.encode(other, 1), seen)
        assert np.array_equal(enc.encode_from_observation(other, 1), seen)
        assert not np.array_equal(enc.encode(other, 0), enc.encode(s, 0))
    for k in range(5):
        redealt = s.resample_from_infostate(1, random.Random(k))
        assert np.array_equal(enc.encode(redealt, 1), seen)


def test_crossroads_sizes_and_task_plane_exact():
    """Crossroads, 2 players: 15,372 floats; the task plane marks the task cards in play and
    crossroads_turn starts empty (no Fort card, no locked terrain)."""
    game = load_game("kingdom-builder", expansions=["crossroads"])
    enc = encoder_for(game, 2)
    assert enc.size == 12144 + 2 * 4 * 400 + 2 * 6 + 6 + 10 == 15372
    assert dict(enc.pieces)["crossroads_turn"] == (2, 5)
    s = game.new_initial_state(2, 1)
    v = enc.views(enc.encode(s, 0))
    assert s.tasks == ("fortress",)
    assert v["tasks"].tolist() == [0, 1, 0, 0, 0, 0]  # home country, FORTRESS, road, ...
    assert v["crossroads_turn"].sum() == 0
    assert np.array_equal(enc.encode_from_observation(s, 0), enc.encode(s, 0))


@pytest.mark.parametrize("sheet", ["highcrag", "goldplain"])
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_roll_builder_sheets_direct_tensor_equals_the_observation_tensor(sheet, seed):
    check_both_paths(load_game("roll-builder", sheet=sheet), 2, seed, 7)
