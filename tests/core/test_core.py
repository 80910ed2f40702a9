from __future__ import annotations

import json
import random

import pytest
from toygame import ToyGame

from citybuilders.bots import make_bot
from citybuilders.core import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    OptionError,
    RecordError,
    load_game,
    record_of,
    register_game,
    registered_games,
    replay,
)
from citybuilders.core.grid import components, hex_neighbor_masks, hex_neighbors
from citybuilders.core.runner import play_out
from citybuilders.core.undo import undo_last, undoable_count




def played(seed=3, n=2):
    game = load_game("toy")
    state = game.new_initial_state(n, seed)
    return play_out(state, [make_bot("random", seed + p) for p in range(n)], random.Random(seed))


def test_registry_and_options():
    assert "toy" in registered_games()
    with pytest.raises(OptionError, match="unknown option 'colour'.*allowed: bonus, turns"):
        load_game("toy", colour=1)
    with pytest.raises(OptionError, match="option 'turns'.*from 1 to 50"):
        load_game("toy", turns=0)
    with pytest.raises(OptionError, match="true or false"):
        load_game("toy", bonus="yes")
    with pytest.raises(Exception, match="unknown game 'chess'"):
        load_game("chess")
    assert load_game("toy", turns=3).options == {"turns": 3, "bonus": False}


def test_num_players_checked():
    with pytest.raises(OptionError, match="2 to 3 players"):
        load_game("toy").new_initial_state(5)


def test_chance_and_illegal_action_leaves_state():
    s = load_game("toy").new_initial_state(2, 0)
    assert s.current_player() == CHANCE
    assert sum(p for _, p in s.chance_outcomes()) == pytest.approx(1)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply_action(0)  # BUILD is not a chance outcome
    assert s.to_json() == before
    s.apply_action(4)
    s.apply_action(2)
    assert s.current_player() == 0
    with pytest.raises(IllegalActionError, match="not a legal"):
        s.apply_action(7)
    with pytest.raises(IllegalActionError, match="'fly' is not a legal move; legal: build, roll"):
        s.string_to_action("fly")
    assert s.string_to_action(" BUILD ") == 0
    assert s.legal_actions_mask() == [1, 1] + [0] * 9


def test_playout_terminal_and_returns():
    s = played()
    assert s.current_player() == TERMINAL and s.is_terminal()
    r = s.returns()
    assert sum(r) == pytest.approx(1.0)
    assert all(x in (0.0, 0.5, 1.0) for x in r)


def test_record_roundtrip_and_errors():
    s = played(5)
    rec = record_of(s).to_json()
    again = replay(json.loads(json.dumps(rec)))
    assert again == s
    bad = dict(rec, rules_version="0")
    with pytest.raises(RecordError, match="rules version 0"):
        replay(bad)
    bad = dict(rec, actions=rec["actions"][:2] + [9] + rec["actions"][3:])
    with pytest.raises(RecordError, match="move 3"):
        replay(bad)
    with pytest.raises(RecordError, match="missing key 'seed'"):
        replay({k: v for k, v in rec.items() if k != "seed"})
    with pytest.raises(RecordError, match="not valid JSON"):
        replay("{")


def test_json_roundtrip_and_clone_independence():
    s = played(7)
    game = load_game("toy")
    t = game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert t == s
    s2 = load_game("toy").new_initial_state(2, 1)
    s2.apply_action(2)
    c = s2.clone()
    c.apply_action(3)
    assert s2.current_player() == CHANCE and len(s2.history()) == 1


def test_infostate_hides_private_draws():
    s = load_game("toy").new_initial_state(2, 0)
    s.apply_action(4)  # player 0 gets card 3
    s.apply_action(2)  # player 1 gets card 1
    t = load_game("toy").new_initial_state(2, 0)
    t.apply_action(3)  # player 0 gets card 2
    t.apply_action(2)
    assert s.information_state_key(1) == t.information_state_key(1)
    assert s.information_state_key(0) != t.information_state_key(0)


def test_undo_policy():
    s = load_game("toy").new_initial_state(2, 0)
    s.apply_action(4)
    s.apply_action(2)
    assert undoable_count(s, 0) == 0
    s.apply_action(1)  # player 0 rolls -> chance pending
    assert undoable_count(s, 0) == 1
    u = undo_last(s, 0)
    assert u.current_player() == 0 and len(u.history()) == 2
    s.apply_action(5)  # die roll: a chance event blocks undo
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        undo_last(s, 0)


def test_greedy_bot_prefers_points():
    s = load_game("toy").new_initial_state(2, 0)
    s.apply_action(4)
    s.apply_action(2)
    assert make_bot("greedy").step(s, 0) == 0  # build scores 3 now
    with pytest.raises(OptionError, match="unknown bot"):
        make_bot("genius")


def test_hex_geometry():
    assert sorted(hex_neighbors(0, 0, 20, 20)) == [(0, 1), (1, 0)]
    assert sorted(hex_neighbors(1, 0, 20, 20)) == [(0, 0), (0, 1), (1, 1), (2, 0), (2, 1)]
    assert sorted(hex_neighbors(2, 2, 20, 20)) == [(1, 1), (1, 2), (2, 1), (2, 3), (3, 1), (3, 2)]
    nm = hex_neighbor_masks(3, 3)
    mask = (1 << 0) | (1 << 1) | (1 << 8)
    assert sorted(components(mask, nm)) == [0b11, 1 << 8]


def test_ismcts_finds_the_scoring_move_and_respects_hidden_cards():
    from citybuilders.bots import ISMCTSBot

    s = load_game("toy", turns=2).new_initial_state(2, 0)
    s.apply_action(4)  # player 0 holds a 3
    s.apply_action(2)  # player 1 holds a 1
    bot = ISMCTSBot(seed=1, iterations=300, max_seconds=5)
    assert bot.step(s, 0) == 0  # build (3 points) beats roll (1/6 of a point)
    # a determinization for player 1 never keeps a changed own card
    for i in range(20):
        d = s.resample_from_infostate(1, random.Random(i))
        assert d.hands[1] == 1
    assert "ismcts" in __import__("citybuilders.bots", fromlist=["bot_names"]).bot_names()


def test_wrong_player_is_named_one_based():
    s = load_game("toy").new_initial_state(2, 0)
    s.apply_action(4)
    s.apply_action(2)
    with pytest.raises(IllegalActionError, match=r"P2 may not act now \(to act: P1\)"):
        s.apply_action(0, player=1)
