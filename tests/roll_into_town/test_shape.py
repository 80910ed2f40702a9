"""Issue 10 for Roll into Town: fields declared once, hand-written clones checked against the
field lists, the rules never importing presentation, and the texts table complete."""

from __future__ import annotations

import ast
import pathlib
import random

from rit_helpers import game

from citybuilders.bots import make_bot
from citybuilders.core.runner import play_out
from citybuilders.games.roll_into_town import rules as R
from citybuilders.games.roll_into_town import scoring, texts
from citybuilders.games.roll_into_town.rules.sheet import SHEET_FIELDS
from citybuilders.games.roll_into_town.rules.state import STATE_FIELDS, RollIntoTownState

FOLDER = pathlib.Path(R.__file__).resolve().parent.parent


def played(seed=4, players=2):
    g = game()
    s = g.new_initial_state(players, seed)
    play_out(s, [make_bot("greedy", seed + p) for p in range(players)], random.Random(seed))
    return s


def test_state_slots_and_position_json_come_from_state_fields():
    names = [n for n, _ in STATE_FIELDS]
    assert RollIntoTownState.__slots__ == ("sheets", *names)
    s = played()
    assert list(s.to_json()["position"]) == names + ["sheets"]


def test_hand_written_clones_copy_every_field():
    s = played()
    c = s.clone()
    for name in RollIntoTownState.__slots__[1:]:  # sheets: below
        a, b = getattr(s, name), getattr(c, name)
        assert a == b, name
        if isinstance(a, list):
            assert a is not b, name
    for sh, ch in zip(s.sheets, c.sheets):
        for name in R.Sheet.__slots__:
            if name == "_blk":
                continue
            a, b = getattr(sh, name), getattr(ch, name)
            assert a == b, name
            if isinstance(a, list):
                assert a is not b, name
    assert set(SHEET_FIELDS) < set(R.Sheet.__slots__)
    assert list(s.sheets[0].to_json()) == list(SHEET_FIELDS)


def _imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
            and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    out = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            out.add("." * node.level + (node.module or ""))
            if node.module is None:
                out.update("." * node.level + a.name for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_rule_modules_never_import_presentation_or_game():
    rule_files = [FOLDER / f for f in ("actions.py", "loader.py", "scoring.py", "scorefile.py")]
    rule_files += sorted((FOLDER / "rules").glob("*.py"))
    banned = {("roll_into_town", name) for name in ("render", "strategy", "texts", "game")}
    src = FOLDER.parent.parent.parent  # .../src
    for path in rule_files:
        package = list(path.parent.relative_to(src).parts)
        for mod in _imports(path):
            level = len(mod) - len(mod.lstrip("."))
            parts = (package[:len(package) - level + 1] if level else []) + [
                p for p in mod.lstrip(".").split(".") if p]
            for k in range(len(parts) - 1):
                assert (parts[k], parts[k + 1]) not in banned, (path.name, mod)
    assert "import" not in (FOLDER / "__init__.py").read_text(encoding="utf-8").split('"""')[2]


def test_texts_cover_every_id():
    assert set(texts.BUILDING_NAMES) == set(texts.BUILDING_RULES) == set(R.BUILDING_IDS)
    assert set(texts.ICON_NAMES) == set(R.TERRAIN_IDS)
    assert set(texts.CATEGORY_NAMES) == set(scoring.CATEGORIES)
    assert set(texts.RANK_NAMES) == {rank for _, _, rank in R.SOLO_RANKS}
    assert texts.die_face_text(4) == "river" and len(texts.DIE_FACES) == 6
    assert texts.PHASE_NAMES["maintenance"] == "maintenance"


def test_scoring_table_units():
    sh = R.Sheet(R.geometry(5, 5))
    assert list(scoring.CATEGORIES) == ["houses", "taverns", "river", "coast", "lighthouse",
                                        "cathedral"]
    sh.place(R.K_HOUSE, 0)
    sh.place(R.K_TAVERN, 1)
    sh.place(R.K_HOUSE, 7)
    assert scoring.houses(sh, "") == 4 and scoring.taverns(sh, "") == 2
    assert scoring.score_parts(sh, "ends_off_opposite_edges") == {
        "houses": 4, "taverns": 2, "river": 0, "coast": 0, "lighthouse": 0, "cathedral": 0}
    assert scoring.solo_rank(50) == "failed mayor" and scoring.solo_rank(81) == "legendary mayor"


def test_loader_rejects_broken_data_naming_the_field():
    import copy

    import pytest

    from citybuilders.core.errors import FormatError
    from citybuilders.games.roll_into_town import loader
    bad = copy.deepcopy(loader.DATA)
    bad["dice_per_round"]["value"] = [5, 5]
    with pytest.raises(FormatError, match=r"^data/rules.json: dice_per_round.value: expected 12 "):
        loader.validate_rules(bad)
    bad = copy.deepcopy(loader.DATA)
    bad["buildings"][0]["cost"] = {"gold": 1}
    with pytest.raises(FormatError, match=r"^data/rules.json: buildings\[0\].cost: "):
        loader.validate_rules(bad)
