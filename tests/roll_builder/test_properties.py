"""Property tests over random Roll Builder games: scores, invariants, undo (the shared protocol test
covers replay, clone independence and JSON identity for every game)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rb_helpers import do, new, roll

from citybuilders.core.errors import IllegalActionError
from citybuilders.core.game import CHANCE
from citybuilders.core.registry import load_game
from citybuilders.core.undo import undo_last, undoable_count

SHEETS = ["rivermouth", "highcrag", "goldplain"]


def random_game(sheet: str, players: int, seed: int, stop: int | None = None):
    g = load_game("roll-builder", sheet=sheet)
    s = g.new_initial_state(players, seed)
    rng = random.Random(seed)
    n = 0
    while not s.is_terminal() and (stop is None or n < stop):
        cp = s.current_player()
        if cp == CHANCE:
            s.apply_legal(s.sample_chance(rng))
        else:
            act = s.active_players()
            p = act[rng.randrange(len(act))]
            la = s.legal_actions(p)
            s.apply_legal(la[rng.randrange(len(la))], p)
        n += 1
    return s


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(SHEETS), st.integers(1, 3), st.integers(0, 10**6))
def test_scores_add_up_on_every_sheet(sheet: str, players: int, seed: int) -> None:
    """Replay, clone and JSON identity are the shared protocol test's (tests/core/test_protocol.py);
    here what is Roll Builder's: on all three sheets, each total is the sum of its parts, >= 0."""
    s = random_game(sheet, players, seed)
    assert s.is_terminal()
    for sc in s.scores():
        assert sc.total == sum(sc.parts.values()) and sc.total >= 0


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(SHEETS), st.integers(0, 10**6))
def test_invariants_during_random_play(sheet: str, seed: int) -> None:
    s = random_game(sheet, 1, seed, stop=None)
    p = s.players[0]
    sh = s.game.sheet
    assert p.roads & ~(sh.usable_edges | sh.start_roads) == 0
    assert p.bld2 & ~p.bld1 == 0 and p.marked & ~p.connected == 0
    assert p.w_marked <= sh.wealth_storage and p.stored >= 0
    assert p.hex_uses <= sh.hex_max and p.placed == (p.roads & ~sh.start_roads).bit_count()
    assert p.favor < len(sh.tracks[0]) and p.strength < len(sh.tracks[1])


def test_per_player_undo_within_the_turn() -> None:
    s = new(players=2)
    roll(s, 3, 2)
    do(s, "road d1", player=0)
    do(s, "road d1", player=1)
    do(s, "road 4,4,NE", player=0)
    do(s, "road 4,4,NE", player=1)
    assert undoable_count(s, 0) == 2 and undoable_count(s, 1) == 2
    u = undo_last(s, 0)
    assert u.players[0].placed == 0 and u.players[0].roads_left == 3
    assert u.players[1].placed == 1  # the other player's actions stay
    u = undo_last(u, 0)
    assert u.players[0].used == 0 and u.players[1].placed == 1
    with pytest.raises(IllegalActionError):
        undo_last(u, 0)


def test_undo_never_crosses_a_roll() -> None:
    s = new()
    roll(s, 3, 2)
    do(s, "skip d1", "skip d2", "done")
    roll(s, 1, 1)
    assert undoable_count(s, 0) == 0
    with pytest.raises(IllegalActionError):
        undo_last(s, 0)


def test_observation_is_json_and_public() -> None:
    import json

    s = random_game("goldplain", 2, 3, stop=60)
    o = s.observation(1)
    json.dumps(o)
    assert o["you"] == 1 and o["sheet"] == "goldplain"


def test_greedy_bot_plays_a_full_game_deterministically() -> None:
    from citybuilders.bots.base import make_bot
    from citybuilders.core.runner import play_out

    totals = []
    for _ in range(2):
        s = new("goldplain")
        play_out(s, [make_bot("greedy", 1)], random.Random(4))
        totals.append(s.scores()[0].total)
    assert totals[0] == totals[1] and 40 <= totals[0] <= 95
    assert s.result_info()["sheet"] == "goldplain" and "rank" in s.result_info()
