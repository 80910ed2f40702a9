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
