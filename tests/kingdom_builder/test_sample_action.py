"""The fast random move (``sample_action``) and the two-mask move-tile generator give exactly
what the full legal-move lists give: same action, same random draws."""

from __future__ import annotations

import random

import pytest

import citybuilders
from citybuilders.core.errors import IllegalActionError
from citybuilders.core.game import CHANCE, TERMINAL
from citybuilders.core.grid import bits
from citybuilders.games.kingdom_builder.rules.board import NEIGHBORS, dilate
from citybuilders.games.kingdom_builder.rules.tiles import (
    KINDS_BY_BASE,
    TerrainMoveTile,
    neighbour_masks,
    nth_bit,
    with_adjacency,
)

OPTIONS = [
    {},
    {"null_move": "allowed"},
    {"tile_loss_timing": "end_of_turn"},
    {"expansions": ["crossroads"]},
    {"expansions": ["crossroads"], "base_tiles_move_pieces": True},
]


def _reference_moves(kind: TerrainMoveTile, st, p: int) -> list[tuple[int, int]]:
    """The move tiles as first written: one dilation per lifted settlement."""
    terrains = st.card_terrains(p) if kind.terrain is None else [kind.terrain]
    out = []
    for s in bits(st.movable(p)):
        low = 1 << s
        mask = 0
        for t in terrains:
            elig = st.board.tmask[t] & st.empty()
            if st.allow_null_move and st.board.tmask[t] & low and not st.blocked & low:
                elig |= low
            if elig:
                mask |= with_adjacency(elig, st.occ[p] & ~low)
        if mask:
            out.append((s, mask))
    return out


def _positions(options: dict, games: int):
    """Every position of ``games`` random games (players 2..4)."""
    g = citybuilders.load_game("kingdom-builder", **options)
    for seed in range(games):
        s = g.new_initial_state(2 + seed % 3, seed)
        rng = random.Random(seed)
        while s.current_player() != TERMINAL:
            if s.current_player() == CHANCE:
                s.apply_legal(s.sample_chance(rng))
                continue
            yield s
            s.apply_legal(s.sample_action(rng))


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "base")
def test_sample_action_is_the_list_draw(options: dict) -> None:
    n = 0
    for s in _positions(options, 6):
        p = s.current_player()
        legal = s.legal_actions(p)
        seed = n * 7919
        r1, r2 = random.Random(seed), random.Random(seed)
        assert s.sample_action(r1, p) == legal[r2.randrange(len(legal))]
        assert r1.getstate() == r2.getstate()
        n += 1
    assert n > 500


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "base")
def test_move_tiles_from_two_masks_match_one_dilation_per_settlement(options: dict) -> None:
    kinds = [k for k in KINDS_BY_BASE if isinstance(k, TerrainMoveTile)]
    assert {k.id for k in kinds} == {"barn", "harbor"}
    checked = 0
    for s in _positions(options, 4):
        for q in range(s.num_players):
            for kind in kinds:
                got = kind.moves(s, q)
                assert got == _reference_moves(kind, s, q)
                n, data = kind.count(s, q)
                flat = [a for src, m in got for a in
                        (kind.base + src * 400 + t for t in bits(m))]
                assert n == len(flat)
                for r in range(0, n, max(1, n // 7)):
                    assert kind.nth(data, r) == flat[r]
                checked += bool(got)
    assert checked > 50


def test_neighbour_masks_count_neighbours() -> None:
    rng = random.Random(5)
    for _ in range(200):
        own = 0
        for _ in range(rng.randrange(0, 40)):
            own |= 1 << rng.randrange(400)
        one, two = neighbour_masks(own)
        assert one == dilate(own)
        expected_two = sum(1 << h for h in range(400)
                           if (NEIGHBORS[h] & own).bit_count() >= 2)
        assert two == expected_two


def test_nth_bit_is_the_listed_bit() -> None:
    rng = random.Random(9)
    for _ in range(300):
        mask = sum(1 << rng.randrange(480) for _ in range(rng.randrange(1, 80)))
        listed = bits(mask)
        assert [nth_bit(mask, r) for r in range(len(listed))] == listed
    assert nth_bit(1 << 399, 0) == 399
    assert nth_bit(0b1011, 2) == 3


def test_default_sample_action_and_no_legal_action() -> None:
    g = citybuilders.load_game("kingdom-builder")
    s = g.new_initial_state(2, 1)
    s.apply_action(0)
    s.apply_action(1)
    with pytest.raises(IllegalActionError, match="no legal action"):
        s.sample_action(random.Random(0), 1)  # P2 waits for P1
    # at a chance node: a uniform pick among the outcomes (the core default)
    c = g.new_initial_state(2, 1)
    legal = c.legal_actions()
    assert c.sample_action(random.Random(3)) == legal[random.Random(3).randrange(len(legal))]


def test_kind_of_action_by_division_matches_the_scan() -> None:
    citybuilders.load_game("kingdom-builder", expansions=["crossroads"])  # all kinds registered
    from citybuilders.games.kingdom_builder.actions import NUM_ACTIONS
    from citybuilders.games.kingdom_builder.rules.tiles import kind_of_action

    def scan(a: int):
        return next((k for k in KINDS_BY_BASE if k.base <= a < k.base + k.size), None)

    rng = random.Random(2)
    probes = list(range(0, 3000)) + [rng.randrange(NUM_ACTIONS + 50) for _ in range(20000)]
    probes += [k.base + k.size - 1 for k in KINDS_BY_BASE] + [k.base + k.size for k in KINDS_BY_BASE]
    for a in probes:
        assert kind_of_action(a) is scan(a), a
    assert kind_of_action(32) is None  # a mandatory build is no tile action
    from citybuilders.games.kingdom_builder.actions import HEX_BASE, PAIR_BASE
    from citybuilders.games.kingdom_builder.rules.tiles import _BY_BASE

    for k in KINDS_BY_BASE:  # every block's first and last id found by division, without the scan
        for a in (k.base, k.base + k.size - 1):
            first, span = (HEX_BASE, 400) if a < PAIR_BASE else (PAIR_BASE, 400 * 400)
            assert _BY_BASE[first + (a - first) // span * span] is k, (k.id, a)


@pytest.mark.parametrize("options", OPTIONS[::3], ids=lambda o: ",".join(o) or "base")
def test_legal_actions_is_the_core_method(options: dict) -> None:
    from citybuilders.core.game import State

    n = 0
    for s in _positions(options, 3):
        for player in (None, *range(s.num_players)):
            assert s.legal_actions(player) == State.legal_actions(s, player)
        n += 1
    g = citybuilders.load_game("kingdom-builder", **options)
    s = g.new_initial_state(3, 1)  # at the deal (a chance node) and at the end
    for player in (None, 0, 2):
        assert s.legal_actions(player) == State.legal_actions(s, player)
    s.playout(random.Random(1))
    assert s.legal_actions() == State.legal_actions(s) == []
    assert n > 300
