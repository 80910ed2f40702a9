"""Sprawlopolis: far-away coordinates, huge numbers in typed moves, the empty city."""

from __future__ import annotations

from pathlib import Path

import pytest

from citybuilders import load_game
from citybuilders.core.errors import IllegalActionError

from .helpers import assert_user_error, midgame, run_cli, write_json


@pytest.mark.parametrize("far", [10**30, -10**18, 40, -40, 100])
def test_score_file_card_far_away_is_a_placement_error(capsys, tmp_path: Path, far: int) -> None:
    data = {"conditions": [1, 7, 12],
            "cards": [{"card": 4, "row": 0, "col": 0}, {"card": 9, "row": far, "col": 0}]}
    code, out, err = run_cli(capsys, "score", "sprawlopolis", write_json(tmp_path, data))
    assert_user_error(code, err, "cards[1] (card 9)", "does not touch the city")


def test_score_file_first_card_far_away_blames_the_second(capsys, tmp_path: Path) -> None:
    data = {"conditions": [1, 7, 12],
            "cards": [{"card": 4, "row": 1000, "col": 0}, {"card": 9, "row": 0, "col": 0}]}
    code, out, err = run_cli(capsys, "score", "sprawlopolis", write_json(tmp_path, data))
    assert_user_error(code, err, "cards[1] (card 9) at 0,0", "does not touch the city")


def test_score_file_wide_legal_city_still_scores(capsys, tmp_path: Path) -> None:
    """14 cards in a row to the left of the first one: 28 blocks wide, legal."""
    cards = [c for c in range(1, 19) if c not in (1, 7, 12)][:15]
    entries = [{"card": c, "row": 0, "col": -2 * k} for k, c in enumerate(cards)]
    data = {"conditions": [1, 7, 12], "cards": entries}
    code, out, err = run_cli(capsys, "score", "sprawlopolis", write_json(tmp_path, data), "--json")
    assert code == 0, err


@pytest.mark.parametrize("text", ["play 3 at " + "9" * 5000 + ",0", "1" * 5000, "card " + "7" * 900])
def test_string_to_action_with_huge_numbers(text: str) -> None:
    s = midgame("sprawlopolis", 2, 6)
    with pytest.raises(IllegalActionError, match="number too large"):
        s.string_to_action(text)


def test_apply_action_off_the_board_explains() -> None:
    s = midgame("sprawlopolis", 2, 6)
    p = s.current_player()
    card = sorted(s.hands[p])[0]
    action = (card - 1) * 8192 + 2 * 4067  # top-left cell 4067: row 32, col 4 (off the board)
    with pytest.raises(IllegalActionError, match="too far from the city"):
        s.apply_action(action, p)
    assert "too far from the city" in s.explain_illegal(action, p)


@pytest.mark.parametrize("seed", range(12))
def test_scores_and_observation_before_the_first_card(seed: int) -> None:
    """Conditions 10 (The Strip) and 18 (Sprawlopolis) failed on the empty city."""
    for conditions in ("10,12,18", "3,10,18"):
        g = load_game("sprawlopolis", conditions=[int(x) for x in conditions.split(",")])
        s = g.new_initial_state(2, seed)
        assert s.scores()[0].total == 0
        assert s.observation(0)["score"]["total"] == 0
