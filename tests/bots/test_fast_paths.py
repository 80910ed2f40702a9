"""The games' fast paths give exactly what the plain protocol gives.

``State.sample_action`` (each game's override): the same action and the same random draws as
``legal[rng.randrange(len(legal))]`` on every position of seeded random games, the reference list
taken on a clone (so no cached list helps the fast path). ``bots.greedy.one_ply_values`` (a
game's ``Strategy.one_ply_values`` or ``State.successor`` where it has one): the values of
clone-apply-evaluate.
"""

from __future__ import annotations

import random
from typing import Iterator

import pytest

import citybuilders
from citybuilders.bots.greedy import one_ply_values
from citybuilders.core.game import CHANCE, TERMINAL, State

CASES = [
    ("sprawlopolis", {}, (1, 2, 4), 6),
    ("sprawlopolis", {"cover_whole_card": "forbidden"}, (1, 3), 4),
    ("roll-into-town", {}, (1, 2), 3),
    ("roll-builder", {}, (1, 2), 3),
]
"""``(game, options, player counts, games)``; Kingdom Builder and Crossroads have their own
(tests/kingdom_builder/test_sample_action.py)."""


def _positions(name: str, options: dict, players: tuple[int, ...],
               games: int) -> Iterator[tuple[State, int]]:
    """``(state, player)`` for every player to act in every position of ``games`` random games."""
    g = citybuilders.load_game(name, **options)
    for seed in range(games):
        s = g.new_initial_state(players[seed % len(players)], seed)
        rng = random.Random(seed)
        while s.current_player() != TERMINAL:
            if s.current_player() == CHANCE:
                s.apply_legal(s.sample_chance(rng))
                continue
            active = s.active_players()
            for p in active:
                yield s, p
            p = active[rng.randrange(len(active))]
            s.apply_legal(s.sample_action(rng, p), p)


@pytest.mark.parametrize("name,options,players,games", CASES,
                         ids=lambda v: v if isinstance(v, str) else None)
def test_sample_action_is_the_list_draw(name: str, options: dict, players: tuple[int, ...],
                                        games: int) -> None:
    n = 0
    for s, p in _positions(name, options, players, games):
        legal = s.clone().legal_actions(p)
        seed = n * 7919
        r1, r2 = random.Random(seed), random.Random(seed)
        assert s.clone().sample_action(r1, p) == legal[r2.randrange(len(legal))]
        assert r1.getstate() == r2.getstate()
        if n % 5 == 0:  # the default player (the current one) too
            cp = s.current_player()
            legal = s.clone().legal_actions()
            assert s.clone().sample_action(r1) == legal[r2.randrange(len(legal))]
            assert r1.getstate() == r2.getstate() and cp >= 0
        n += 1
    assert n > 50


@pytest.mark.parametrize("name,options,players,games", CASES,
                         ids=lambda v: v if isinstance(v, str) else None)
def test_one_ply_values_are_clone_apply_evaluate(name: str, options: dict,
                                                 players: tuple[int, ...], games: int) -> None:
    checked = 0
    for i, (s, p) in enumerate(_positions(name, options, players, games)):
        if i % 3 or checked > 3000:
            continue
        moves = s.legal_actions(p)
        expected = []
        for a in moves:
            c = s.clone()
            c.apply_legal(a, p)
            expected.append(c.evaluate(p))
        before = s.to_json()
        assert one_ply_values(s, p, moves) == expected
        assert s.to_json() == before
        checked += len(moves)
    assert checked > 500


def test_roll_into_town_evaluate_scores_only_its_sheet() -> None:
    from citybuilders.games.roll_into_town import rules as R
    from citybuilders.games.roll_into_town import strategy as S

    checked = 0
    for i, (s, p) in enumerate(_positions("roll-into-town", {}, (2, 3), 2)):
        if i % 4:
            continue
        sheet = s.sheets[p]
        food, stone = sheet.income()
        left = R.ROUNDS - s.round
        expected = (s.scores()[p].total + S.FOOD_VALUE * sheet.res[0]
                    + S.STONE_VALUE * sheet.res[1] + S.WOOD_VALUE * sheet.res[2]
                    + 0.3 * left * (food * S.FOOD_VALUE + stone * S.STONE_VALUE))
        assert s.evaluate(p) == expected
        checked += 1
    assert checked > 50


def test_roll_into_town_clones_share_free_cells_caches_safely() -> None:
    """A sheet and its clone share the free_plus cache; each then plays on: every list either
    hands out is the one a sheet with an empty cache makes."""
    g = citybuilders.load_game("roll-into-town")
    rng = random.Random(4)
    states = [g.new_initial_state(1, 4)]
    checked = 0
    for step in range(600):
        s = states[rng.randrange(len(states))]
        if s.is_terminal():
            continue
        if s.current_player() == CHANCE:
            s.apply_legal(s.sample_chance(rng))
            continue
        if step % 7 == 0 and len(states) < 12:
            states.append(s.clone())
        p = s.active_players()[0]
        legal = s.legal_actions(p)
        fresh = s.clone()
        for sheet in fresh.sheets:
            sheet._blk = {}
        assert legal == fresh.legal_actions(p)
        for sheet, other in zip(s.sheets, fresh.sheets):
            assert sheet.free_plus(-1) == other.free_plus(-1) == sorted(other.free_plus(-1))
        checked += 1
        s.apply_legal(legal[rng.randrange(len(legal))], p)
    assert checked > 300


def test_roll_into_town_nth_bit_is_the_list_index() -> None:
    """``geometry.nth_bit`` (the discover draw's cell) is ``bits(mask)[r]`` for every ``r``."""
    from citybuilders.games.roll_into_town.rules.geometry import bits, nth_bit

    rng = random.Random(4)
    masks = [1, 1 << 90, (1 << 130) - 1] + [rng.getrandbits(rng.randrange(1, 160)) | 1
                                            for _ in range(200)]
    for mask in masks:
        listed = bits(mask)
        assert [nth_bit(mask, r) for r in range(len(listed))] == listed
