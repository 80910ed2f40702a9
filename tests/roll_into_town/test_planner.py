"""The Roll into Town planner of the hard and expert levels: known positions with exact choices,
the sampled futures, and legality and determinism over seeded games."""

from __future__ import annotations

import random

from rit_helpers import COLLECT, DISCOVER, state_at

from citybuilders.bots.levels import LevelBot
from citybuilders.core.game import CHANCE, TERMINAL
from citybuilders.games.roll_into_town import strategy as S

RIVER_ROWS = [". . . . .", ". . . . .", ". . TH . .", ". . . . .", "r:EW r:EW r:EW r:EW ."]


def river_state(round_: int, dice: tuple[int, ...]):
    s = state_at(DISCOVER, RIVER_ROWS, dice=dice, round_=round_)
    sh = s.sheets[0]
    sh.river = [20, 21, 22, 23]
    sh.river_src, sh.river_exit = 3, 1  # flows in from the west edge, points east at 4,4
    return s


def test_planner_draws_the_square_that_joins_the_edges():
    # last round, one icon, a river die and two farm dice: the river square at 4,4 doubles
    # the four squares already drawn (5 x 2 = 10 points instead of 4)
    s = river_state(11, (4, 1, 1))
    finish = s.string_to_action("d1 river EW 4,4", 0)
    cands = S.plan_candidates(s, 0, random.Random(0), 3)
    assert cands[0] == finish and len(cands) == 2
    assert S.planned_action(s, 0, random.Random(1), 0.25) == finish
    assert S.rollout_value(s, 0, finish, 7) == 10.0
    assert S.rollout_value(s, 0, cands[1], 7) == 4.0


def test_candidates_are_the_greedy_draw_then_the_best_of_each_other_icon():
    s = river_state(11, (4, 1, 1))
    cands = S.plan_candidates(s, 0, random.Random(0), 3)
    texts = [s.action_to_string(a) for a in cands]
    assert texts[0] == "d1 river EW 4,4"
    assert len(cands) == 2 and texts[1].startswith("d2 farm ")
    # width 1: the greedy draw alone, and then the planner plays it without sampling
    assert S.plan_candidates(s, 0, random.Random(0), 1) == cands[:1]


def test_planner_plays_the_greedy_move_outside_the_discover_phase():
    rows = [". . . . ."] * 2 + [". . TH . ."] + [". . . . ."] * 2
    rows[0] = "tr tr . . ."
    rows[1] = ". tr LJ . ."
    s = state_at(COLLECT, rows, res=(0, 0, 0))
    assert S.plan_candidates(s, 0, random.Random(0), 3) == []
    assert S.planned_action(s, 0, random.Random(0), 1.0) == \
        S.greedy_action(s, 0, random.Random(0))


def test_rollout_leaves_the_state_alone_and_repeats_for_a_seed():
    s = river_state(9, (4, 1, 1))
    before = s.to_json() if hasattr(s, "to_json") else s._position_json()
    a = S.plan_candidates(s, 0, random.Random(0), 2)[0]
    v1 = S.rollout_value(s, 0, a, 123)
    v2 = S.rollout_value(s, 0, a, 123)
    assert v1 == v2
    after = s.to_json() if hasattr(s, "to_json") else s._position_json()
    assert before == after


def test_budget_gives_no_sampling_when_it_cannot_compare_two_futures():
    # 12 rounds left, two candidates, 0.25 s: 0.25 * 50 / (2 * 12) < 2 futures each -> the
    # greedy draw, without sampling
    s = state_at(DISCOVER, dice=(1, 2, 3, 4, 5))
    cands = S.plan_candidates(s, 0, random.Random(0), 2)
    assert len(cands) == 2
    assert S.planned_action(s, 0, random.Random(0), 0.25) == cands[0]


def test_rollout_gives_up_at_the_next_round_after_its_deadline():
    s = river_state(9, (4, 1, 1))
    a = S.plan_candidates(s, 0, random.Random(0), 2)[0]
    assert S.rollout_value(s, 0, a, 5, deadline=0.0) is None
    assert S.rollout_value(s, 0, a, 5, deadline=None) == S.rollout_value(s, 0, a, 5)


def _play(level: str, seed: int) -> list[tuple[int, int]]:
    from citybuilders.core.registry import load_game
    s = load_game("roll-into-town").new_initial_state(1, seed)
    bot = LevelBot(level, seed)
    rng = random.Random(seed)
    while True:
        cp = s.current_player()
        if cp == TERMINAL:
            return s.history()
        if cp == CHANCE:
            s.apply_action(s.sample_chance(rng))
            continue
        a = bot.step(s, cp)
        assert a in s.legal_actions(cp)
        s.apply_action(a, cp)


def test_hard_level_is_legal_and_deterministic_for_a_seed():
    assert _play("hard", 5) == _play("hard", 5)


def test_needed_icons_follow_the_dice_and_the_town_hall():
    s = state_at(DISCOVER, dice=(1, 1, 3, 3, 3))
    assert S._needed_icons(s, 0) == frozenset({1, 2, 3, 4})  # 1 and 3, each one up or down
    s.sheets[0].hall_uses = 0
    assert S._needed_icons(s, 0) == frozenset({1, 3})
    s = state_at(DISCOVER, dice=(1, 6, 3, 3, 3))
    s.sheets[0].hall_uses = 0
    assert S._needed_icons(s, 0) == frozenset({1, 2, 3, 4, 5})  # a die shows "any"
