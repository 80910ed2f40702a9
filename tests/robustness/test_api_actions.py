"""Bad actions through the Python API and bad records through ``citybuilders replay``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citybuilders.core.errors import IllegalActionError
from citybuilders.core.records import record_of

from .helpers import assert_user_error, midgame, run_cli, write_json

GAMES = [("kingdom-builder", 2, 25, {}), ("kingdom-builder", 3, 25, {"expansions": ["crossroads"]}),
         ("sprawlopolis", 2, 12, {}), ("roll-into-town", 2, 30, {}), ("roll-builder", 2, 30, {})]
IDS = ["kb", "kb-crossroads", "sprawl", "rit", "rb"]


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_every_bad_action_is_an_illegal_action_error(spec) -> None:
    """Out-of-range, negative, non-integer and chance-only ids, for the acting player: always
    IllegalActionError (one line), state unchanged."""
    name, n, steps, opts = spec
    s = midgame(name, n, steps, **opts)
    before = s.to_json()
    size = s.game.num_distinct_actions()
    actions = [-1, 10**30, -10**30, 2**63, size, size - 1, "3", None, 1.5, True, *range(0, 40)]
    players = s.active_players() or [None]
    for p in players:
        legal = set(s.legal_actions(p))
        for a in actions:
            if a in legal and not isinstance(a, bool):
                continue
            with pytest.raises(IllegalActionError) as info:
                s.apply_action(a, p)
            assert "\n" not in str(info.value)
    assert s.to_json() == before


def test_kingdom_builder_card_id_on_a_players_turn() -> None:
    """``apply_action(0)`` (a terrain card, a chance id) on a player's turn: one-line error."""
    s = midgame("kingdom-builder", 2, 25)
    assert s.current_player() >= 0
    with pytest.raises(IllegalActionError, match="card grass.*only drawn as a chance outcome"):
        s.apply_action(0)


def test_kingdom_builder_explain_illegal_of_card_id() -> None:
    s = midgame("kingdom-builder", 2, 25)
    assert "card" in s.explain_illegal(0, s.current_player())


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_tampered_records_replay_with_one_line_errors(capsys, tmp_path: Path, spec) -> None:
    name, n, steps, opts = spec
    rec = record_of(midgame(name, n, steps, **opts)).to_json()
    cases = []
    for i in (0, 3, len(rec["actions"]) - 1):
        for bad in (0, -1, 10**30, "x", None, [0], [99, 1], [True, 1], 1.5):
            r = json.loads(json.dumps(rec))
            r["actions"][i] = bad
            cases.append(r)
    r = json.loads(json.dumps(rec))
    r["actions"].insert(1, r["actions"][1])
    cases.append(r)
    for bad_top in ({"num_players": 0}, {"num_players": 99}, {"seed": "x"}, {"options": []},
                    {"options": {"nope": 1}}, {"rules_version": "0"}, {"game": "chess"},
                    {"actions": {}}):
        cases.append(dict(rec, **bad_top))
    for r in cases:
        code, out, err = run_cli(capsys, "replay", write_json(tmp_path, r))
        if code != 0:
            assert_user_error(code, err, "record")
