"""Fuzz the score calculator (issue 11): random and mutated score files through
``Game.score_file`` either score or raise FormatError whose one-line message starts with a field."""
from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citybuilders.core.errors import FormatError
from citybuilders.core.registry import load_game
from citybuilders.games.roll_builder.scorefile import FIELDS

GAME = load_game("roll-builder")
BASE = {
    "game": "roll-builder", "sheet": "rivermouth",
    "roads": ["4,5,E", "4,5,NW", "4,5,SW", "4,4,NE"],
    "buildings": [["3,5", 5], ["4,4", 1]], "marks": ["4,4", "3,4"],
    "innovations": ["I1", "I3"], "wonder": {"C1": 2, "C2": 3, "C3": 3},
    "favor_crossed": 5, "strength_crossed": 2, "wealth_stored": 5,
}
_FIELD = re.compile(r"^((file|%s)([\[.:]| )|\w+: unknown field; allowed: )"
                    % "|".join(map(re.escape, FIELDS)))

edges = st.builds(lambda r, c, side: f"{r},{c},{side}", st.integers(-1, 12), st.integers(-1, 12),
                  st.sampled_from(["E", "NE", "NW", "W", "SW", "SE", "N", "x"]))
spaces = st.builds(lambda r, c: f"{r},{c}", st.integers(-1, 12), st.integers(-1, 12))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.text(max_size=6),
                    st.sampled_from(["I1", "I3", "I5", "C1", "C7", "C9", "rivermouth",
                                     "highcrag", "goldplain"]))
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=8)
field_values = {
    "sheet": st.one_of(st.sampled_from(["rivermouth", "highcrag", "goldplain", "atlantis"]),
                       json_values),
    "roads": st.one_of(st.lists(edges, max_size=12), json_values),
    "buildings": st.one_of(st.lists(st.tuples(spaces, st.integers(0, 7)).map(list), max_size=6),
                           json_values),
    "marks": st.one_of(st.lists(spaces, max_size=6), json_values),
    "innovations": st.one_of(st.lists(st.sampled_from(["I1", "I2", "I3", "I4", "I5", "I9"]),
                                      max_size=5), json_values),
    "wonder": st.one_of(
        st.lists(st.sampled_from(["C1", "C2", "C3", "C7", "C9", "Z"]), max_size=6),
        st.dictionaries(st.sampled_from(["C1", "C2", "C3", "C7", "P1", "A1"]),
                        st.one_of(st.integers(0, 13), json_values), max_size=4), json_values),
    "favor_crossed": json_values, "strength_crossed": json_values, "wealth_stored": json_values,
    "game": st.sampled_from(["roll-builder", "kingdom-builder", 3]), "colour": json_values,
}


@st.composite
def score_files(draw):  # noqa: ANN001, ANN201
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values)  # not even an object, mostly
    data = dict(BASE)
    for key in draw(st.lists(st.sampled_from(sorted(field_values)), max_size=4, unique=True)):
        data[key] = draw(field_values[key])
    for key in draw(st.lists(st.sampled_from(sorted(BASE)), max_size=2, unique=True)):
        data.pop(key, None)
    return data


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(score_files())
def test_score_files_score_or_fail_naming_a_field(data) -> None:
    try:
        r = GAME.score_file(data)
    except FormatError as exc:
        msg = str(exc)
        assert "\n" not in msg and _FIELD.match(msg), msg
    else:
        assert r.total == sum(r.parts.values()) and r.total >= 0
