"""Random-game properties of Roll into Town: sheet invariants, undo, views (the shared protocol test
covers replay, clone independence and JSON identity for every game)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rit_helpers import DISCOVER, act, game, state_at

from citybuilders.bots import make_bot
from citybuilders.core.runner import play_out
from citybuilders.core.undo import undo_last, undoable_count
from citybuilders.games.roll_into_town import rules as R

SETTINGS = settings(max_examples=8, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def check_invariants(s):
    for sh in s.sheets:
        assert all(0 <= v <= R.CAP for v in sh.res)
        free = sum(1 << i for i in range(sh.geo.n)
                   if sh.terrain[i] == R.EMPTY and sh.bld[i] == 0)
        assert free == sh.free
        assert sh.trees == sum(1 << i for i, t in enumerate(sh.terrain) if t == R.TREE)
        assert sh.terrain.count(R.TOWN_HALL) == 1
        assert sh._income == sh.income_parts()
    for p in s.active_players():
        legal = s.legal_actions(p)
        assert legal == sorted(set(legal)) and legal


@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(1, 3),
       bot=st.sampled_from(["random", "greedy"]))
def test_random_and_greedy_games_keep_the_sheet_invariants(seed, players, bot):
    """Replay, clone and JSON identity are the shared protocol test's; here the sheets'
    own invariants along random and greedy games, and the solo rank."""
    g = game()
    s = g.new_initial_state(players, seed)
    rng = random.Random(seed)
    bots = [make_bot(bot, seed + p) for p in range(players)]
    steps = 0
    while not s.is_terminal():
        cp = s.current_player()
        a = s.sample_chance(rng) if cp < 0 else bots[cp].step(s, cp)
        s.apply_action(a, cp if cp >= 0 else None)
        steps += 1
        if steps % 25 == 0:
            check_invariants(s)
    assert len(s.scores()) == players and s.winners()
    if players == 1:
        assert s.result_info() == {"rank": R.solo_rank(s.scores()[0].total)}


def test_simultaneous_players_share_dice_and_act_independently():
    s = state_at(DISCOVER, dice=(1, 2, 3, 4, 5), num_players=2)
    assert s.active_players() == [0, 1] and s.current_player() == 0
    act(s, "d1 farm 0,0", player=1)
    assert s.sheets[0].terrain[0] == R.EMPTY and s.sheets[1].terrain[0] == R.FARM
    act(s, "adjust d2 +1", player=0)
    assert s.dice[0][1] == 3 and s.dice[1][1] == 2  # the town hall changes only my copy


def test_undo_within_phase_never_across_roll_or_phase():
    g = game()
    s = g.new_initial_state(1, 0)
    for face in (1, 1, 2, 3, 5):
        s.apply_action(g.A_DIE + face - 1)
    assert undoable_count(s, 0) == 0  # nothing of mine since the roll
    act(s, "d1 farm 0,0")
    act(s, "d2 farm 0,1")
    assert undoable_count(s, 0) == 2
    s2 = undo_last(s, 0)
    assert s2.sheets[0].terrain[1] == R.EMPTY and s2.to_draw[0] == 2
    act(s, "d3 mountain 1,1")
    act(s, "done")  # -> build phase
    assert s.phase == 2 and undoable_count(s, 0) == 0  # undo stops at the phase start


def test_observation_and_renderers():
    s = state_at(DISCOVER, dice=(1, 2, 6, 4, 5))
    obs = s.observation(0)
    json.dumps(obs)
    assert obs["dice"] == [1, 2, 6, 4, 5] and obs["icons_to_draw"] == 3
    assert obs["sheets"][0]["map"][4].split()[4] == "TH"
    text = s.render_text(0, color=False)
    assert "d3=6 (any)" in text and "food 0  stone 0  wood 2" in text
    assert "town hall uses left 3" in text and "fountain uses left 3 (not built)" in text
    assert "\x1b[" in s.render_text(0, color=True)
    svg = s.render_svg(0)
    assert "data-key='sq:0,0'" in svg and "data-key='die:2'" in svg
    paths = {s.action_path(a, 0) for a in s.legal_actions(0)}
    assert ("die:0", "icon:farm", "sq:0,0") in paths
    assert ("die:3", "icon:river", "flow:EW", "sq:0,1") not in paths  # no flow side off map
    assert ("die:3", "icon:river", "flow:NS", "sq:0,0") in paths
    assert ("die:4", "icon:coast", "sq:3,3") in paths and ("die:0", "adj:+1") in paths
    for a in s.legal_actions(0)[:: 37]:
        assert s.string_to_action(s.action_to_string(a), 0) == a


def test_future_dice_not_in_observation():
    g = game()
    s = g.new_initial_state(1, 0)
    s.apply_action(g.A_DIE + 3)
    obs = s.observation(0)
    assert obs["rolled"] == [4] and obs["dice"] == []


def test_bad_notation_is_one_line_error():
    import pytest

    from citybuilders.core.errors import IllegalActionError

    s = state_at(DISCOVER)
    for text, msg in [("fly", "not a move"), ("d1 farm 12,0", "off the map"),
                      ("d1 river 0,0", "flow sides"), ("build castle 1,1", "unknown building")]:
        with pytest.raises(IllegalActionError, match=msg) as exc:
            s.string_to_action(text, 0)
        assert "\n" not in str(exc.value)


def test_greedy_beats_random_on_average():
    g = game()
    totals = {}
    for bot in ("random", "greedy"):
        tot = 0
        for seed in range(3):
            s = g.new_initial_state(1, seed)
            play_out(s, [make_bot(bot, seed)], random.Random(seed))
            tot += s.scores()[0].total
        totals[bot] = tot
    assert totals["greedy"] > totals["random"] + 30


def test_per_player_undo_keeps_the_other_players_actions():
    import random as _random

    from citybuilders.core import load_game
    from citybuilders.core.undo import undo_last, undoable_count

    state = load_game("roll-into-town").new_initial_state(2, 3)
    rng = _random.Random(0)
    while state.is_chance_node():
        state.apply_legal(state.sample_chance(rng))
    assert state.active_players() == [0, 1]
    a0 = state.legal_actions(0)[0]
    state.apply_action(a0, 0)
    a1 = state.legal_actions(1)[0]
    state.apply_action(a1, 1)
    assert undoable_count(state, 0) == 1 and undoable_count(state, 1) == 1
    back = undo_last(state, 0)
    assert back.history()[-1] == (1, a1)
    assert (0, a0) not in back.history()[-2:]
    assert undoable_count(back, 0) == 0 and undoable_count(back, 1) == 1
