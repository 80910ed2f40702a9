"""Roll into Town texts: buildings, icons, die faces, phases, resources and ranks, three languages."""

from __future__ import annotations

import re

import pytest

from citybuilders.core import textcat
from citybuilders.games.roll_into_town import rules as R
from citybuilders.games.roll_into_town import texts as T
from citybuilders.games.roll_into_town.actions import PHASE_NAMES


def test_tables_cover_their_ids() -> None:
    assert set(T.ICON_RULES) == set(T.ICON_NAMES) == set(R.TERRAIN_IDS)
    assert sorted(T.DIE_FACE_RULES) == sorted(T.DIE_FACES) == [1, 2, 3, 4, 5, 6]
    assert tuple(T.PHASE_NAMES) == tuple(T.PHASE_RULES) == PHASE_NAMES
    assert tuple(T.RESOURCE_NAMES) == tuple(T.RESOURCE_RULES) == R.RESOURCES
    assert set(T.RANK_RULES) == set(T.RANK_NAMES) == {rank for _, _, rank in R.SOLO_RANKS}


def test_rules_carry_the_engines_numbers() -> None:
    for lo, hi, rank in R.SOLO_RANKS:
        nums = [int(n) for n in re.findall(r"\d+", T.RANK_RULES[rank])]
        assert nums == [n for n in (lo, hi) if abs(n) < 10**6], rank
    for b in R.BUILDING_IDS:
        cost = R.BUILDINGS[b]["cost"]
        words = ", ".join(f"{n} {r}" for r, n in cost.items())
        assert T.BUILDING_RULES[b].startswith(f"Costs {words.replace(', ', ' and ')}"), b
    assert T.DIE_FACE_TABLE == " · ".join(
        f"{f} {T.DIE_FACES[f]}" + (" icon" if f == 6 else "") for f in range(1, 7))
    assert f"at most {R.CAP}" in T.RESOURCE_RULES["wood"]
    assert f"start with {R.START[2]}" in T.RESOURCE_RULES["wood"]


@pytest.mark.parametrize("lang", textcat.TRANSLATED)
def test_catalog_translates_every_string(lang: str) -> None:
    assert textcat.problems("roll_into_town", lang) == []


def test_printed_chinese_names() -> None:
    zh, pt = T.for_language("zh_Hant"), T.for_language("pt_BR")
    # rulebook seed 001 (Traditional Chinese) prints these names, except the quarry: it prints
    # 稿子 ("draft, manuscript", a slip for 鎬子 "pickaxe"), which no reader takes for a quarry
    assert [zh.BUILDING_NAMES[b] for b in R.BUILDING_IDS] == [
        "房子", "採石場", "伐木工", "港口", "水車", "酒館", "噴泉", "市場", "燈塔", "大教堂"]
    assert [zh.PHASE_NAMES[p] for p in ("discover", "build", "collect", "maintenance")] == [
        "發現", "建造", "收集", "維護"]
    assert [zh.RANK_NAMES[r] for _, _, r in R.SOLO_RANKS] == [
        "失敗的市長", "普通的市長", "好市長", "偉大的市長", "傳奇市長"]
    assert zh.DIE_FACES == {1: "農場", 2: "山脈", 3: "樹", 4: "河流", 5: "海岸", 6: "任意"}
    assert zh.DIE_FACE_TABLE == "1 農場 · 2 山脈 · 3 樹 · 4 河流 · 5 海岸 · 6 任意圖標"
    assert pt.BUILDING_NAMES["watermill"] == "moinho d'água" and pt.PHASE_NAMES["collect"] == "coleta"


def test_text_map_key_explains_every_code_and_is_under_the_maps() -> None:
    from citybuilders.core.registry import load_game
    from citybuilders.games.roll_into_town.actions import BUILDING_CODES, TERRAIN_TOKENS
    from citybuilders.games.roll_into_town.render import _RIVER_GLYPH

    key = " ".join(T.TEXT_MAP_KEY)
    tokens = set(key.replace("/", " ").split())
    assert set(BUILDING_CODES.values()) <= tokens
    assert {t * 2 if len(t) == 1 else t for t in TERRAIN_TOKENS.values()} - {"oc"} <= tokens
    assert set(_RIVER_GLYPH.values()) <= tokens and {"c^", "c>", "cv", "c<", "~~"} <= tokens
    text = load_game("roll-into-town").new_initial_state(1, 0).render_text(0, color=False)
    assert text.splitlines()[-2:] == list(T.TEXT_MAP_KEY)
    zh = T.for_language("zh_Hant").TEXT_MAP_KEY
    assert set(BUILDING_CODES.values()) <= set(" ".join(zh).replace("/", " ").split())


def _runs(per_round: tuple[int, ...]) -> list[tuple[int, int, int]]:
    out: list[tuple[int, int, int]] = []
    for rnd, n in enumerate(per_round, 1):
        if out and out[-1][0] == n:
            out[-1] = (n, out[-1][1], rnd)
        else:
            out.append((n, rnd, rnd))
    return out


def test_phase_rules_give_the_engines_dice_and_icon_counts() -> None:
    (d1, a1, b1), (d2, a2, b2), (d3, a3, b3) = _runs(R.DICE_PER_ROUND)
    assert (f"{d1} dice in rounds {a1}-{b1}, {d2} in rounds {a2}-{b2}, {d3} in rounds {a3}-{b3}"
            in T.PHASE_RULES["roll"])
    (i1, a1, b1), (i2, a2, b2), (i3, a3, b3) = _runs(R.ICONS_PER_ROUND)
    assert (f"{i1} icons in rounds {a1}-{b1}, {i2} in rounds {a2}-{b2}, {i3} in rounds {a3}-{b3}"
            in T.PHASE_RULES["discover"])
    assert T.PHASE_RULES["game over"].startswith(f"After {R.ROUNDS} rounds")
    assert R.TOWN_HALL_USES == 3 and T.ICON_RULES["town hall"].split(". ")[1].startswith("Three")
    assert R.FOUNTAIN_USES == 3 and "three uses per game" in T.BUILDING_RULES["fountain"]
    assert f"at most {R.TAVERN_CAP} per tavern" in T.BUILDING_RULES["tavern"]
