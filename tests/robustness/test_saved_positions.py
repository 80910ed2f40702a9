"""Tampered saved positions (``State.to_json()``) through the API and ``citybuilders moves``."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from citybuilders import load_game
from citybuilders.core.errors import OptionError, RecordError
from citybuilders.core.records import record_of, replay

from .helpers import assert_user_error, midgame, run_cli, write_json

POSITIONS = [
    ("kingdom-builder", 2, 25, {}),
    ("kingdom-builder", 3, 25, {"expansions": ["crossroads"]}),
    ("sprawlopolis", 2, 12, {}),
    ("roll-into-town", 2, 30, {}),
    ("roll-builder", 2, 30, {}),
]
IDS = ["kb", "kb-crossroads", "sprawl", "rit", "rb"]


@pytest.fixture(scope="module", params=range(len(POSITIONS)), ids=IDS)
def saved(request) -> dict:
    name, n, steps, opts = POSITIONS[request.param]
    return json.loads(json.dumps(midgame(name, n, steps, **opts).to_json()))


def _moves(capsys, tmp_path: Path, data: dict) -> tuple[int, str, str]:
    return run_cli(capsys, "moves", write_json(tmp_path, data))


def test_untouched_position_lists_moves(capsys, tmp_path: Path, saved: dict) -> None:
    code, out, err = _moves(capsys, tmp_path, saved)
    assert code == 0 and out.strip(), err


@pytest.mark.parametrize("edit, fragment", [
    (lambda d: d.update(num_players=None), "num_players: expected an integer"),
    (lambda d: d.update(num_players="2"), "num_players: expected an integer"),
    (lambda d: d.update(seed=1.5), "seed: expected an integer"),
    (lambda d: d.update(seed=True), "seed: expected an integer"),
    (lambda d: d.update(rules_version="0"), "rules version"),
    (lambda d: d.update(history="nope"), "history: expected a list"),
    (lambda d: d["history"].append([0]), "expected [actor, action] integers"),
    (lambda d: d["history"].append(["0", 1]), "expected [actor, action] integers"),
    (lambda d: d["history"].__setitem__(0, [d["history"][0][0], 10**30]), "history[0]:"),
    (lambda d: d["history"].pop(), "does not match the game's history"),
    (lambda d: d["history"].insert(0, d["history"][0]), "history["),
])
def test_tampered_envelope_and_history(capsys, tmp_path: Path, saved: dict, edit, fragment) -> None:
    data = copy.deepcopy(saved)
    edit(data)
    code, out, err = _moves(capsys, tmp_path, data)
    assert_user_error(code, err, fragment)


def _leaf_paths(obj, prefix=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaf_paths(v, prefix + (k,))
    elif isinstance(obj, list) and obj:
        for i, v in enumerate(obj):
            yield from _leaf_paths(v, prefix + (i,))
    else:
        yield prefix


def _set(obj, path, value):
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value


@pytest.mark.parametrize("bad", [None, -1, 10**19, "3", [], {}, 999])
def test_tampered_position_fields(capsys, tmp_path: Path, saved: dict, bad) -> None:
    """Every leaf of the position (at most 60 a game) set to a bad value: the CLI names the field
    (``position.<key>...: does not match``); the plain API load never escapes as a traceback."""
    paths = list(_leaf_paths(saved["position"]))
    step = max(1, len(paths) // 60)
    game = load_game(saved["game"], **saved["options"])
    for path in paths[::step]:
        data = copy.deepcopy(saved)
        orig = data["position"]
        for k in path:
            orig = orig[k]
        if json.dumps(orig) == json.dumps(bad):
            continue
        if path:
            _set(data["position"], path, bad)
        else:
            data["position"] = bad
        code, out, err = _moves(capsys, tmp_path, data)
        assert_user_error(code, err, "position")
        try:  # the unverified API path: either a RecordError or a state that answers queries
            s = game.state_from_json(data)
        except RecordError as exc:
            assert "\n" not in str(exc)
        else:
            s.legal_actions()


def test_edited_hand_is_refused_by_moves(capsys, tmp_path: Path) -> None:
    s = midgame("sprawlopolis", 2, 12)
    data = json.loads(json.dumps(s.to_json()))
    data["position"]["hands"][0] = [h for h in range(1, 19)][:len(data["position"]["hands"][0])]
    code, out, err = _moves(capsys, tmp_path, data)
    assert_user_error(code, err, "position.hands[0]", "does not match the game's history")


def test_state_from_json_rejects_wrong_game_and_version() -> None:
    s = midgame("kingdom-builder", 2, 10)
    data = s.to_json()
    with pytest.raises(RecordError, match="game: the position is of 'sprawlopolis'"):
        s.game.state_from_json(dict(data, game="sprawlopolis"))
    with pytest.raises(RecordError, match="rules_version"):
        s.game.state_from_json(dict(data, rules_version="99"))
    assert s.game.state_from_json(data) == s
    assert s.game.state_from_json(data, verify=True) == s


@pytest.mark.parametrize("name", ["kingdom-builder", "sprawlopolis", "roll-into-town",
                                  "roll-builder"])
@pytest.mark.parametrize("seed", [None, "7", 1.5, True])
def test_non_integer_seed_is_refused(name: str, seed) -> None:
    """A game made with seed None/"7"/1.5 saved a record that could not be replayed."""
    with pytest.raises(OptionError, match="seed: expected an integer"):
        load_game(name).new_initial_state(seed=seed)


@pytest.mark.parametrize("name", ["kingdom-builder", "sprawlopolis", "roll-into-town",
                                  "roll-builder"])
def test_big_and_negative_seeds_replay(name: str) -> None:
    for seed in (-1, 10**40):
        s = load_game(name).new_initial_state(seed=seed)
        assert replay(record_of(s).to_json()) == s
