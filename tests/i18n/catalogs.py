"""Helpers of the language tests: the interface catalogs and the English msgids of the pages."""

from __future__ import annotations

import importlib.util
import re
import string
from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "src" / "citybuilders" / "locale"
LANGS = ("pt_BR", "zh_Hant")


def i18n_script():
    """scripts/i18n.py as a module (extract, problems, main)."""
    spec = importlib.util.spec_from_file_location("cb_i18n_script", ROOT / "scripts" / "i18n.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


@lru_cache(maxsize=None)
def catalog(lang: str):
    path = LOCALE / ("citybuilders.pot" if lang == "en" else f"{lang}/LC_MESSAGES/citybuilders.po")
    with open(path, "rb") as f:
        return read_po(f, locale=None if lang == "en" else lang)


def placeholders(text: str) -> list[str]:
    """The sorted placeholders of a msgid or translation: ``{name!r:spec}`` fields and
    ``%(name)s`` conversions (the two formats the interface uses)."""
    out = sorted(f"%({m})" for m in re.findall(r"%\((\w+)\)[sd]", text))
    if "{" in text:
        try:
            fields = [(f, c, s) for _lit, f, s, c in string.Formatter().parse(text)
                      if f is not None]
        except ValueError:
            return out + ["<unbalanced braces>"]
        out += sorted(f"{{{f}{'!' + c if c else ''}{':' + s if s else ''}}}" for f, c, s in fields)
    return out


def page_msgids(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    """(msgid, anchored pattern) of every interface msgid shown by pages (templates and page
    scripts) whose ``lang`` translation differs from the English: finding one of these in a
    ``lang`` page means an English string leaked through."""
    cat = catalog(lang)
    out = []
    for m in catalog("en"):
        if not m.id:
            continue
        if not any(loc.endswith((".html", ".js")) for loc, _n in m.locations):
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        tr = cat.get(m.id)
        strings = tr.string if tr is not None and isinstance(tr.string, tuple) else (
            (tr.string,) if tr is not None else ())
        for mid in ids:
            if mid in strings:
                continue  # the same word in both languages (e.g. "Replay", "total")
            parts = re.split(r"%\(\w+\)[sd]|\{[^{}]*\}", mid)
            if not any(re.search(r"[A-Za-z]{3}", p) for p in parts):
                continue
            rx = ".+?".join(re.escape(p) for p in parts)
            out.append((mid, re.compile(r"^\s*" + rx + r"\s*$")))
    return out


@lru_cache(maxsize=None)
def english_words() -> frozenset[str]:
    """Lower-case words (3+ letters) of the English msgids of every catalog (the interface and
    each shipped game's texts) that no Portuguese translation of those catalogs contains:
    seen in pt-BR output, such a word is English left over. Words Portuguese shares ("total",
    "hexes" in notation...) are in a translation somewhere and so are not flagged. Placeholders
    (``{name}``, ``%(name)s``) are not words. The one list of the pt-BR word tests (the pages,
    the lobby's options, the CLI and the terminal)."""
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "e2e"))
    from words import WORD

    from citybuilders.core import textcat

    def strip(text: str) -> str:
        return re.sub(r"%\(\w+\)[sd]|\{[^{}]*\}", " ", text)

    en: set[str] = set()
    pt: set[str] = set()
    # the shipped games' folders (not registered_games(): tests register games of their own)
    cats = [catalog("pt_BR")] + [
        textcat.read_po(textcat.po_path(textcat.texts_module(g), "pt_BR"), "pt_BR")
        for g in ("kingdom_builder", "sprawlopolis", "roll_into_town", "roll_builder")]
    for cat in cats:
        for m in cat:
            if not m.id:
                continue
            for t in (m.id if isinstance(m.id, tuple) else (m.id,)):
                en.update(w.lower() for w in WORD.findall(strip(t)) if len(w) >= 3)
            for t in (m.string if isinstance(m.string, tuple) else (m.string,)):
                pt.update(w.lower() for w in WORD.findall(strip(t or "")) if len(w) >= 3)
    return frozenset(en - pt)
