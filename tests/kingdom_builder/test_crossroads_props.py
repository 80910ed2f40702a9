"""Property tests over random Crossroads games (hypothesis): invariants of pieces, cards and tiles,
clone independence, JSON and record round trips, hidden second cards, resampling, greedy play."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import citybuilders
from citybuilders.bots.greedy import GreedyBot
from citybuilders.core.game import CHANCE
from citybuilders.games.kingdom_builder.rules import crossroads as X
from citybuilders.games.kingdom_builder.rules.board import MOUNTAIN, WATER
from citybuilders.games.kingdom_builder.rules.crossroads_state import P_FORT
from citybuilders.games.kingdom_builder.rules.state import NEW, READY, USED

from .helpers import (
    check_json_roundtrip, check_record_replay, play_random, random_steps,
)

BASE = ["tavern", "paddock", "oasis", "farm", "oracle", "harbor", "tower", "barn"]
CROSS = list(X.SECTIONS)


@st.composite
def layouts(draw) -> list[str]:
    """4 sections with at least two Crossroads ones, shuffled, random rotations."""
    k = draw(st.integers(min_value=2, max_value=4))
    cross = draw(st.permutations(CROSS))[:k]
    base = draw(st.permutations(BASE))[: 4 - k]
    order = draw(st.permutations(list(cross) + list(base)))
    rots = [draw(st.sampled_from([0, 180])) for _ in range(4)]
    return [f"{sid}:{r}" for sid, r in zip(order, rots)]


def random_game(seed: int, n: int, sections: list[str], stop: float = 1.0, **opts):
    g = citybuilders.load_game("kingdom-builder", expansions=["crossroads"], sections=sections,
                               **opts)
    return play_random(g, n, seed, 13, stop)


def check_invariants(s) -> None:
    b = s.board
    union = 0
    allw = 0
    for p in range(s.num_players):
        pieces = s.pieces_of(p)
        kinds = [s.stl[p], s.wagon[p], s.ship[p], s.warriors[p], s.city_hall[p]]
        assert sum(m.bit_count() for m in kinds) == s.occ[p].bit_count()  # disjoint kinds
        assert s.occ[p] == s.stl[p] | pieces
        assert union & s.occ[p] == 0
        union |= s.occ[p]
        assert s.stl[p].bit_count() == 40 - s.supply[p]
        assert s.wagon[p].bit_count() <= 1 and s.ship[p].bit_count() <= 1
        assert s.warriors[p].bit_count() <= 2
        assert s.city_hall[p].bit_count() in (0, 7)
        if s.city_hall[p]:
            centre = X.erode(s.city_hall[p])
            assert X.city_hall_footprint(centre.bit_length() - 1) == s.city_hall[p]
            assert s.city_hall[p] & ~b.buildable == 0
        assert s.ship[p] & ~b.tmask[WATER] == 0
        assert s.wagon[p] & ~(b.buildable | b.tmask[MOUNTAIN]) == 0
        assert s.warriors[p] & ~b.buildable == 0
        assert s.stl[p] & ~(b.buildable | b.tmask[WATER]) == 0
        allw |= s.warriors[p]
        for k, kind, status in s.tiles_of(p):
            assert b.loc_nbr[k] & s.occ[p], (p, kind)  # held only while touching
    assert union == s.all_occ and b.special & s.all_occ == 0
    assert s.blocked == X.warrior_blocked(allw)
    for k in range(s.nloc):
        taken = sum(1 for p in range(s.num_players)
                    if s.hold[p * s.nloc + k] in (READY, USED, NEW, 4))
        assert taken + s.loc_left[k] == b.tiles_per_location[k]
    held = [0] * 5
    for c in list(s.hand) + list(s.hand2) + [s.fort_card]:
        if c >= 0:
            held[c] += 1
    for t in range(5):
        assert s.deck[t] + s.discard[t] + s.removed[t] + held[t] == 5


@settings(max_examples=6, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=2, max_value=4),
       layouts())
def test_random_crossroads_games(seed: int, n: int, sections: list[str]) -> None:
    final, seen = random_game(seed, n, sections)
    assert final.is_terminal() and 0 in final.supply
    assert len(final.tasks) == sum(1 for s in sections if s.split(":")[0] in X.SECTIONS)
    for s in seen[::3]:
        check_invariants(s)
        check_json_roundtrip(s)
        for p in range(n):
            obs = s.observation(p)
            json.dumps(obs)
            for q in range(n):
                # only the player whose turn it is shows cards (face up), also while the
                # Fort's card is being drawn
                shown = q == s.cur and s.pending in (0, P_FORT) and not s.over
                if q != p and not shown:
                    assert obs["players"][q]["card"] in (None, "none")
                    assert obs["crossroads"]["players"][q]["second_card"] in (None, "none")
    check_record_replay(final)
    totals = final.scores()
    for p, ps in enumerate(totals):
        assert set(final.tasks) <= set(ps.parts) and ps.total == sum(ps.parts.values())


@settings(max_examples=6, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), layouts())
def test_clone_independence_and_resample(seed: int, sections: list[str]) -> None:
    _, seen = random_game(seed, 3, sections, stop=0.995)
    s = seen[-1]
    if s.is_terminal():
        return
    before = s.to_json()
    c = s.clone()
    random_steps(c, random.Random(seed), 40)
    assert s.to_json() == before
    for p in range(3):
        r = s.resample_from_infostate(p, random.Random(seed + p))
        assert r.observation(p) == s.observation(p)
        assert r.information_state_key(p) == s.information_state_key(p)
        check_invariants(r)


def test_variant_options_keep_invariants() -> None:
    for opts in ({"base_tiles_move_pieces": True, "tile_loss_timing": "end_of_turn"},
                 {"piece_move_path": "any_path", "wagon_on_mountains": False,
                  "crossroads_first_draw": "next_turn", "fort_without_target": "redraw"},
                 {"crossroads_identical_cards": "any_terrain",
                  "city_hall_adjacency": "if_possible", "rare_exception": "no_redraw"}):
        final, seen = random_game(7, 3, [f"{s}:0" for s in CROSS], **opts)
        assert final.is_terminal()
        for s in seen[::5]:
            if opts.get("base_tiles_move_pieces"):
                continue  # pieces may then stand on any terrain a base tile allows
            check_invariants(s)


def test_greedy_uses_new_tiles_and_pieces() -> None:
    g = citybuilders.load_game("kingdom-builder", expansions=["crossroads"],
                               sections=[f"{s}:0" for s in CROSS])
    used: set[str] = set()
    for seed in range(2):
        s = g.new_initial_state(2, seed)
        bots = [GreedyBot(seed=seed), GreedyBot(seed=seed + 1)]
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s.apply_legal(s.sample_chance(rng))
                continue
            a = bots[s.current_player()].step(s, s.current_player())
            text = s.action_to_string(a)
            used.add(text.split()[0])
            s.apply_legal(a)
    assert used & {"foresters_lodge", "monastery", "fort", "city_hall", "wagon", "lighthouse",
                   "barracks"}
