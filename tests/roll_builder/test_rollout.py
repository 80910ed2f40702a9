"""Roll Builder ``expert``'s rollouts (strategy._rollout_best): the best first die choices
compared over the next turns played on common dice sequences."""

from __future__ import annotations

import random

import pytest

from citybuilders.core.registry import load_game
from citybuilders.games.roll_builder import strategy

from .test_planner import opening


def highcrag_decision(seed: int = 7) -> object:
    """A highcrag game played by ``normal`` to turn 4's first die decision."""
    from citybuilders.bots import make_bot
    state = load_game("roll-builder", sheet="highcrag").new_initial_state(1, seed)
    bot, dice = make_bot("normal", seed), random.Random(seed)
    while True:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(dice))
            continue
        legal = state.legal_actions(0)
        if state.turn == 4 and strategy._die_actions(legal) and state.players[0].dice_used == 0:
            return state
        state.apply_action(bot.step(state, 0))


def spy_rollouts(monkeypatch: pytest.MonkeyPatch) -> tuple[list[int | None], list[int]]:
    """Record what ``_rollout_best`` returns and count the turn endings (``_end_turn``)."""
    returned: list[int | None] = []
    endings = [0]
    best, end_turn = strategy._rollout_best, strategy._end_turn

    def spy_best(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        returned.append(best(*args, **kwargs))
        return returned[-1]

    def count_end(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        endings[0] += 1
        return end_turn(*args, **kwargs)

    monkeypatch.setattr(strategy, "_rollout_best", spy_best)
    monkeypatch.setattr(strategy, "_end_turn", count_end)
    return returned, endings


@pytest.mark.parametrize("make", [opening, highcrag_decision])
def test_rollouts_choose_a_legal_die_action_deterministically(
        make, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    returned, endings = spy_rollouts(monkeypatch)
    state = make()
    legal = state.legal_actions(0)
    moves, counts = [], []
    for _ in range(2):
        endings[0] = 0
        moves.append(strategy.valued_action(state, 0, random.Random(3), 1.0))
        counts.append(endings[0])
    assert moves[0] == moves[1] and moves[0] in strategy._die_actions(legal)
    # the rollouts decided (a die action, not None) and kept to expert's count budget
    assert returned[0] == returned[1] == moves[0]
    assert counts[0] == counts[1] and 0 < counts[0] <= 1.0 * strategy.ROLLOUT_RATE
    assert state.legal_actions(0) == legal  # the position itself is not played on


def test_rollout_dice_are_the_21_rolls_then_the_bots_own_draws() -> None:
    seqs = strategy._rollout_dice(random.Random(5), 3)
    assert len(seqs) == len(strategy._ROLLS) * strategy.ROLLOUT_SAMPLES
    assert sum(w for w, _ in seqs) == pytest.approx(1.0)
    assert [r[0] for _, r in seqs][::strategy.ROLLOUT_SAMPLES] == \
        [(x, y) for x, y, _ in strategy._ROLLS]
    assert all(len(r) == 3 and all(1 <= d <= 6 for roll in r for d in roll) for _, r in seqs)
    assert seqs == strategy._rollout_dice(random.Random(5), 3)


def test_hard_and_small_budgets_do_not_roll_out(monkeypatch: pytest.MonkeyPatch) -> None:
    returned, _ = spy_rollouts(monkeypatch)
    state = highcrag_decision()
    strategy.valued_action(state, 0, random.Random(3), 0.25)  # hard's budget
    assert returned == [None]
    # off: the next turn's 21 rolls, as before
    monkeypatch.setattr(strategy, "ROLLOUT_SAMPLES", 0)
    strategy.valued_action(state, 0, random.Random(3), 1.0)
    assert returned == [None]


def test_valued_policy_keeps_stored_wealth_on_highcrag(monkeypatch: pytest.MonkeyPatch) -> None:
    # the policy pays a circle two from an innovation's discovery with stored wealth (expert,
    # seed 1000, turn 3, when it still did); on highcrag (strategy.STORED_SPEND_LEFT 0) the
    # valued levels' policy keeps it until the last turn, greedy's does not
    from citybuilders.bots import make_bot
    keep = dict(strategy.STORED_SPEND_LEFT)
    assert keep == {"highcrag": 0}
    monkeypatch.setattr(strategy, "STORED_SPEND_LEFT", {})
    monkeypatch.setattr(strategy, "SHEET_VALUE_MIX", {})  # the value mix of that game (0.3)
    state = load_game("roll-builder", sheet="highcrag").new_initial_state(1, 1000)
    bot, dice = make_bot("expert", 1000), random.Random(1000)
    found = None
    while found is None and state.turn <= 3:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(dice))
            continue
        a = bot.step(state, 0)
        if a >= state.game.A_CROSS and (a - state.game.A_CROSS) % 3 == 2:
            found = a
        else:
            state.apply_action(a)
    assert found is not None and state.turn == 3
    legal = state.legal_actions(0)
    monkeypatch.setattr(strategy._MODE, "points_first", True, raising=False)
    assert strategy.policy_action(state, 0, legal, allow_die=False) == found
    monkeypatch.setattr(strategy, "STORED_SPEND_LEFT", keep)
    assert strategy.policy_action(state, 0, legal, allow_die=False) != found
    monkeypatch.setattr(strategy._MODE, "points_first", False)
    assert strategy.policy_action(state, 0, legal, allow_die=False) == found
