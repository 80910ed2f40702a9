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
    assert state.action_to_string(make_bot("expert", 0).step(state, 0), 0) == "road d2"


def test_small_budget_is_greedy_and_other_player_none() -> None:
    state = opening()
    # 8 die actions: 64 turn endings are more than 0.1 s x PLAN_RATE allows
    assert 0.1 * strategy.PLAN_RATE < 64
    assert (strategy.planned_action(state, 0, random.Random(2), 0.1)
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
