"""The optimised engine paths agree with the obvious ones (issue 5, speed work).

* ``legal_actions`` (fast generator, road-list cache, memo tables) == the first author's reference
  generator (``reference_legal.py``) at every step of random games, every sheet and option;
* caches survive direct field edits and JSON round trips; ``PlayerSheet.copy`` copies every slot;
* ``sample_chance`` draws exactly what ``State.sample_chance`` draws from the same RNG;
* the bit-trick helpers (``bit_indices``, ``neighbours_of``, ``ascending_allowed``) match loops.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_legal import reference_legal_actions

from citybuilders.core.game import CHANCE, State
from citybuilders.core.registry import load_game
from citybuilders.games.roll_builder.rules.bits import bit_indices
from citybuilders.games.roll_builder.rules.player_sheet import SAVED_FIELDS, PlayerSheet

SHEETS = ["rivermouth", "highcrag", "goldplain"]
OPTIONS = [{}, {"dice_use": "combine"}, {"road_count": "all"}, {"marking": "after_road_action"},
           {"resource_timing": "end_of_turn"}, {"building_uses_space": True}]


def _check_all_active(s) -> int:
    n = 0
    for p in s.active_players():
        assert s.legal_actions(p) == reference_legal_actions(s, p), s.pending_text(p)
        n += 1
    return n


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(SHEETS), st.sampled_from(OPTIONS), st.integers(1, 3),
       st.integers(0, 10**6))
def test_fast_legal_actions_equal_reference_over_random_games(sheet, opts, players, seed) -> None:
    g = load_game("roll-builder", sheet=sheet, **opts)
    s = g.new_initial_state(players, seed)
    rng = random.Random(seed)
    checked = 0
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            assert s.legal_actions() == reference_legal_actions(s, CHANCE)
            s.apply_legal(s.sample_chance(rng))
            continue
        checked += _check_all_active(s)
        if rng.random() < 0.05:  # a clone (shared road-list cache) must agree too
            c = s.clone()
            _check_all_active(c)
        act = s.active_players()
        p = act[rng.randrange(len(act))]
        la = s.legal_actions(p)
        s.apply_legal(la[rng.randrange(len(la))], p)
    assert checked >= 45  # at least three decisions in each of the 15 turns


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(SHEETS), st.integers(0, 10**6), st.integers(20, 400))
def test_caches_follow_direct_edits_and_json_round_trips(sheet, seed, stop) -> None:
    g = load_game("roll-builder", sheet=sheet)
    s = g.new_initial_state(1, seed)
    rng = random.Random(seed)
    for _ in range(stop):
        if s.is_terminal():
            return
        if s.current_player() == CHANCE:
            s.apply_legal(s.sample_chance(rng))
            continue
        la = s.legal_actions(0)
        s.apply_legal(la[rng.randrange(len(la))], 0)
    if s.is_terminal() or s.current_player() == CHANCE:
        return
    p = s.players[0]
    p.roads_left = 3  # tests and tools edit fields directly: the caches must notice
    _check_all_active(s)
    p.blocked = 0
    _check_all_active(s)
    p.filled = p.filled | 1
    p.unlocked = (1 << len(g.sheet.boxes)) - 1
    p.pwonder = [0, 3]
    _check_all_active(s)
    t = g.state_from_json(s.to_json())
    assert t == s and t.players[0].road_key == 0
    assert t.legal_actions(0) == reference_legal_actions(s, 0) == s.legal_actions(0)


def test_json_does_not_carry_the_caches() -> None:
    s = load_game("roll-builder").new_initial_state(1, 0)
    s.apply_legal(2)
    s.apply_legal(1)
    s.apply_legal(s.string_to_action("road d1", 0), 0)
    s.legal_actions(0)
    assert s.players[0].road_key != 0
    saved = s.to_json()["position"]["players"][0]
    assert "road_key" not in saved and "road_list" not in saved
    assert set(saved) == set(SAVED_FIELDS) | {"roads_named"}


def test_player_sheet_copy_covers_every_slot() -> None:
    p = PlayerSheet.__new__(PlayerSheet)
    for i, k in enumerate(PlayerSheet.__slots__):
        setattr(p, k, [i] if k in ("placements", "bcount", "wvals", "pres", "pbuild", "pwonder")
                else ("x", i))
    q = p.copy()
    for k in PlayerSheet.__slots__:
        assert getattr(q, k) == getattr(p, k), k
        if isinstance(getattr(p, k), list):
            assert getattr(q, k) is not getattr(p, k), k  # lists are copied, not shared


def test_sample_chance_draws_what_the_core_draws() -> None:
    s = load_game("roll-builder").new_initial_state(1, 0)
    r1, r2 = random.Random(5), random.Random(5)
    for _ in range(3000):
        assert s.sample_chance(r1) == State.sample_chance(s, r2)

    class Edge:
        def __init__(self, x: float) -> None:
            self.x = x

        def random(self) -> float:
            return self.x

    for x in (0.0, 1 / 6, 2 / 6, 0.5, 4 / 6, 5 / 6, 0.9999999999999999, 1 - 1e-17):
        assert s.sample_chance(Edge(x)) == State.sample_chance(s, Edge(x))


def test_bit_indices() -> None:
    rng = random.Random(0)
    assert bit_indices(0, 3) == []
    for _ in range(200):
        bits = sorted(rng.sample(range(336), rng.randrange(0, 40)))
        assert bit_indices(sum(1 << b for b in bits), 42) == bits


@pytest.mark.parametrize("sheet", SHEETS)
def test_neighbours_of_matches_the_neighbour_lists(sheet: str) -> None:
    g = load_game("roll-builder", sheet=sheet)
    assert g._nb_shift  # the shifted-rows trick is valid on the shipped odd-r grids
    rng = random.Random(1)
    for _ in range(200):
        spaces = rng.sample(range(g.n_spaces), rng.randrange(0, 30))
        want = 0
        for s in spaces:
            want |= g.neighbor_mask[s]
        assert g.neighbours_of(sum(1 << s for s in spaces)) == want


def test_ascending_allowed_matches_the_rule() -> None:
    g = load_game("roll-builder", sheet="rivermouth")  # Harbor Colossus: values never go down
    assert g.ascending
    rng = random.Random(2)
    for _ in range(100):
        wvals = tuple(rng.choice([0, 0, 1, 2, 3, 4, 5, 6, 7]) for _ in g.sheet.boxes)
        allowed = g.ascending_allowed(wvals)
        for v in range(1, 7):
            want = sum(1 << i for i, b in enumerate(g.sheet.boxes)
                       if all(wvals[r] <= v for r in b.requires))
            assert allowed[v] == want


# ----------------------------------------------------------------------------- greedy bot
@settings(max_examples=12, deadline=None)
@given(st.sampled_from(SHEETS), st.integers(0, 10**6))
def test_bot_helpers_equal_the_reference_helpers(sheet: str, seed: int) -> None:
    """Optimised road choice (memo, distance field), build choice, mark usefulness and space
    values return exactly what the first author's versions return, memo cold or warm."""
    import reference_bot as ref

    from citybuilders.games.roll_builder import strategy as bot

    g = load_game("roll-builder", sheet=sheet)
    s = g.new_initial_state(1, seed)
    rng = random.Random(seed)
    compared = 0
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s.apply_legal(s.sample_chance(rng))
            continue
        p = s.players[0]
        legal = s.legal_actions(0)
        if p.roads_left and any(g.A_ROAD <= a < g.A_MARK for a in legal):
            values = ref._road_values(s, p, legal)
            roads = [a for a in legal if g.A_ROAD <= a < g.A_MARK]
            got = dict(bot._road_values(s, p, roads))
            assert {e: got.get(e, 0.0) for e in values} == values  # bit-for-bit equal floats
            assert set(got) <= set(values)
            assert bot._corner_distance(s, p) == ref._corner_distance(s, p)
            want = ref._road_choice(s, p, legal)
            assert bot._road_choice(s, p, legal) == want
            bot._bot_tables(g)["roads"].clear()
            bot._bot_tables(g)["dist"].clear()
            assert bot._road_choice(s, p, legal) == want
            compared += 1
        if p.pbuild or p.guild >= 0:
            assert bot._best_build(s, p, legal) == ref._best_build(s, p, legal)
        kinds = bot._useful_kinds(g, p)
        for a in legal:
            if g.A_MARK <= a < g.A_BUILD:
                assert bot._mark_useful(s, p, a - g.A_MARK, kinds) == \
                    ref._mark_useful(s, p, a - g.A_MARK)
        for sp in range(0, g.n_spaces, 7):
            assert bot._space_value(s, p, sp) == ref._space_value(s, p, sp)
        s.apply_legal(legal[rng.randrange(len(legal))], 0)
    assert compared > 0


