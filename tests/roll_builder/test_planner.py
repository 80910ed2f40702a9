"""The Roll Builder planner (strategy.planned_action): a look-ahead over the turn's two dice."""

from __future__ import annotations

import random

from citybuilders.bots import make_bot
from citybuilders.core.registry import load_game
from citybuilders.games.roll_builder import strategy
from citybuilders.games.roll_builder.rules.state import RollBuilderState

# turn 1 of a rivermouth game: dice 2 and 4, the start marks and crosses made
_OPENING = [1, 3, "mark 3,4", "cross I4.2", "mark 4,4", "cross I4.5", "mark 5,5", "cross I4.3"]


def opening() -> RollBuilderState:
    state = load_game("roll-builder", sheet="rivermouth").new_initial_state(1, 3)
    for step in _OPENING:
        state.apply_action(step if isinstance(step, int) else state.string_to_action(step, 0))
    return state


def test_planner_weighs_the_second_die() -> None:
    state = opening()
    assert state.dice == [2, 4]
    greedy = strategy.greedy_action(state, 0, random.Random(0))
    planned = strategy.planned_action(state, 0, random.Random(0), 1.0)
    assert state.action_to_string(greedy, 0) == "wonder d1"
    assert state.action_to_string(planned, 0) == "road d2"
    # expert plays valued_action: the fitted value, and its roads walk towards the printed
    # points (strategy.ROAD_TO_POINTS), which values this opening otherwise (tests/roll_builder/
    # test_value.py has both road rules)
    assert state.action_to_string(make_bot("expert", 0).step(state, 0), 0) == "wonder d1"


def test_small_budget_is_greedy_and_other_player_none() -> None:
    state = opening()
    # 8 die actions: 64 turn endings are more than 0.05 s x PLAN_RATE allows
    assert 0.05 * strategy.PLAN_RATE < 64
    assert (strategy.planned_action(state, 0, random.Random(2), 0.05)
            == strategy.greedy_action(state, 0, random.Random(2)))
    chance = load_game("roll-builder", sheet="rivermouth").new_initial_state(1, 3)
    assert strategy.planned_action(chance, 0, random.Random(0), 1.0) is None


def test_planner_games_are_legal_and_deterministic() -> None:
    finals = []
    for _ in range(2):
        state = load_game("roll-builder", sheet="highcrag").new_initial_state(1, 5)
        rng, dice = random.Random(1), random.Random(5)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(dice))
                continue
            action = state.game.strategy.planned_action(state, 0, rng, 0.25)
            assert action in state.legal_actions(0)
            state.apply_action(action)
        finals.append((state.history(), state.scores()[0].total))
    assert finals[0] == finals[1]
    assert state.turn == 15


def test_next_turn_rolls_cover_two_dice_by_chance() -> None:
    # the 21 distinct rolls, weighted as the 36 ordered ones; expert's next-turn stage fits its
    # budget, hard's does not
    rolls = strategy._ROLLS
    ordered = sorted((x, y) for x in range(1, 7) for y in range(1, 7))
    assert len(rolls) == 21 and abs(sum(w for _, _, w in rolls) - 1.0) < 1e-12
    assert sorted({(x, y) for x, y, _ in rolls} | {(y, x) for x, y, _ in rolls}) == ordered
    assert all(w * 36 == (1 if x == y else 2) for x, y, w in rolls)
    stage = 8 * 8 + strategy.FUTURE_CHOICES * len(rolls) * 8
    assert stage <= 1.0 * strategy.PLAN_RATE
    assert stage > 0.25 * strategy.PLAN_RATE
