"""The interface catalogs: complete, consistent with the sources, compiled, and used."""

from __future__ import annotations

import pytest
from catalogs import LANGS, catalog, i18n_script, placeholders

from citybuilders.core.errors import FormatError
from citybuilders.core.i18n import (N_, Message, format_number, format_percent, js_msgids,
                                    localize, message_of, translations)


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_not_fuzzy(lang):
    cat = catalog(lang)
    assert len(cat) > 400
    bad = i18n_script().problems(cat)
    assert bad == [], bad[:10]


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_match_the_english(lang):
    wrong = []
    for m in catalog(lang):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in strings:
            # a plural's forms may drop the count only where the language has one form
            want = placeholders(ids[-1])
            if placeholders(s) != want:
                wrong.append((m.id, s, placeholders(s), want))
    assert wrong == [], wrong[:5]


def test_the_catalogs_match_the_sources_and_the_compiled_files():
    """scripts/i18n.py --check: every msgid of the sources is in each catalog (none stale),
    nothing untranslated or fuzzy, and each committed .mo equals a fresh compile of its .po."""
    assert i18n_script().main(["--check"]) == 0


def test_the_check_fails_on_a_missing_translation(tmp_path, monkeypatch):
    mod = i18n_script()
    src = mod.po_path("pt_BR").read_text(encoding="utf-8")
    assert 'msgstr "Cancelar"' in src
    po = tmp_path / "pt_BR" / "LC_MESSAGES" / "citybuilders.po"
    po.parent.mkdir(parents=True)
    po.write_text(src.replace('msgstr "Cancelar"', 'msgstr ""'), encoding="utf-8")
    (tmp_path / "zh_Hant" / "LC_MESSAGES").mkdir(parents=True)
    for suffix in (".po", ".mo"):
        (tmp_path / "zh_Hant" / "LC_MESSAGES" / f"citybuilders{suffix}").write_bytes(
            mod.po_path("zh_Hant").with_suffix(suffix).read_bytes())
    (po.with_suffix(".mo")).write_bytes(mod.mo_path("pt_BR").read_bytes())
    monkeypatch.setattr(mod, "LOCALE", tmp_path)
    assert mod.main(["--check"]) == 1


def test_messages_keep_english_and_translate_where_shown():
    exc = FormatError(N_("{field}: expected an integer, got {show}", field="seed", show="'x'"))
    assert str(exc) == "seed: expected an integer, got 'x'"
    assert localize(exc, "pt_BR") == "seed: esperava-se um inteiro, veio 'x'"
    assert localize(exc, "zh_Hant") == "seed：需要整數，收到 'x'"
    assert localize(exc, "en") == str(exc)
    wrapped = N_("record: {exc}", exc=exc)
    assert localize(wrapped, "pt_BR") == "record: seed: esperava-se um inteiro, veio 'x'"
    assert isinstance(message_of(exc), Message)
    # a plain string is looked up as a msgid; an unknown one stays as it is
    assert localize("Cancel", "zh_Hant") == "取消"
    assert localize("no such msgid here", "pt_BR") == "no such msgid here"


def test_a_translation_with_wrong_placeholders_falls_back_to_english(monkeypatch):
    tr = translations("pt_BR", "citybuilders")
    monkeypatch.setattr(tr, "gettext", lambda s: "quebrado {nope}")
    assert localize(N_("seed {seed}", seed=3), "pt_BR") == "seed 3"


def test_plurals_and_numbers_through_babel():
    pt, zh = translations("pt_BR"), translations("zh_Hant")
    assert pt.ngettext("%(num)d player", "%(num)d players", 1) == "%(num)d jogador"
    assert pt.ngettext("%(num)d player", "%(num)d players", 3) == "%(num)d jogadores"
    assert zh.ngettext("%(num)d player", "%(num)d players", 3) == "%(num)d 名玩家"
    assert format_number(1234.5, "pt_BR", 1) == "1.234,5"
    assert format_number(1234.5, "en", 1) == "1,234.5"
    assert format_number(1234.5, "zh_Hant", 1) == "1,234.5"
    assert format_percent(0.253, "pt_BR") == "25,3%"


def test_page_script_msgids_are_found():
    src = 'x = CB.t("Cancel"); y = CB.t(\'it\\\'s\', {a: 1}); z = CB.t(name);'
    assert [m for _line, m in js_msgids(src)] == ["Cancel", "it's"]
