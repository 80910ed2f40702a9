"""core.textcat: the texts catalogs are extracted, merged, compiled and checked for real (a small
texts module written to a temporary folder, real Babel, real gettext)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from citybuilders.core import textcat
from citybuilders.core.i18n import text_tables


@pytest.fixture()
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    pkg = tmp_path / "cb_demo_texts"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "texts.py").write_text(
        'NAMES = {"a": "Apple for {name}", "b": "3 pears", "c": "Apple for {name}"}\n'
        'LEGEND = ("key", "")\nRULE = "Eat it."\nlower_case = "not a table"\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("cb_demo_texts.texts")
    yield mod
    sys.modules.pop("cb_demo_texts.texts", None)
    sys.modules.pop("cb_demo_texts", None)


def _set(mod, lang: str, strings: dict[str, str], fuzzy: tuple[str, ...] = ()) -> None:
    po = textcat.po_path(mod, lang)
    cat = textcat.read_po(po, lang)
    for msg in cat:
        if msg.id in strings:
            msg.string = strings[msg.id]
            if msg.id in fuzzy:
                msg.flags.add("fuzzy")
    textcat.write_po(cat, po)


def test_strings_are_the_upper_case_tables_each_once(demo) -> None:
    assert textcat.table_strings(demo) == [
        ("Apple for {name}", "NAMES[a]"), ("3 pears", "NAMES[b]"), ("key", "LEGEND[0]"),
        ("Eat it.", "RULE")]
    assert textcat.placeholders("Take 2x2 for {zone}, 10 %s") == ["%s", "10", "2", "2", "{zone}"]


def test_problems_names_each_defect_and_the_tool_fixes_the_mo(demo) -> None:
    textcat.update_catalogs(demo, ["pt_BR"])
    assert textcat.po_path(demo, "pt_BR").exists() and textcat.mo_path(demo, "pt_BR").exists()
    assert len(textcat.problems(demo, "pt_BR")) == 4  # nothing translated yet
    _set(demo, "pt_BR", {"Apple for {name}": "Maçã para {nome}", "3 pears": "três peras",
                         "key": "legenda", "Eat it.": "Coma."}, fuzzy=("Eat it.",))
    found = textcat.problems(demo, "pt_BR")
    assert len(found) == 4
    assert "placeholders/numbers ['{nome}'] != ['{name}']" in found[0]
    assert "['3']" in found[1] and "fuzzy translation of 'Eat it.'" in found[2]
    assert "not the compiled texts.po" in found[3]
    _set(demo, "pt_BR", {"Apple for {name}": "Maçã para {name}", "3 pears": "3 peras"})
    cat = textcat.read_po(textcat.po_path(demo, "pt_BR"), "pt_BR")
    cat["Eat it."].flags.discard("fuzzy")
    textcat.write_po(cat, textcat.po_path(demo, "pt_BR"))
    textcat.update_catalogs(demo, ["pt_BR"])
    assert textcat.problems(demo, "pt_BR") == []
    pt = text_tables("cb_demo_texts.texts", "pt_BR")
    assert pt.NAMES == {"a": "Maçã para {name}", "b": "3 peras", "c": "Maçã para {name}"}
    assert pt.LEGEND == ("legenda", "") and pt.RULE == "Coma."
    assert text_tables("cb_demo_texts.texts", "zh_Hant").RULE == "Eat it."  # no catalog: English


def test_a_string_no_table_has_is_reported(demo) -> None:
    textcat.update_catalogs(demo, ["zh_Hant"])
    cat = textcat.read_po(textcat.po_path(demo, "zh_Hant"), "zh_Hant")
    cat.add("Gone", "已刪除")
    textcat.write_po(cat, textcat.po_path(demo, "zh_Hant"))
    assert "zh_Hant: 'Gone' is in the catalog but in no table" in textcat.problems(demo, "zh_Hant")
    textcat.update_catalogs(demo, ["zh_Hant"])  # the merge drops it again
    assert not any("Gone" in p for p in textcat.problems(demo, "zh_Hant"))


def test_bad_game_names_are_refused() -> None:
    with pytest.raises(FileNotFoundError, match="not a folder name"):
        textcat.texts_module("../etc")
    with pytest.raises(FileNotFoundError, match="no texts module for 'chess'"):
        textcat.texts_module("chess")


def test_package_data_ships_every_catalog_file() -> None:
    """A wheel holds the .pot/.po/.mo of every game (pyproject package-data patterns)."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[2]
    pats = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["setuptools"]["package-data"]["citybuilders"]
    pkg = root / "src" / "citybuilders"
    files = [p.relative_to(pkg).as_posix() for p in pkg.glob("games/*/locale/**/*") if p.is_file()]
    assert len(files) == 4 * 5  # 4 games x (texts.pot + 2 languages x (.po, .mo))
    missing = [f for f in files if not any(fnmatch.fnmatchcase(f, pat) for pat in pats)]
    assert missing == []
    assert any("Babel>=" in d for d in tomllib.loads(
        (root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"])