def test_greedy_bot_decisions_are_unchanged_by_the_speed_work() -> None:
    """Totals of the greedy bot before the speed work (commit cf1d7ec), same seeds as
    benchmarks/bench_roll_builder.py: the optimised bot must make the same decisions."""
    from citybuilders.bots.base import make_bot

    want = {"rivermouth": [70, 83], "highcrag": [74, 79], "goldplain": [75, 78]}
    for sheet, totals in want.items():
        g = load_game("roll-builder", sheet=sheet)
        rng = random.Random(2)
        b = make_bot("greedy", 7)
        got = []
        for k in range(2):
            s = g.new_initial_state(1, 1000 + k)
            while not s.is_terminal():
                cp = s.current_player()
                s.apply_legal(s.sample_chance(rng) if cp == CHANCE else b.step(s, cp),
                              None if cp == CHANCE else cp)
            got.append(s.scores()[0].total)
        assert got == totals, sheet


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(SHEETS), st.integers(2, 3), st.integers(0, 10**6))
def test_protocol_fast_paths_match_the_core_wrappers(sheet: str, players: int, seed: int) -> None:
    """legal_actions / apply_legal / is_terminal / is_chance_node overrides == core behaviour
    for every seat (active, done, out of range), at chance nodes and at the end."""
    from citybuilders.core.game import TERMINAL

    g = load_game("roll-builder", sheet=sheet)
    s = g.new_initial_state(players, seed)
    core = g.new_initial_state(players, seed)
    rng = random.Random(seed)
    while True:
        cp = s.current_player()
        assert s.is_terminal() == (cp == TERMINAL) and s.is_chance_node() == (cp == CHANCE)
        for who in (None, -1, *range(players + 1)):
            assert s.legal_actions(who) == State.legal_actions(s, who)
        if s.is_terminal():
            break
        if cp == CHANCE:
            a = s.sample_chance(rng)
            s.apply_legal(a)
            State.apply_legal(core, a)
        else:
            act = s.active_players()
            p = act[rng.randrange(len(act))]
            la = s.legal_actions(p)
            a = la[rng.randrange(len(la))]
            s.apply_legal(a, p)
            State.apply_legal(core, a, p)
    assert s.history() == core.history() and s == core
