"""The marks drawn on the SVG boards, and the rule texts beside them, in the reader's words
(new-user trial, items 7 and 11): the word tests read words of three letters or more, so the
one- and two-letter board marks (Roll into Town's QU, LT, LB; Roll Builder's Fo, Su, BB, U!;
Sprawlopolis' C I R P; Kingdom Builder's K) and the sides of a square ("邊 NW") are read here:
in 繁體中文 none of them is left in Latin letters."""

from __future__ import annotations

import re

import pytest

from citybuilders.core.registry import load_game
from citybuilders.server.display import notation_text

ENGLISH_MARKS = {
    "roll-into-town": {"HO", "QU", "LJ", "HA", "WM", "TA", "FO", "MA", "LT", "LB", "CA"},
    "roll-builder": {"Fo", "Su", "We", "Fa", "St", "BB", "BW", "IB", "U!"},
    "sprawlopolis": {"C", "I", "R", "P"},
    "kingdom-builder": {"K", "W", "S", "X", "H"},
}


def _texts_of(svg: str) -> set[str]:
    return {t.strip() for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)}


def _a_played_state(game: str, moves: int = 40):
    """A position after some random moves (buildings built, blocks laid, icons collected)."""
    import random

    g = load_game(game)
    st = g.new_initial_state(1 if game != "kingdom-builder" else 2, 3)
    rng = random.Random(3)
    for _ in range(moves):
        if st.is_terminal():
            break
        if st.is_chance_node():
            st.apply_action(rng.choice([a for a, _ in st.chance_outcomes()]))
            continue
        p = st.active_players()[0]
        st.apply_action(rng.choice(st.legal_actions(p)))
    return g, st


@pytest.mark.parametrize("game", sorted(ENGLISH_MARKS))
def test_board_marks_and_legend_in_chinese(game):
    g, st = _a_played_state(game, 60)
    en = _texts_of(g.view.render_svg(st, 0, "en"))
    zh = _texts_of(g.view.render_svg(st, 0, "zh_Hant"))
    marks = ENGLISH_MARKS[game]
    assert en & marks, (game, en)  # the English board draws them (the test can fail)
    assert not (zh & marks), (game, zh & marks)
    legend = [sym for sym, _ in g.view.legend("zh_Hant")]
    assert not (set(legend) & marks), legend
    # every legend entry's symbol and meaning: no English word of 3+ letters
    for sym, meaning in g.view.legend("zh_Hant"):
        assert not re.findall(r"[A-Za-z]{3,}", f"{sym} {meaning}".replace("Crossroads", "")), \
            (sym, meaning)


def test_sides_of_a_square_in_words():
    g = load_game("roll-into-town")
    assert notation_text(g, "d1 coast 0,0 sides NW", "zh_Hant") == "d1 海岸 0,0 邊 北、西"
    assert notation_text(g, "sides NES", "pt_BR") == "lados NLS"
    assert notation_text(g, "sides NW", "en") == "sides NW"


@pytest.mark.parametrize("lang", ["en", "pt_BR", "zh_Hant"])
def test_rule_tips_name_no_option_identifier(lang):
    """A rule tip says "a rule variant ...", not "(option outskirts_loop)" (item 11)."""
    from citybuilders.games.sprawlopolis import texts as T

    for n, rule in T.for_language(lang).CONDITION_RULES.items():
        assert "_" not in rule and "option " not in rule and "opção " not in rule \
            and "選項" not in rule, (n, rule)
