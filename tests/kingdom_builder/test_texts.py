"""texts.py covers exactly the ids the rules declare, and the rules reach it through the game."""

from __future__ import annotations

import citybuilders
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
