"""The ``hard``/``expert`` road rule (strategy.ROAD_TO_POINTS): roads walk towards the printed
points still unconnected (and, a few edges farther, towards resources that are short), checked
against a plain breadth-first twin on the positions of seeded games."""

from __future__ import annotations

import random
from collections import deque

import pytest

from citybuilders.core.game import CHANCE
from citybuilders.core.registry import load_game
from citybuilders.games.roll_builder import strategy

SHEETS = ("rivermouth", "highcrag", "goldplain")


def plain_distance(state, p, spaces: set[int]) -> dict[int, int]:
    """Corner -> edges to the nearest corner of a space in ``spaces`` over usable open edges."""
    sh = state.game.sheet
    open_e = sh.usable_edges & ~p.blocked
    adj: dict[int, list[int]] = {}
    for e, (a, b) in enumerate(sh.edge_corners):
        if open_e >> e & 1:
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
    dist = {c: 0 for s in spaces for c in sh.space_corners[s]}
    todo = deque(dist)
    while todo:
        c = todo.popleft()
        for d in adj.get(c, ()):
            if d not in dist:
                dist[d] = dist[c] + 1
                todo.append(d)
    return dist


def plain_short(state, p) -> set[int]:
    """Kinds (0-4 resources, 5 innovation bonus) with more open circles in undiscovered
    innovations than units on connected unmarked spaces."""
    g = state.game
    sh = g.sheet
    need = [0] * 6
    for k, (i, kind) in enumerate(sh.circles):
        if not p.discovered >> i & 1 and not p.crossed >> k & 1:
            need[kind] += 1
    have = [0] * 6
    for s in range(g.n_spaces):
        if p.connected >> s & 1 and not p.marked >> s & 1:
            for k in range(5):
                have[k] += sh.space_res[s][k]
            have[5] += sh.space_ib[s]
    return {k for k in range(6) if need[k] > have[k]}


GREEDY = -1  # plain_road's answer "greedy's road"


def plain_road(state, p, legal: list[int]) -> int | None:
    """The points-first road: among roads reaching a new corner, the nearest to a target, then
    the highest greedy road value, then the lowest id. Once every space with printed points is
    connected, or when no target is reachable: greedy's road (GREEDY); None when no road is
    legal."""
    g = state.game
    sh = g.sheet
    roads = [a for a in legal if g.A_ROAD <= a < g.A_MARK]
    if not roads:
        return None
    unconn = [s for s in range(g.n_spaces) if not p.connected >> s & 1]
    vp = {s for s in unconn if sh.space_points[s]}
    short = plain_short(state, p)
    spaces = {s for s in unconn
              if any(k in short for k in range(5) if sh.space_res[s][k])
              or (5 in short and sh.space_ib[s])}
    if not vp:
        return GREEDY
    dist = plain_distance(state, p, vp)
    if strategy.ROAD_SHORT_EDGES >= 0:
        for c, d in plain_distance(state, p, spaces).items():
            dist[c] = min(dist.get(c, 99), d + strategy.ROAD_SHORT_EDGES)
    values = dict(strategy._road_values(state, p, roads))
    best, key = None, None
    for a in roads:
        c1, c2 = sh.edge_corners[a - g.A_ROAD]
        c = c2 if p.corners >> c1 & 1 else c1
        if p.corners >> c & 1:
            continue
        k = (-dist.get(c, 99), values.get(a - g.A_ROAD, 0.0))
        if key is None or k > key:
            best, key = a, k
    return GREEDY if key is None or key[0] <= -99 else best


@pytest.mark.parametrize("sheet", SHEETS)
@pytest.mark.parametrize("short", [-1, 0, strategy.ROAD_SHORT_EDGES])
def test_points_first_road_equals_its_plain_twin(sheet: str, short: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strategy, "ROAD_SHORT_EDGES", short)
    rng = random.Random(7)
    state = load_game("roll-builder", sheet=sheet).new_initial_state(1, 7)
    compared = differ = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_legal(state.sample_chance(rng))
            continue
        p = state.players[0]
        legal = state.legal_actions(0)
        if p.roads_left and any(state.game.A_ROAD <= a < state.game.A_MARK for a in legal):
            greedy = strategy._road_choice(state, p, legal)
            want = plain_road(state, p, legal)
            strategy._MODE.points_first = True
            try:
                got = strategy._road_choice(state, p, legal)
            finally:
                strategy._MODE.points_first = False
            assert got == (greedy if want == GREEDY else want)
            assert strategy._road_choice(state, p, legal) == greedy  # the mode is off again
            compared += 1
            differ += got != greedy
        # play on with the points-first road half of the time, so both walks are covered
        a = strategy.policy_action(state, 0, legal)
        if rng.random() < 0.5 and p.roads_left and state.game.A_ROAD <= a < state.game.A_MARK:
            b = plain_road(state, p, legal)
            a = a if b is None or b == GREEDY else b
        state.apply_legal(a, 0)
    assert compared > 20 and differ > 0


def test_valued_action_uses_the_rule_only_while_it_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    # the first road step of a seeded greedy game where the two rules differ
    rng = random.Random(3)
    state = load_game("roll-builder", sheet="highcrag").new_initial_state(1, 3)
    while True:
        if state.current_player() == CHANCE:
            state.apply_legal(state.sample_chance(rng))
            continue
        p = state.players[0]
        legal = state.legal_actions(0)
        a = strategy.policy_action(state, 0, legal)
        want = plain_road(state, p, legal) if state.game.A_ROAD <= a < state.game.A_MARK else None
        if want is not None and want != GREEDY and want != a:
            break
        state.apply_legal(strategy.greedy_action(state, 0, rng), 0)
    assert strategy.valued_action(state, 0, random.Random(0), 1.0) == want
    assert not strategy._points_first()
    assert strategy.policy_action(state, 0) == a
    monkeypatch.setattr(strategy, "ROAD_TO_POINTS", False)
    assert strategy.valued_action(state, 0, random.Random(0), 1.0) == a
