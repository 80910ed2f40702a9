"""Property tests over random Sprawlopolis games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from citybuilders.core.records import record_of, replay
from citybuilders.core.registry import load_game
from citybuilders.games.sprawlopolis.loader import card_blocks_fast
from citybuilders.games.sprawlopolis.rules.city import RECT
from citybuilders.games.sprawlopolis.actions import CHANCE_BASE, decode
from citybuilders.games.sprawlopolis.rules.state import SprawlopolisState

OPTION_SETS = [
    {},
    {"cover_whole_card": "forbidden", "city_edge": "outer"},
    {"tourist_corner": "any_two", "outskirts_loop": "zero", "park_hopping_parks": "groups",
     "burbs_tie": "first", "mini_marts": "adjacent", "difficulty": "harder"},
    {"difficulty": "easier", "conditions": [1, 13, 14]},
]


def random_game(n: int, seed: int, opts: dict, check=None) -> SprawlopolisState:
    state = load_game("sprawlopolis", **opts).new_initial_state(n, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            a = state.sample_chance(rng)
        else:
            a = rng.choice(state.legal_actions())
        if check is not None:
            check(state, a)
        state.apply_action(a)
    return state


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 4), seed=st.integers(0, 10**6), which=st.integers(0, len(OPTION_SETS) - 1))
def test_random_game_invariants(n: int, seed: int, which: int) -> None:
    opts = OPTION_SETS[which]
    snapshots: list[tuple[SprawlopolisState, dict]] = []

    def check(state: SprawlopolisState, action: int) -> None:
        if len(snapshots) < 3 and random.Random(seed + len(state.history())).random() < 0.1:
            snapshots.append((state.clone(), state.to_json()))
        if state.is_chance_node():
            assert action in [a for a, _ in state.chance_outcomes()]
            return
        # covering: the new card changes exactly its 4 cells, the other cells stay as they were
        card, pos, rot = decode(action)
        before = state.city.cells.copy()
        occupied = len(state.city.occ)
        covered = sum(1 for d in RECT if before[pos + d])
        after = state.clone()
        after.apply_action(action)
        cells = after.city.cells
        rect = {pos + d for d in RECT}
        assert [cells[pos + d] for d in RECT] == list(card_blocks_fast(card, rot))
        assert all(cells[i] == before[i] for i in state.city.occ if i not in rect)
        assert len(after.city.occ) == occupied + 4 - covered
        # observation never shows another player's hand
        for p in range(state.num_players):
            obs = state.observation(p)
            assert obs["hand"] == sorted(state.hands[p])
            assert "hands" not in obs and "deck" not in obs

    final = random_game(n, seed, opts, check)
    assert len(final.city.placements) == 15
    # record replay gives the identical state
    rec = record_of(final)
    assert replay(rec.to_json()) == final
    # JSON round trip and clone independence at a few random points
    for snap, js in snapshots:
        assert snap.game.state_from_json(js) == snap
        copy = snap.clone()
        while not copy.is_terminal():
            copy.apply_legal(copy.legal_actions()[0] if not copy.is_chance_node()
                             else copy.chance_outcomes()[0][0])
        assert snap.to_json() == js
    # scores are consistent
    b = final.breakdown()
    assert b.total == b.blocks - b.road_tax + sum(b.conditions.values())
    assert final.returns() == [1.0 if b.total >= final.target else 0.0] * n


@settings(max_examples=15, deadline=None)
@given(n=st.integers(2, 4), seed=st.integers(0, 10**6), plays=st.integers(0, 6))
def test_resample_is_consistent(n: int, seed: int, plays: int) -> None:
    state = load_game("sprawlopolis").new_initial_state(n, seed)
    rng = random.Random(seed)
    done = 0
    while not state.is_terminal() and (state.is_chance_node() or done < plays):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    for p in range(n):
        r = state.resample_from_infostate(p, rng)
        assert r.information_state_key(p) == state.information_state_key(p)
        assert r.observation(p) == state.observation(p)
        assert [len(h) for h in r.hands] == [len(h) for h in state.hands]
        everything = sorted(r.deck + [c for h in r.hands for c in h])
        assert everything == sorted(state.deck + [c for h in state.hands for c in h])
        replayed = state.game.new_initial_state(n, seed)
        for actor, action in r.history():
            replayed.apply_action(action, actor if actor >= 0 else None)
        assert replayed.hands == r.hands and replayed.deck == r.deck


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_chance_actions_are_cards_in_deck(seed: int) -> None:
    state = load_game("sprawlopolis").new_initial_state(1, seed)
    outs = state.chance_outcomes()
    assert [a - CHANCE_BASE + 1 for a, _ in outs] == state.deck
    assert all(abs(p - 1 / 15) < 1e-12 for _, p in outs)
