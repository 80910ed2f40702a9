"""The rules in play, from each game's texts, in each language, and the terminal's ``rules``."""

from __future__ import annotations

import io

import pytest

import citybuilders
from citybuilders.core.i18n import LANGUAGES
from citybuilders.games.kingdom_builder import texts as KB
from citybuilders.games.roll_builder import texts as RB
from citybuilders.games.roll_into_town import texts as RIT
from citybuilders.games.sprawlopolis import texts as SP
from citybuilders.terminal import format_rules, play_terminal

GAMES = ("kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder")


def test_kingdom_builder_rules_name_the_cards_tiles_tasks_and_pieces_in_play() -> None:
    g = citybuilders.load_game("kingdom-builder", expansions=["crossroads"],
                               sections=["city_hall_fort", "farm", "oasis", "tavern"],
                               tasks=["road"])
    s = g.new_initial_state(2, 0)
    text = KB.rules_text(s)
    for c in s.cards:
        assert f"  {KB.CARD_NAMES[c]}: {KB.CARD_TEXTS[c]}" in text.splitlines()
    kinds = {k for _, k in s.board.locations}
    assert kinds == {"city_hall", "fort", "farm", "oasis", "tavern"}
    for k in kinds:
        assert f"  {KB.TILE_NAMES[k]}: {KB.TILE_RULES[k]}" in text.splitlines()
    assert "  Road: " + KB.TASK_RULES["road"] in text.splitlines()
    assert "  warrior: " + KB.PIECE_RULES["warrior"] in text.splitlines()
    assert "Oracle" not in text  # not on this board
    zh = KB.rules_text(s, "zh_Hant")
    assert "  大道：7 金幣：你至少 7 枚棋子排成一條不間斷的斜線。" in zh.splitlines()
    base = KB.rules_text(citybuilders.load_game("kingdom-builder").new_initial_state(2, 0))
    assert "Task cards" not in base and "Pieces" not in base


def test_sprawlopolis_rules_are_the_three_conditions_and_the_target() -> None:
    s = citybuilders.load_game("sprawlopolis").new_initial_state(1, 0)
    lines = SP.rules_text(s).splitlines()
    assert lines[1] == f"Scoring conditions (target {s.target})" and s.target == sum(s.conditions)
    assert lines[2:5] == [f"  {n} {SP.CONDITION_NAMES[n]}: {SP.CONDITION_RULES[n]}"
                          for n in s.conditions]
    pt = SP.rules_text(s, "pt_BR").splitlines()
    assert pt[1] == f"Condições de pontuação (meta {s.target})"
    assert "  parque: Quadras de parque (verdes): seu maior grupo delas vale 1 ponto por quadra." in pt


def test_roll_into_town_rules_give_the_die_table_and_every_building() -> None:
    text = RIT.rules_text(None, "zh_Hant")
    assert "  1 農場 · 2 山脈 · 3 樹 · 4 河流 · 5 海岸 · 6 任意圖標" in text.splitlines()
    assert all(f"  {RIT.for_language('zh_Hant').BUILDING_NAMES[b]}：" in text
               for b in RIT.BUILDING_NAMES)
    two = citybuilders.load_game("roll-into-town").new_initial_state(2, 0)
    assert "Solo ranks" not in RIT.rules_text(two) and "Solo ranks" in RIT.rules_text(None)


def test_roll_builder_rules_describe_the_sheet_in_play() -> None:
    s = citybuilders.load_game("roll-builder", sheet="highcrag").new_initial_state(1, 0)
    lines = RB.rules_text(s).splitlines()
    assert lines[0] == "Rules of the sheet Highcrag"
    assert "  2 Quarry: " + RB.BUILDING_TEXTS["highcrag"][2] in lines
    assert "Wonder: Sky Temple" in lines and "Special ability: Stonecutters" in lines
    assert "  BB = bonus Build action: " + RB.SYMBOL_RULES["BB"] in lines
    pt = RB.rules_text(s, "pt_BR").splitlines()
    assert pt[0] == "Regras da folha Penhasco Alto" and "Maravilha: Templo do Céu" in pt


def test_an_uploaded_sheet_is_described_from_its_own_data() -> None:
    from citybuilders.games.roll_builder.loader import load_shipped_sheet

    doc = dict(load_shipped_sheet("goldplain").data)
    doc["buildings"] = [dict(b) for b in doc["buildings"]]
    doc["buildings"][0]["name"] = "Mill"
    s = citybuilders.load_game("roll-builder", sheet_doc=doc).new_initial_state(1, 0)
    lines = RB.rules_text(s).splitlines()
    assert lines[0] == "Rules of the sheet Goldplain"
    assert "  1 Mill: food 1" in lines  # not the built-in texts: the data changed
    assert not any(RB.SHEET_RULES["goldplain"] in line for line in lines)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_explains_its_rules_in_every_language(name: str, lang: str) -> None:
    s = citybuilders.load_game(name).new_initial_state(1 if name != "kingdom-builder" else 2, 0)
    text = format_rules(s, lang)
    assert len(text.splitlines()) >= 10 and all(line.strip() for line in text.splitlines())
    if lang != "en":
        assert text != format_rules(s, "en")


def test_terminal_rules_command_prints_them(monkeypatch: pytest.MonkeyPatch) -> None:
    g = citybuilders.load_game("sprawlopolis")
    script = iter(["rules", "quit"])
    out = io.StringIO()
    monkeypatch.setenv("LC_ALL", "pt_BR.UTF-8")
    s = play_terminal(g, ["human"], seed=0, color=False, inp=lambda _: next(script), out=out)
    assert format_rules(s, None) in out.getvalue()
    assert "Condições de pontuação (meta" in out.getvalue()
    out2 = io.StringIO()
    script = iter(["rules", "quit"])
    play_terminal(g, ["human"], seed=0, color=False, inp=lambda _: next(script), out=out2,
                  lang="zh-Hant")
    assert "計分條件（目標" in out2.getvalue()
