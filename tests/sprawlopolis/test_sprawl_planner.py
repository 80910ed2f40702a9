"""The Sprawlopolis planner (strategy.planned_action): two plays ahead over the known cards."""

from __future__ import annotations

import random

from citybuilders.bots import make_bot
from citybuilders.core.registry import load_game
from citybuilders.core.runner import play_out
from citybuilders.games.sprawlopolis.actions import chance_action
from citybuilders.games.sprawlopolis.rules.state import SprawlopolisState
from citybuilders.games.sprawlopolis.strategy import PLAN_RATE, scan_plays


def position(conditions: list[int], hand: list[int], start: int, top: int,
             num_players: int = 1) -> SprawlopolisState:
    """A new game with ``hand`` dealt, ``start`` starting the city and ``top`` face up."""
    state = load_game("sprawlopolis", conditions=conditions).new_initial_state(num_players, 0)
    for card in hand + [start, top]:
        state.apply_action(chance_action(card))
    return state


def second_ply(state: SprawlopolisState, action: int) -> int:
    """The best total of the next play (the two cards left and the top card) after ``action``."""
    nxt = state.clone()
    nxt.apply_action(action)
    return max(v for v, _ in scan_plays(nxt, nxt.hands[0]))


def test_planner_looks_at_the_next_hand() -> None:
    state = position([4, 11, 15], [17, 8, 18], start=9, top=1)
    assert state.target == 30
    strategy = state.game.strategy
    greedy = strategy.greedy_action(state, 0, random.Random(0))
    planned = strategy.planned_action(state, 0, random.Random(0), 1.0)
    assert state.action_to_string(greedy) == "play 18 at 2,0"
    assert state.action_to_string(planned) == "play 8 at 1,-1"
    assert planned in state.legal_actions(0)
    assert (second_ply(state, planned), second_ply(state, greedy)) == (0, -1)


def test_small_budget_or_last_play_is_greedy() -> None:
    state = position([4, 11, 15], [17, 8, 18], start=9, top=1)
    strategy = state.game.strategy
    plays = len(scan_plays(state, state.hands[0]))
    assert plays == 126  # 3 cards x 2 rotations x 21 positions
    # a budget for the first ply only (k < 2): the greedy move, with greedy's tie-break
    small = plays / PLAN_RATE
    assert (strategy.planned_action(state, 0, random.Random(5), small)
            == strategy.greedy_action(state, 0, random.Random(5)))


def test_coop_and_wrong_player_get_none() -> None:
    coop = load_game("sprawlopolis").new_initial_state(2, 3)
    rng = random.Random(3)
    while coop.is_chance_node():
        coop.apply_action(coop.sample_chance(rng))
    assert coop.game.strategy.planned_action(coop, 0, rng, 1.0) is None
    solo = position([4, 11, 15], [17, 8, 18], start=9, top=1)
    assert solo.game.strategy.planned_action(solo, 1, rng, 1.0) is None


def test_planner_games_are_legal_and_deterministic() -> None:
    finals = []
    for _ in range(2):
        state = load_game("sprawlopolis").new_initial_state(1, 11)
        rng, chance = random.Random(7), random.Random(11)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(chance))
                continue
            action = state.game.strategy.planned_action(state, 0, rng, 0.6)
            assert action in state.legal_actions(0)
            state.apply_action(action)
        finals.append((state.history(), state.breakdown().total))
    assert finals[0] == finals[1]
    assert len(finals[0][0]) == 5 + 14 + 10  # deal 3, start, reveal; 14 plays; 10 more reveals


def test_the_levels_play_the_planner() -> None:
    state = position([4, 11, 15], [17, 8, 18], start=9, top=1)
    assert state.action_to_string(make_bot("expert", 0).step(state, 0)) == "play 8 at 1,-1"


def test_planner_never_looks_below_the_top_card() -> None:
    state = position([4, 11, 15], [17, 8, 18], start=9, top=1)
    other = state.resample_from_infostate(0, random.Random(4))
    assert other.deck == state.deck  # the same cards below the top, kept as a sorted set
    other.deck.reverse()  # ... in another order
    state.deck.sort()
    strategy = state.game.strategy
    assert (strategy.planned_action(other, 0, random.Random(0), 1.0)
            == strategy.planned_action(state, 0, random.Random(0), 1.0))
