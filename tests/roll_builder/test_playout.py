"""Roll Builder's fused ``playout`` (rules/playout.py) against its plain twin, the core loop
``State.playout`` (``sample_chance`` and ``legal[rng.randrange(len(legal))]`` per move): from
positions along random games of every sheet, rules option and 1-3 players, with and without a
limit, the same state afterwards (history included) and the same random draws."""

from __future__ import annotations

import random

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from citybuilders.core.game import CHANCE, TERMINAL, State
from citybuilders.core.registry import load_game
from citybuilders.games.roll_builder.rules.bits import bit_indices, nth_bit
from citybuilders.games.roll_builder.rules.player_sheet import PlayerSheet

SHEETS = ["rivermouth", "highcrag", "goldplain"]
OPTIONS = [{}, {"dice_use": "combine"}, {"road_count": "all"}, {"marking": "after_road_action"},
           {"resource_timing": "end_of_turn"}, {"building_uses_space": True}]
LIMITS = (None, 0, 1, 3, 12, 40)


def _same(s: State, seed: int, limit: int | None) -> None:
    fast, plain = s.clone(), s.clone()
    r1, r2 = random.Random(seed), random.Random(seed)
    fast.playout(r1, limit)
    State.playout(plain, r2, limit)
    assert fast.history() == plain.history(), (seed, limit)
    assert fast.to_json() == plain.to_json(), (seed, limit)
    assert r1.getstate() == r2.getstate(), (seed, limit)
    if limit is None:
        assert fast.is_terminal()


@settings(max_examples=24, deadline=None)
@given(st.sampled_from(SHEETS), st.sampled_from(OPTIONS), st.integers(1, 3),
       st.integers(0, 10**6))
