"""Sprawlopolis texts: every condition, zone and term has a name and a rule, in three languages."""

from __future__ import annotations

import pytest

from citybuilders.core import textcat
from citybuilders.games.sprawlopolis import texts as T
from citybuilders.games.sprawlopolis.loader import CARD_NUMBERS, ZONES


def test_tables_cover_their_ids() -> None:
    assert sorted(T.CONDITION_NAMES) == sorted(T.CONDITION_RULES) == list(CARD_NUMBERS)
    assert len(CARD_NUMBERS) == 18
    assert list(T.ZONE_NAMES) == list(T.ZONE_RULES) == list(ZONES)
    assert list(T.TERM_NAMES) == list(T.TERM_RULES) == [
        "block", "group", "road", "condition", "target", "card"]
    assert T.TERM_RULES["road"].endswith("every road in the city costs 1 point.")


@pytest.mark.parametrize("lang", textcat.TRANSLATED)
def test_catalog_translates_every_string(lang: str) -> None:
    assert textcat.problems("sprawlopolis", lang) == []


def test_names_in_each_language() -> None:
    pt, zh = T.for_language("pt_BR"), T.for_language("zh_Hant")
    # seed 002 names the zones comercial, parque, industrial, residencial and the blocks quadras
    assert pt.ZONE_NAMES == {"commercial": "comercial", "industrial": "industrial",
                             "residential": "residencial", "park": "parque"}
    assert pt.TERM_NAMES["block"] == "quadra" and pt.TERM_NAMES["target"] == "meta de pontuação"
    assert pt.CONDITION_NAMES[9] == "Selva de Pedra" and zh.CONDITION_NAMES[9] == "水泥叢林"
    assert zh.CONDITION_RULES[3] == "城市中每個公園街區 +1，每個工業街區 -3。"
    assert pt.SCORE_LABELS["largest_group"].format(zone=pt.ZONE_NAMES["park"]) == "maior grupo parque"
    assert zh.SCORE_LABELS["roads"].format(roads=7) == "道路（7）"
    assert sorted(zh.CONDITION_RULES) == list(CARD_NUMBERS)


def test_text_key_explains_the_city_glyphs() -> None:
    import random

    from citybuilders.core.registry import load_game
    from citybuilders.games.sprawlopolis.loader import ZONE_LETTERS
    from citybuilders.games.sprawlopolis.render import ROAD_GLYPHS

    words = T.TEXT_KEY.split()
    assert [words[words.index(z) + 1] for z in ZONE_LETTERS] == list(T.ZONE_NAMES.values())
    assert {g for g in ROAD_GLYPHS.values() if g.strip()} <= set(words)
    s = load_game("sprawlopolis").new_initial_state(1, 0)
    rng = random.Random(0)
    while s.is_chance_node():
        s.apply_action(s.sample_chance(rng))
    assert T.TEXT_KEY in s.render_text(0, color=False).splitlines()
    assert T.for_language("pt_BR").TEXT_KEY.startswith("legenda: C comercial  I industrial")
