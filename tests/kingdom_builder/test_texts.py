"""texts.py covers exactly the ids the rules declare, and the rules reach it through the game."""

from __future__ import annotations

import pytest

import citybuilders
from citybuilders.core import textcat
from citybuilders.games.kingdom_builder import texts as T
from citybuilders.games.kingdom_builder.loader import TERRAINS
from citybuilders.games.kingdom_builder.rules import crossroads as X
from citybuilders.games.kingdom_builder.rules.crossroads_state import PIECES
from citybuilders.games.kingdom_builder.rules.crossroads_tiles import CROSSROADS_KIND_IDS
from citybuilders.games.kingdom_builder.rules.tiles import BASE_TILE_IDS, TILE_KINDS
from citybuilders.games.kingdom_builder.scoring import CARD_FUNCS, CARDS


def test_tables_cover_their_ids() -> None:
    assert CARDS == tuple(CARD_FUNCS) == tuple(T.CARD_NAMES) == tuple(T.CARD_RULES)
    assert len(CARDS) == 10
    assert list(T.TILE_NAMES) == list(BASE_TILE_IDS) + list(X.TILE_KINDS)
    assert list(T.TILE_RULES) == list(T.TILE_NAMES)
    assert set(TILE_KINDS) == set(BASE_TILE_IDS) | set(CROSSROADS_KIND_IDS)
    assert set(T.TILE_NAMES) == set(TILE_KINDS) | {"crossroads"}
    assert tuple(T.TASK_NAMES) == tuple(T.TASK_RULES) == X.TASKS
    assert tuple(T.TERRAIN_NAMES) == TERRAINS
    assert set(T.PIECE_LETTERS) == set(PIECES) == set(T.PIECE_NAMES) - {"settlement"}
    assert all(v.strip() and "\n" not in v for table in (
        T.CARD_RULES, T.TILE_RULES, T.TASK_RULES) for v in table.values())


def test_exact_texts() -> None:
    assert T.TILE_NAMES["foresters_lodge"] == "Forester's Lodge"
    assert T.CARD_RULES["lords"] == "per sector: most settlements 12, second 6"
    assert T.TERRAIN_NAMES["flower_field"] == "flower field"
    assert T.TASK_RULES["road"] == "7 gold: at least 7 of your pieces in one unbroken diagonal line."
    assert T.TILE_RULES["paddock"].startswith("Move 1 of your settlements exactly 2 hexes")


def test_rules_reach_the_texts_through_the_game() -> None:
    g = citybuilders.load_game("kingdom-builder", expansions=["crossroads"],
                               sections=["city_hall_fort", "farm", "oasis", "tavern"],
                               tasks=["road"])
    assert g.texts is T
    s = g.new_initial_state(2, 0)
    view = s.crossroads_view(0)
    assert view["tasks"] == [{"task": "road", "name": "Road", "gold": 7}]
    assert [t["name"] for t in view["location_summary"][0]["tiles"]] == ["City Hall", "Fort"]


def test_every_piece_terrain_and_card_has_a_full_rule() -> None:
    assert tuple(T.CARD_TEXTS) == CARDS
    assert tuple(T.TERRAIN_RULES) == TERRAINS
    assert list(T.PIECE_RULES) == list(T.PIECE_NAMES)
    assert list(T.BASIC_RULES) == ["turn", "adjacency", "tiles", "end"]
    assert T.LOCATION_SUMMARY == {k: T.TILE_RULES[k] for k in X.TILE_KINDS}
    for table in (T.CARD_TEXTS, T.TERRAIN_RULES, T.PIECE_RULES, T.BASIC_RULES):
        for key, text in table.items():
            assert 30 <= len(text) <= 240 and text.endswith("."), key
    # the numbers in the texts are the engine's: gold per card, castles, city hall size
    assert "12 gold" in T.CARD_TEXTS["lords"] and "runner-up 6" in T.CARD_TEXTS["lords"]
    assert "4 gold" in T.CARD_TEXTS["merchants"] and "3 gold" in T.CASTLE_TEXT
    assert "7 settlements" in T.PIECE_RULES["city_hall"]
    assert all(f"{X.TASK_GOLD[t]} gold:" in T.TASK_RULES[t] for t in X.TASKS)


@pytest.mark.parametrize("lang", textcat.TRANSLATED)
def test_catalog_translates_every_string(lang: str) -> None:
    """No string untranslated or fuzzy, numbers kept, the .mo is the compiled .po."""
    assert textcat.problems("kingdom_builder", lang) == []


def test_printed_names_in_each_language() -> None:
    pt, zh = T.for_language("pt_BR"), T.for_language("zh_Hant")
    # rulebook seed 003 prints these names
    assert [pt.CARD_NAMES[c] for c in ("fishermen", "knights", "merchants")] == [
        "Pescadores", "Cavaleiros", "Mercadores"]
    assert [pt.TILE_NAMES[k] for k in BASE_TILE_IDS] == [
        "Oráculo", "Fazenda", "Oásis", "Torre", "Taverna", "Celeiro", "Porto", "Curral"]
    assert pt.TERRAIN_NAMES["flower_field"] == "campo de flores"
    assert pt.TERRAIN_NAMES["grass"] == "gramado" and pt.PIECE_NAMES["settlement"] == "vila"
    assert pt.TASK_NAMES["compass_points"] == "Pontos cardeais"
    assert zh.CARD_NAMES["lords"] == "領主" and zh.TILE_NAMES["city_hall"] == "市政廳"
    assert zh.TASK_RULES["road"] == "7 金幣：你至少 7 枚棋子排成一條不間斷的斜線。"
    # the English tables stay English, keys stay ids
    assert T.for_language("en").CARD_NAMES == T.CARD_NAMES
    assert list(pt.TILE_RULES) == list(T.TILE_RULES)


def test_tile_labels_cover_every_tile_and_tell_them_apart_in_each_language() -> None:
    """The hex labels of the location tiles (new-user item 7): one per tile, no two alike in
    any language (the first three letters gave "For" to both the Forester's Lodge and the
    Fort, and the Portuguese "Far" of farol read as an English word)."""
    for lang in ("en", "pt_BR", "zh_Hant"):
        labels = T.for_language(lang).TILE_LABELS
        assert set(labels) == set(T.TILE_NAMES), lang
        assert len(set(labels.values())) == len(labels), (lang, labels)
    assert T.for_language("pt_BR").TILE_LABELS["lighthouse"] == "Frl"
    assert T.for_language("zh_Hant").TILE_LABELS["harbor"] == "港口"
