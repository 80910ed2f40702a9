"""The interface catalogs (gettext domain ``citybuilders``): extract, update, compile, check.

    python scripts/i18n.py            # extract -> update the .po files -> compile the .mo files
    python scripts/i18n.py --check    # exit 1 (and say why) if anything is out of date

Extraction follows babel.cfg: ``_()``/``gettext``/``ngettext``/``N_()`` in the Python sources,
``{{ _("...") }}`` and ``{% trans %}`` in the Jinja2 templates, ``CB.t("...")`` in the page
scripts, plus the texts Babel cannot see: the CLI's help texts (``cli_help_texts``) and the
option texts of every registered game (``option_texts``). The template is
``src/citybuilders/locale/citybuilders.pot``; the translations are
``src/citybuilders/locale/<lang>/LC_MESSAGES/citybuilders.po`` (``pt_BR``, ``zh_Hant``), and
their compiled ``.mo`` files are committed beside them so a fresh clone works without a build
step (tests/i18n checks that they match a fresh compile). New msgids arrive untranslated:
translate them in the .po files and run this script again.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "citybuilders" / "locale"
DOMAIN = "citybuilders"
LANGS = ("pt_BR", "zh_Hant")
POT = LOCALE / f"{DOMAIN}.pot"


def _rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


def extract() -> Catalog:
    """A template catalog of every interface msgid in the sources (locations without line
    numbers, so moving code does not churn the catalogs)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f, str(ROOT / "babel.cfg"))
    cat = Catalog(project="citybuilders", version="0.1", charset="utf-8",
                  msgid_bugs_address="", copyright_holder="citybuilders developers",
                  fuzzy=False)
    keywords = dict(DEFAULT_KEYWORDS)
    keywords.update({"gettext_now": None, "ngettext_now": (1, 2)})
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords, strip_comment_tags=True):
        if not message or (isinstance(message, tuple) and not message[0]):
            continue
        cat.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for text in cli_help_texts():
        if text not in cat:
            cat.add(text, None, [("src/citybuilders/cli.py", 0)],
                    auto_comments=["command-line help"])
    for where, text in option_texts():
        if text not in cat:
            cat.add(text, None, [(where, 0)], auto_comments=["game option"])
    return cat


def option_texts() -> list[tuple[str, str]]:
    """(declaring file, text) for every player-facing text of every registered game's options
    (``Option.texts``: title, question, doc, alternatives, choice words): they are plain
    strings in the declarations (rules/options.py, game.py), which Babel cannot see; the lobby
    and ``citybuilders options`` translate them through this catalog."""
    sys.path.insert(0, str(ROOT / "src"))
    from citybuilders.core.registry import game_class, registered_games

    out = []
    for name in registered_games():
        cls = game_class(name)
        where = f"src/citybuilders/games/{name.replace('-', '_')}/rules/options.py"
        for o in cls.option_specs:
            out += [(where, t) for t in o.texts()]
    return out


def cli_help_texts() -> list[str]:
    """The help texts of every command and option of the CLI (typer builds them from the
    docstrings and ``help=`` arguments; ``citybuilders.cli.localize_help`` translates them)."""
    sys.path.insert(0, str(ROOT / "src"))
    import typer.main

    from citybuilders.cli import app, help_texts

    return help_texts(typer.main.get_command(app))


def _po_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, include_lineno=False, omit_header=False, ignore_obsolete=True)
    return buf.getvalue()


def _mo_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def load_po(lang: str) -> Catalog:
    with open(po_path(lang), "rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def updated(template: Catalog, lang: str) -> Catalog:
    """The catalog of ``lang`` brought up to the template (new msgids empty, gone ones
    dropped; no fuzzy guesses: a changed English text is retranslated)."""
    if po_path(lang).exists():
        cat = load_po(lang)
    else:
        cat = Catalog(locale=lang, domain=DOMAIN, project="citybuilders", version="0.1",
                      charset="utf-8", fuzzy=False)
    cat.update(template, no_fuzzy_matching=True, update_header_comment=False)
    cat.obsolete.clear()
    cat.revision_date = cat.creation_date = template.creation_date.replace(
        year=2026, month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    cat.fuzzy = False
    return cat


def problems(cat: Catalog) -> list[str]:
    """Untranslated and fuzzy entries of one catalog."""
    out = []
    for m in cat:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy:
            out.append(f"fuzzy: {m.id!r}")
        elif not all(strings):
            out.append(f"untranslated: {m.id!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="change nothing; exit 1 if a catalog is stale, incomplete or uncompiled")
    args = ap.parse_args(argv)
    template = extract()
    template.creation_date = template.creation_date.replace(
        year=2026, month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    bad: list[str] = []
    if args.check:
        ids = {m.id for m in template if m.id}
        for lang in LANGS:
            if not po_path(lang).exists():
                bad.append(f"{_rel(po_path(lang))}: missing")
                continue
            cat = load_po(lang)
            have = {m.id for m in cat if m.id}
            bad += [f"{lang}: not in the catalog (run scripts/i18n.py): {i!r}"
                    for i in sorted(ids - have, key=str)]
            bad += [f"{lang}: no longer in the sources: {i!r}" for i in sorted(have - ids, key=str)]
            bad += [f"{lang}: {p}" for p in problems(cat)]
            if not mo_path(lang).exists() or mo_path(lang).read_bytes() != _mo_bytes(cat):
                bad.append(f"{_rel(mo_path(lang))}: not compiled from the .po "
                           "(run scripts/i18n.py)")
        for line in bad:
            print(line)
        return 1 if bad else 0
    LOCALE.mkdir(parents=True, exist_ok=True)
    POT.write_bytes(_po_bytes(template))
    for lang in LANGS:
        cat = updated(template, lang)
        po_path(lang).parent.mkdir(parents=True, exist_ok=True)
        po_path(lang).write_bytes(_po_bytes(cat))
        cat = load_po(lang)
        mo_path(lang).write_bytes(_mo_bytes(cat))
        left = problems(cat)
        print(f"{_rel(po_path(lang))}: {len(cat)} messages, {len(left)} to translate")
    return 0


if __name__ == "__main__":
    sys.exit(main())
