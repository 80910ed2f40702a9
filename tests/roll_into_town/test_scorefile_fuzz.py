"""Fuzz the score calculator (``Game.score_file``) with random and mutated sheet files: it
either scores the file or raises one FormatError line that starts with the field it names."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citybuilders.core.errors import FormatError
from citybuilders.core.registry import load_game

GAME = load_game("roll-into-town")
VALID = [
    "oc oc oc oc c:NW . . . .",
    "oc oc oc c:NW HO HO HO . .",
    "oc oc c:NW LT HO TA HO . .",
    "oc c:NW . LB HO HO HO . .",
    "c:NW fa fa mo TH QU mo . .",
    ". . CA . . . . . .",
    ". . CA CA . . . . .",
    ". . CA CA . WM . . .",
    "r:EW r:EW r:EW r:EW r:EW r:EW r:EW r:EW r:EW",
]
TOKENS = [".", "TH", "fa", "mo", "tr", "oc", "r:NS", "r:EW", "r:NE", "r:SW", "c:N", "c:NES",
          "c:NESW", "c:", "r:N", "HO", "QU", "LJ", "HA", "WM", "TA", "FO", "MA", "LT", "LB", "CA",
          "c:N+HA", "oc+LT", "c:S+LB", "fa+HO", "TH+CA", "r:EW+WM", "zz", "+", "c:NN", "x+HO",
          "c:W+ZZ", "", "é"]
KEY = st.sampled_from(["game", "map", "name", "options", "players", "colour", "score", "a_b"])
OPTION_NAMES = [o.name for o in GAME.option_specs] + ["speed"]
JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=8)
FIELD = re.compile(r"^(file|game|name|map|options|players|colour|score|a_b)"
                   r"((\[\d+\])|(\.(map|name|colour|score|a_b)))*: \S")
# an unknown key is itself the field: a plain word, or quoted when it is anything else
UNKNOWN_KEY = re.compile(r"""^(players\[\d+\]\.)?([A-Za-z0-9_-]{1,40}|'.*'|".*"): unknown key; """
                         r"allowed: ")


@st.composite
def mutated_map(draw):
    grid = [r.split() for r in VALID]
    for _ in range(draw(st.integers(0, 4))):
        r, c = draw(st.integers(0, 8)), draw(st.integers(0, 8))
        grid[r][c] = draw(st.sampled_from(TOKENS))
    rows = [" ".join(t for t in row) for row in grid]
    cut = draw(st.sampled_from([None] * 8 + [0, 1, 8, 10]))
    if cut is not None:
        rows = rows[:cut] if cut <= 9 else rows + rows[:1]
    if draw(st.integers(0, 7)) == 0 and rows:
        k = draw(st.integers(0, len(rows) - 1))
        rows[k] = rows[k] + " ."
    return draw(st.sampled_from([rows] * 9 + [draw(JSON)]))


@st.composite
def sheet_file(draw):
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(JSON)
    data: dict = {}
    if kind <= 6:
        data["map"] = draw(mutated_map())
    else:
        entry = st.fixed_dictionaries({"map": mutated_map()}, optional={"name": st.text(
            max_size=5) | JSON})
        players = draw(st.lists(entry, min_size=1, max_size=3) | st.lists(st.fixed_dictionaries(
            {"map": mutated_map()}, optional={"score": JSON}), max_size=7))
        data["players"] = draw(st.sampled_from([players] * 5 + [draw(JSON)]))
    if draw(st.integers(0, 5)) == 0:
        data[draw(KEY)] = draw(JSON)
    if draw(st.integers(0, 3)) == 0:
        data["options"] = draw(st.dictionaries(
            st.sampled_from(OPTION_NAMES),
            st.sampled_from([5, 7, 9, 8, 0, "x", True, None, "corner_only", "non_flow_side",
                             "touches_opposite_edges", "not_in_front"]), max_size=3))
    return data


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheet_file())
def test_score_file_raises_only_format_errors_naming_the_field(data):
    try:
        result = GAME.score_file(data)
    except FormatError as exc:
        msg = str(exc)
        assert "\n" not in msg, msg
        assert FIELD.match(msg) or UNKNOWN_KEY.match(msg), msg
    else:
        out = result.to_json()
        assert out["game"] == "roll-into-town" and out["players"]
        assert isinstance(result.to_text(), str)


def test_the_valid_fuzz_seed_scores():
    out = GAME.score_file({"map": VALID}).to_json()
    assert out["players"][0]["total"] == 72
