"""texts.py names every symbol, effect and action of Roll Builder; the SVG shows the legend."""
from __future__ import annotations

import pytest

from citybuilders.core import textcat
from citybuilders.core.registry import load_game
from citybuilders.games.roll_builder import texts
from citybuilders.games.roll_builder.actions import KINDS
from citybuilders.games.roll_builder.loader import (EFFECT_TYPES, RES_ABBR, RESOURCES,
                                                   shipped_sheet_names)
from citybuilders.games.roll_builder.scoring import CATEGORIES


def test_every_code_has_a_text() -> None:
    assert set(texts.SYMBOL_NAMES) == {*RES_ABBR, "BB", "BW", "IB", "U!", "2v"}
    assert set(texts.EFFECT_RULES) == set(EFFECT_TYPES)
    assert set(texts.ACTION_NAMES) == set(KINDS)
    assert set(RESOURCES) < set(texts.RESOURCE_NAMES) == set(texts.RESOURCE_RULES)


def test_svg_has_the_symbol_legend() -> None:
    svg = load_game("roll-builder").new_initial_state(1, 0).render_svg(0)
    assert ('<text class="legend" x="30" y="597" font-size="9" fill="#555">symbols:  Fo food  '
            'Su supplies  We wealth  Fa favor  St strength  BB bonus Build</text>') in svg
    assert svg.endswith(">BW bonus Wonder  IB innovation bonus  U! unlocks a wonder box  2v points"
                        "  ✗ collected</text></svg>")


def test_text_board_key_is_the_texts_key() -> None:
    s = load_game("roll-builder").new_initial_state(1, 0)
    assert texts.TEXT_MAP_KEY in s.render_text(0).splitlines()


def _sheets() -> dict[str, dict]:
    from importlib.resources import files
    import json

    return {n: json.loads(files("citybuilders.games.roll_builder").joinpath(
        f"data/{n}.json").read_text(encoding="utf-8")) for n in shipped_sheet_names()}


def test_every_sheet_element_has_a_name_and_a_rule() -> None:
    sheets = _sheets()
    assert set(texts.SHEET_NAMES) == set(texts.SHEET_RULES) == set(sheets)
    for sid, d in sheets.items():
        assert texts.SHEET_NAMES[sid] == d["name"]
        assert texts.BUILDING_NAMES[sid] == {b["number"]: b["name"] for b in d["buildings"]}
        assert set(texts.BUILDING_TEXTS[sid]) == set(texts.BUILDING_NAMES[sid])
        assert texts.INNOVATION_NAMES[sid] == {i["id"]: i["name"] for i in d["innovations"]}
        assert set(texts.INNOVATION_TEXTS[sid]) == set(texts.INNOVATION_NAMES[sid])
        assert texts.WONDER_NAMES[sid] == d["wonder"]["name"]
        assert texts.SPECIAL_NAMES[sid] == d["special_ability"]["name"]
        assert set(texts.ROAD_ABILITY_TEXTS[sid]) == set(d["road_abilities"]) == set(
            texts.ROAD_ABILITY_NAMES)
        for b in d["buildings"]:  # every amount the building gives is in its text
            text = texts.BUILDING_TEXTS[sid][b["number"]]
            for res, n in b["gain"].items():
                assert f"{n} {res}" in text, (sid, b["name"], res)
        for inn in d["innovations"]:  # and every innovation says its points
            assert texts.INNOVATION_TEXTS[sid][inn["id"]].endswith(
                f"{inn['points']} points."), (sid, inn["id"])
        for m in d["road_abilities"]["milestones"]:
            assert f"{m['roads']}th" in texts.ROAD_ABILITY_TEXTS[sid]["milestones"]
    assert set(texts.SYMBOL_RULES) == set(texts.SYMBOL_NAMES)
    assert list(texts.SCORING_NAMES) == list(texts.SCORING_RULES) == list(CATEGORIES)
    assert set(texts.STEP_NAMES) == set(texts.ACTION_RULES) - set(KINDS)
    assert texts.SPECIAL_TEXTS["goldplain"] == (
        "Once a turn you may cross off 2 stored wealth to gain 1 favor or 1 strength.")


@pytest.mark.parametrize("lang", textcat.TRANSLATED)
def test_catalog_translates_every_string(lang: str) -> None:
    assert textcat.problems("roll_builder", lang) == []


def test_printed_names_in_each_language() -> None:
    pt, zh = texts.for_language("pt_BR"), texts.for_language("zh_Hant")
    # rulebook seed 000: Estrada, Construção, Maravilha; Comida, Suprimentos, Riqueza, Favor, Força
    assert [pt.ACTION_NAMES[k] for k in ("road", "build", "wonder")] == [
        "Estrada", "Construção", "Maravilha"]
    assert [pt.RESOURCE_NAMES[r] for r in RESOURCES] == [
        "comida", "suprimentos", "riqueza", "favor", "força"]
    assert pt.SCORING_NAMES["roads"] == "Rede de Estradas"
    assert pt.WONDER_NAMES["rivermouth"] == "Colosso do Porto"
    assert zh.INNOVATION_NAMES["rivermouth"]["I1"] == "橋樑"
    # the legend starts each entry with the mark the SVG draws in that language (new-user
    # item 7: one character in Chinese, not the English two letters)
    for tx in (texts, zh, pt):
        marks = [tx.SYMBOL_MARKS[k].format(n=2) for k in texts.SYMBOL_NAMES]
        assert [e.split(" ")[0] for e in tx.SYMBOL_LEGEND][:len(marks)] == marks
    assert zh.SYMBOL_LEGEND[0] == "食 食物" and zh.SYMBOL_MARKS["St"] == "力"


def test_space_kinds_have_rules() -> None:
    from citybuilders.games.roll_builder.loader import TERRAINS

    assert set(texts.TERRAIN_NAMES) == set(texts.TERRAIN_RULES) == set(TERRAINS.values())
    s = load_game("roll-builder", sheet="goldplain").new_initial_state(1, 0)
    assert texts.is_builtin_sheet(s.game.sheet)
    assert "  partial space: " + texts.TERRAIN_RULES["partial"] in texts.rules_text(s).splitlines()
