"""One protocol conformance test over every registered game (like pgx's shared API test).

For each game and a few setups: random play checked at every step — legal actions sorted,
unique and in range; the mask agrees; chance outcomes are distinct, legal and sum to 1; an
illegal action is refused with the state unchanged; ``clone()`` is equal and independent;
the JSON round trip and the record replay give the identical state; observations are JSON and
the same for every state the player cannot tell apart (``resample_from_infostate`` keeps the
player's information-state key and observation); terminal returns and scores
have one entry per player. Game-specific invariants stay in each game's own tests.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import citybuilders
from citybuilders.core.errors import IllegalActionError
from citybuilders.core.game import CHANCE, TERMINAL

# (game, options, num_players): every registered game at its smallest and largest table, plus
# the variants that change the engine's shape (an expansion, another sheet).
SETUPS = [
    ("kingdom-builder", {}, 2),
    ("kingdom-builder", {}, 4),
    ("kingdom-builder", {"expansions": ["crossroads"]}, 3),
    ("sprawlopolis", {}, 1),
    ("sprawlopolis", {}, 3),
    ("roll-into-town", {}, 1),
    ("roll-into-town", {}, 3),
    ("roll-builder", {}, 1),
    ("roll-builder", {"sheet": "highcrag"}, 2),
    ("toy", {}, 3),  # tests/core/toygame.py, registered by tests/core/conftest.py
]


def test_every_shipped_game_is_covered():
    from citybuilders.core.registry import _GAMES

    assert set(_GAMES) <= {g for g, _, _ in SETUPS}


def random_step(state, rng: random.Random) -> None:
    """One random move through the public protocol (a chance outcome or an active player's)."""
    if state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
        return
    player = rng.choice(state.active_players())
    state.apply_action(rng.choice(state.legal_actions(player)), player)


def check_position(state, rng: random.Random, full: bool) -> None:
    """``full``: also the action mask (a list of ``num_distinct_actions()`` entries)."""
    game = state.game
    n = game.num_distinct_actions()
    cp = state.current_player()
    assert cp == CHANCE or cp == TERMINAL or 0 <= cp < state.num_players
    assert state.move_number() == len(state.history())
    if state.is_terminal():
        assert state.legal_actions() == [] and state.active_players() == []
        assert len(state.returns()) == state.num_players
        assert len(state.scores()) == state.num_players
        return
    if cp == CHANCE:
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        assert len(set(actions)) == len(actions) and outcomes
        assert all(p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert sorted(actions) == state.legal_actions()
        assert state.active_players() == []
        return
    active = state.active_players()
    assert active and cp == min(active)
    for p in active:
        legal = state.legal_actions(p)
        assert legal, f"active player {p} without a legal action"
        assert legal == sorted(set(legal)) and 0 <= legal[0] and legal[-1] < n
        if full:
            mask = state.legal_actions_mask(p)
            assert len(mask) == n and sum(mask) == len(legal) and all(mask[a] for a in legal)
        a = rng.choice(legal)
        assert state.string_to_action(state.action_to_string(a, p), p) == a
    # an illegal action is refused, naming nothing hidden, and changes nothing
    legal = set(state.legal_actions(cp))
    illegal = next((a for a in range(n) if a not in legal), None)
    if illegal is not None:
        before = state.to_json()
        with pytest.raises(IllegalActionError):
            state.apply_action(illegal, cp)
        assert state.to_json() == before


def check_copies(state, rng: random.Random) -> None:
    game = state.game
    copy = state.clone()
    assert copy == state and copy is not state
    if not copy.is_terminal():
        before = state.to_json()
        random_step(copy, rng)
        assert state.to_json() == before, "clone() shares data with the original"
    data = json.loads(json.dumps(state.to_json()))
    assert game.state_from_json(data) == state
    assert game.state_from_json(data, verify=True) == state
    record = json.loads(json.dumps(citybuilders.record_of(state).to_json()))
    assert citybuilders.replay(record) == state


def check_views(state, rng: random.Random) -> None:
    for p in range(state.num_players):
        obs = state.observation(p)
        json.dumps(obs)
        key = state.information_state_key(p)
        other = state.resample_from_infostate(p, random.Random(rng.random()))
        assert other.information_state_key(p) == key
        assert other.observation(p) == obs, "observation depends on something p cannot see"



@pytest.mark.parametrize("name,options,players", SETUPS,
                         ids=[f"{g}-{p}p-{'-'.join(str(v[0] if isinstance(v, list) else v) for v in o.values()) or 'base'}"
                              for g, o, p in SETUPS])
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**31 - 1))
def test_protocol(name, options, players, seed):
    rng = random.Random(seed)
    game = citybuilders.load_game(name, **options)
    state = game.new_initial_state(num_players=players, seed=seed)
    checkpoints = {0, 1, 2, 7, 20, 60}
    step = 0
    while True:
        full = step in checkpoints or state.is_terminal()
        check_position(state, rng, full)
        if full:
            check_copies(state, rng)
            check_views(state, rng)
        if state.is_terminal():
            break
        random_step(state, rng)
        step += 1
        assert step < 20_000, "the game does not end"
