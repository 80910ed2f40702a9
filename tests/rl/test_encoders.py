"""Observation tensors: fixed shapes, exact contents, and nothing hidden leaks in."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

import citybuilders  # noqa: E402
from citybuilders.rl.encoders import encoder_for  # noqa: E402


def _play(state, steps, seed=0):
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_legal(state.sample_chance(rng))
        else:
            p = state.current_player()
            state.apply_legal(rng.choice(state.legal_actions(p)), p)
    return state


CASES = [("kingdom-builder", {}, 2), ("kingdom-builder", {"expansions": ["crossroads"]}, 3),
         ("sprawlopolis", {}, 1), ("sprawlopolis", {}, 3), ("roll-into-town", {}, 2),
         ("roll-builder", {}, 1), ("roll-builder", {"sheet": "highcrag"}, 2)]


@pytest.mark.parametrize("name,options,n", CASES)
def test_shape_fixed_through_a_game(name, options, n):
    game = citybuilders.load_game(name, **options)
    enc = encoder_for(game, n)
    state = game.new_initial_state(n, seed=4)
    rng = random.Random(1)
    while not state.is_terminal():
        for p in range(n):
            x = enc.encode(state, p)
            assert x.shape == (enc.size,) and x.dtype == np.float32
            assert np.isfinite(x).all()
        _play(state, 7, rng.randrange(1000))


def test_sizes_exact():
    kb = encoder_for(citybuilders.load_game("kingdom-builder"), 2)
    # 10 terrain + 2 settlement + 17 location kind + 1 tiles-left planes of 20x20, then vectors
    assert kb.size == 30 * 400 + 2 * 6 + 2 * 17 * 3 + 2 + 2 + 10 + 11 + 5
    spr = encoder_for(citybuilders.load_game("sprawlopolis"), 1)
    assert dict(spr.pieces)["blocks"] == (8, 60, 60)  # 15 cards: rows/cols -28..31
    rit = encoder_for(citybuilders.load_game("roll-into-town"), 2)
    assert dict(rit.pieces)["map"] == (2, 24, 9, 9)


def test_kb_planes_exact():
    game = citybuilders.load_game("kingdom-builder", preset="first-game")
    state = game.new_initial_state(2, seed=1)
    enc = encoder_for(game, 2)
    v = enc.views(enc.encode(state, 0))
    # every hex has exactly one terrain code; 4 sections x 1 castle... read off the text board
    assert v["terrain"].sum() == 400
    text = state.render_text(None)
    rows = [line.split()[1:] for line in text.splitlines()
            if len(line.split()) == 21 and line.split()[0].isdigit()]
    assert v["terrain"][5].sum() == sum(r.count("W") for r in rows) == 80  # water
    assert v["terrain"][6].sum() == sum(r.count("M") for r in rows)  # mountain
    assert v["location_tiles_left"].sum() == len(state.observation(0)["locations"])  # 2 of 2
    _play(state, 6)
    obs = state.observation(0)
    v = enc.views(enc.encode(state, 0))
    assert v["settlements"][0].sum() == len(obs["players"][0]["settlements"])
    v1 = enc.views(enc.encode(state, 1))
    # seats are relative to the observer
    assert (v1["settlements"][1] == v["settlements"][0]).all()


def test_kb_hidden_card_never_in_other_tensor():
    """Two states with the same information state for P1 (resampled hidden cards and deck)
    give P1 identical tensors; P2's own card is in P2's tensor only."""
    game = citybuilders.load_game("kingdom-builder")
    enc = encoder_for(game, 2)
    state = game.new_initial_state(2, seed=3)
    while not (state.current_player() == 0 and state.move_number() > 8
               and state.observation(0)["players"][1]["card"] is None):
        _play(state, 1, state.move_number())
    key = state.information_state_key(0)
    base = enc.encode(state, 0)
    seen_other, cards = set(), set()
    for seed in range(12):
        other = state.resample_from_infostate(0, random.Random(seed))
        assert other.information_state_key(0) == key
        assert (enc.encode(other, 0) == base).all()
        seen_other.add(enc.encode(other, 1).tobytes())
        cards.add(other.observation(1)["players"][1]["card"])
    # the hidden card of P2 did change in some resamples, and it shows in P2's own tensor
    assert len(cards) > 1
    assert len(seen_other) == len(cards)


def test_sprawlopolis_hidden_hand_never_in_other_tensor():
    game = citybuilders.load_game("sprawlopolis")
    enc = encoder_for(game, 3)
    state = _play(game.new_initial_state(3, seed=5), 4)
    base = enc.encode(state, 0)
    hands = set()
    for seed in range(12):
        other = state.resample_from_infostate(0, random.Random(seed))
        assert other.information_state_key(0) == state.information_state_key(0)
        assert (enc.encode(other, 0) == base).all()
        hands.add(enc.encode(other, 1).tobytes())
    assert len(hands) > 1


def test_unknown_game_is_a_clear_error():
    class Fake:
        name = "nope"
        options: dict = {}

    with pytest.raises(ValueError, match="no observation encoder for 'nope'"):
        encoder_for(Fake(), 2)


@pytest.mark.parametrize("module,framework,extra", [
    ("citybuilders.rl.openspiel", "pyspiel", "openspiel"),
    ("citybuilders.rl.pettingzoo", "pettingzoo", "pettingzoo"),
    ("citybuilders.rl.gymnasium", "gymnasium", "gymnasium"),
])
def test_missing_extra_is_one_clear_import_error(monkeypatch, module, framework, extra):
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, framework, None)  # as if not installed
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ImportError) as err:
        importlib.import_module(module)
    assert str(err.value).startswith(
        f"{framework} is not installed: pip install 'citybuilders[{extra}]'")


def test_core_does_not_import_the_frameworks():
    import subprocess
    import sys

    code = ("import sys, citybuilders, citybuilders.rl, citybuilders.rl.encoders; "
            "print(sorted(m for m in ('pyspiel', 'pettingzoo', 'gymnasium', 'torch') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