def test_fused_playout_is_the_plain_loop(sheet: str, opts: dict, players: int, seed: int) -> None:
    s = load_game("roll-builder", sheet=sheet, **opts).new_initial_state(players, seed)
    walk = random.Random(seed)
    step = checked = 0
    while s.current_player() != TERMINAL:
        if step % 9 == 0:
            _same(s, seed + step, LIMITS[step // 9 % len(LIMITS)])
            checked += 1
        cp = s.current_player()
        if cp == CHANCE:
            s.apply_legal(s.sample_chance(walk))
        else:
            la = s.legal_actions(cp)
            s.apply_legal(la[walk.randrange(len(la))], cp)
        step += 1
    assert checked >= 12


def test_fused_playout_covers_every_kind_of_move() -> None:
    """Whole rollouts from the start reach every branch of the fused loop: each kind of move
    (dice, done, roads, marks, builds, wonders, crosses, track/store/discard, skips) is played."""
    g = load_game("roll-builder", dice_use="combine")
    seen: set[str] = set()
    for seed in range(12):
        s = g.new_initial_state(2, seed)
        _same(s, seed, None)
        s.playout(random.Random(seed))
        for actor, a in s.history():
            if actor == CHANCE:
                continue
            seen.add("die" if a < 17 else "misc" if a < g.A_ROAD else "road" if a < g.A_MARK
                     else "mark" if a < g.A_BUILD else "build" if a < g.A_WONDER
                     else "wonder" if a < g.A_CROSS
                     else ("cross", "bonus cross", "stored cross")[(a - g.A_CROSS) % 3])
    assert seen == {"die", "misc", "road", "mark", "build", "wonder", "cross", "bonus cross",
                    "stored cross"}


def test_an_rng_with_its_own_integer_draw_takes_the_plain_loop() -> None:
    class FirstMove(random.Random):
        def _randbelow(self, n: int) -> int:  # always the first legal move
            return 0

    s = load_game("roll-builder").new_initial_state(1, 3)
    fast, plain = s.clone(), s.clone()
    fast.playout(FirstMove(5), 30)
    State.playout(plain, FirstMove(5), 30)
    assert fast.history() == plain.history()
    assert len(fast.history()) > 30


@settings(max_examples=300, deadline=None)
@given(st.integers(1, (1 << 340) - 1), st.data())
def test_nth_bit_is_the_listed_bit(mask: int, data: st.DataObject) -> None:
    idx = bit_indices(mask, (mask.bit_length() + 7) // 8)
    r = data.draw(st.integers(0, len(idx) - 1))
    assert nth_bit(mask, r, len(idx)) == idx[r]


def test_solo_returns_are_the_core_rule() -> None:
    """``returns`` of a solo game skips scoring: the same values as ``State.returns``."""
    g = load_game("roll-builder")
    for players in (1, 2):
        s = g.new_initial_state(players, 4)
        s.playout(random.Random(4), 20)
        assert s.returns() == State.returns(s) == [0.0] * players
        s.playout(random.Random(5))
        assert s.returns() == State.returns(s)
        assert sum(s.returns()) == 1.0


def _reference_place_road(g, p, e: int) -> None:
    """The road rule as first written (moves.py before the per-edge tables), kept as the oracle
    of ``Moves._place_road``."""
    sh = g.sheet
    bit = 1 << e
    p.roads |= bit
    p.roads_placed += 1
    p.roads_left -= 1
    for c in sh.edge_corners[e]:
        cb = 1 << c
        if not p.corners & cb:
            p.corners |= cb
            p.connected |= sh.corner_spaces[c]
            p.frontier |= sh.corner_edges[c]
    if p.road_toll is not None and sh.toll_edges & bit and p.tolls_taken < p.road_actions:
        p.tolls_taken += 1
        _reference_gain(p, p.road_toll)
    if p.full_hexagon_uses < sh.hex_max:
        for s in sh.edge_spaces[e]:
            m = g.space_edge_mask[s]
            if (p.roads & m == m and not p.full_hexagons >> s & 1
                    and p.full_hexagon_uses < sh.hex_max):
                p.full_hexagons |= 1 << s
                p.full_hexagon_uses += 1
                p.full_hexagon_points += sh.hex_points
                _reference_gain(p, sh.hex_gain)
    for idx, (cnt, rew) in enumerate(sh.milestones):
        if p.roads_placed == cnt and not p.milestones_reached >> idx & 1:
            p.milestones_reached |= 1 << idx
            _reference_gain(p, rew["gain"])
            for b in rew["unlock"]:
                p.unlocked |= 1 << b
            if rew["bonus_action"] == "build":
                p.pending_builds.append(0)
            elif rew["bonus_action"] == "wonder":
                p.pending_wonders.append(0)


def _reference_gain(p, units) -> None:
    for k in range(5):
        if units[k]:
            p.pending_resources[k] += units[k]


@pytest.mark.parametrize("sheet", SHEETS)
def test_place_road_is_the_plain_rule(sheet: str) -> None:
    """``_place_road`` (per-edge tables) and ``gain`` (non-zero counts) against the plain
    transcription: roads placed one after the other until none is left, from positions of
    random games, with a road toll (so tolls, full hexagons and milestones all happen)."""
    g = load_game("roll-builder", sheet=sheet)
    seen = {"toll": 0, "hex": 0, "milestone": 0}
    for seed in range(4):
        s = g.new_initial_state(1, seed)
        s.playout(random.Random(seed), 15 * seed)
        p = s.players[0]
        p.road_toll, p.road_actions = (1, 0, 0, 0, 2), 40
        p.roads_left = 300
        rng = random.Random(seed)
        while True:
            roads = s._road_edges(p)
            if not roads:
                break
            e = bit_indices(roads, g.edge_bytes)[rng.randrange(roads.bit_count())]
            fast, plain = p.copy(), p.copy()
            s._place_road(fast, e)
            _reference_place_road(g, plain, e)
            for slot in PlayerSheet.__slots__:
                if slot not in ("road_key", "road_list"):
                    assert getattr(fast, slot) == getattr(plain, slot), (sheet, seed, e, slot)
            seen["toll"] += fast.tolls_taken > p.tolls_taken
            seen["hex"] += fast.full_hexagon_uses > p.full_hexagon_uses
            seen["milestone"] += fast.milestones_reached != p.milestones_reached
            s.players[0] = p = fast
    assert all(seen.values()), seen
