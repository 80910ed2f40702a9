"""Roll Builder's fitted value (strategy.fitted_value) and the hard/expert move that uses it
(strategy.valued_action)."""

from __future__ import annotations

import random

import pytest

from citybuilders.bots import make_bot
from citybuilders.core.registry import load_game
from citybuilders.games.roll_builder import strategy
from citybuilders.games.roll_builder import strategy as value
from citybuilders.games.roll_builder.loader import load_shipped_sheet

from .rb_helpers import do, new, roll
from .test_planner import opening


def features(state) -> dict[str, float]:
    return dict(zip(value.feature_names(state.game), value.value_features(state, 0)))


def test_features_of_a_new_rivermouth_sheet() -> None:
    f = features(new("rivermouth"))
    # the start roads around the town centre (4,5) connect 7 spaces: 3,4 We, 3,5, 4,4 Fo, 4,5
    # (the centre), 4,6, 5,4, 5,5 We; none of the sheet's 20 printed points is among them
    assert (f["connected"], f["free_land"], f["vp_unconnected"], f["vp_next"]) == (7, 6, 20, 0)
    assert (f["res_connected"], f["res_connected_food"], f["res_connected_wealth"]) == (3, 1, 2)
    assert (f["bonus_next"], f["bonus_connected"]) == (1, 0)  # 2,4's bonus Build
    # cost circles of the five innovations by kind: food 8, supplies 7, wealth 6, favor 3,
    # strength 2, innovation bonus 2 (28 in all)
    assert [f[f"circles_left_{k}"] for k in ("food", "supplies", "wealth", "favor", "strength",
                                               "bonus")] == [8, 7, 6, 3, 2, 2]
    assert (f["favor_room"], f["strength_room"], f["storage_room"], f["boxes_ready"]) == (6, 5, 8, 1)
    assert f["unlocked_C7"] == f["unlocked_C9"] == f["filled_C1"] == f["progress_I1"] == 0
    assert len(f) == len(value.value_features(new("rivermouth"), 0))


def test_features_follow_marks_crosses_and_boxes() -> None:
    s = new("rivermouth")
    roll(s, 1, 4)
    do(s, "mark 3,4", "cross I4.2")  # the wealth of 3,4 pays Guild Law's first wealth circle
    f = features(s)
    assert (f["res_connected"], f["res_connected_wealth"]) == (2, 1)
    assert f["progress_I4"] == pytest.approx(1 / 6)
    assert f["circles_left_wealth"] == 5
    do(s, "wonder d1", "wonder C1")
    f = features(s)
    assert (f["filled_C1"], f["boxes_ready"]) == (1, 1)  # C2 is ready now


def test_fitted_value_is_the_score_at_the_end_and_none_without_weights() -> None:
    s = load_game("roll-builder", sheet="goldplain").new_initial_state(1, 4)
    bot, dice = make_bot("normal", 4), random.Random(4)
    while not s.is_terminal():
        s.apply_action(s.sample_chance(dice) if s.is_chance_node() else bot.step(s, 0))
    assert value.turns_left(s) == 0
    assert value.fitted_value(s, 0) == s.scores()[0].total
    # a sheet document with another id has no fitted weights: the bots fall back
    doc = dict(load_shipped_sheet("goldplain").data, id="myplain")
    other = load_game("roll-builder", sheet_doc=doc).new_initial_state(1, 0)
    assert value.fitted_value(other, 0) is None
    roll(other, 2, 5)
    assert (strategy.valued_action(other, 0, random.Random(0), 1.0)
            == strategy.planned_action(other, 0, random.Random(0), 1.0))


def test_fitted_value_adds_the_weighted_features() -> None:
    s = new("highcrag")
    w = value.value_weights()["highcrag"]
    f = value.value_features(s, 0)
    r = value.turns_left(s)
    assert r == 15
    expect = sum(x * (w[0][k] + w[1][k] * r + w[2][k] * r * r) for k, x in enumerate(f))
    assert value.fitted_value(s, 0) == pytest.approx(s.scores()[0].total + expect)


@pytest.mark.parametrize("points_first,want", [
    (False, {"hard": "road d2", "expert": "road d2", "small": "wonder d1"}),
    # the points-first roads (issue 16's sixth session) change what each die's road is worth
    (True, {"hard": "road d1", "expert": "wonder d1", "small": "build d2"}),
])
def test_hard_and_expert_choose_by_the_fitted_value(points_first: bool, want: dict[str, str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strategy, "ROAD_TO_POINTS", points_first)
    state = opening()  # rivermouth, turn 1, dice 2 and 4: greedy puts the 2 on the wonder
    assert state.action_to_string(strategy.greedy_action(state, 0, random.Random(0)), 0) == \
        "wonder d1"
    for level, seconds in (("hard", 0.25), ("expert", 1.0)):
        chosen = strategy.valued_action(state, 0, random.Random(0), seconds)
        assert state.action_to_string(chosen, 0) == want[level]
        assert make_bot(level, 0).step(state, 0) == chosen
    # a budget too small for both dice values the die actions one by one
    assert state.action_to_string(strategy.valued_action(state, 0, random.Random(0), 0.05), 0) \
        == want["small"]
    chance = new("rivermouth")
    assert strategy.valued_action(chance, 0, random.Random(0), 1.0) is None


def greedy_until(sheet: str, seed: int, stop) -> object:  # noqa: ANN001
    """A solo game of ``sheet`` (seed ``seed``; dice and greedy from one ``random.Random(seed)``)
    played until ``stop(state)`` or its end."""
    rng = random.Random(seed)
    state = load_game("roll-builder", sheet=sheet).new_initial_state(1, seed)
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(strategy.greedy_action(state, 0, rng))
    return state


def test_building_weight_adds_per_building_mark(monkeypatch: pytest.MonkeyPatch) -> None:
    # a highcrag sheet after some seeded greedy turns, with buildings written
    state = greedy_until("highcrag", 4, lambda s: sum(s.players[0].building_marks) >= 3)
    marks = sum(state.players[0].building_marks)
    assert marks >= 3
    assert strategy.BUILDING_WEIGHT == {"highcrag": 0.15}
    weighted = strategy._valued(state, 0)
    monkeypatch.setattr(strategy, "BUILDING_WEIGHT", {"rivermouth": 0.5})  # another sheet's
    plain = strategy._valued(state, 0)
    assert weighted == pytest.approx(plain + 0.15 * marks)
    monkeypatch.setattr(strategy, "BUILDING_WEIGHT", {"highcrag": 1.0})
    assert strategy._valued(state, 0) == pytest.approx(plain + marks)


def test_value_mix_is_per_sheet(monkeypatch: pytest.MonkeyPatch) -> None:
    # highcrag mixes 15 % of the hand-made evaluate into the fitted value, other sheets 30 %
    assert strategy.SHEET_VALUE_MIX == {"highcrag": 0.15}
    assert strategy.VALUE_MIX == 0.3
    monkeypatch.setattr(strategy, "BUILDING_WEIGHT", {})
    for sheet, mix in (("highcrag", 0.15), ("rivermouth", 0.3)):
        state = greedy_until(sheet, 7, lambda s: s.turn >= 4)
        assert state.turn == 4
        v = strategy.fitted_value(state, 0)
        e = strategy.evaluate(state, 0)
        assert v != pytest.approx(e)  # the mix shows
        assert strategy._valued(state, 0) == pytest.approx((1 - mix) * v + mix * e)
    monkeypatch.setattr(strategy, "SHEET_VALUE_MIX", {})
    assert strategy._valued(state, 0) == pytest.approx(0.7 * v + 0.3 * e)
