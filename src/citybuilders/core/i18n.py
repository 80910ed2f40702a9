"""Languages: which one a reader gets, and the gettext catalogs that translate to it.

The product speaks ``en`` (the source language of every message), ``pt_BR`` and ``zh_Hant``.
Messages are English msgids marked with ``_()`` in Python and templates and ``CB.t()`` in the
page scripts; the catalogs live in ``citybuilders/locale/<lang>/LC_MESSAGES/<domain>.mo``
(domain ``citybuilders`` for the interface; each game may add its own domain for its names and
rule texts). A missing catalog means English: nothing here raises for a missing translation.

Shapes: a language code is one of :data:`LANGUAGES`; :func:`normalize` maps the forms people
type (``pt-BR``, ``pt``, ``zh-TW``, ``zh-Hant``, ``en-US``...) onto one, or None.
"""

from __future__ import annotations

import gettext as _gettext
import os
from functools import lru_cache
from pathlib import Path
from typing import Callable

__all__ = ["LANGUAGES", "DEFAULT", "LOCALE_DIR", "normalize", "negotiate", "translations",
           "gettext_for", "env_language", "TextTables", "text_tables"]

LANGUAGES: tuple[str, ...] = ("en", "pt_BR", "zh_Hant")
"""The languages the product speaks, the source language first."""

DEFAULT = "en"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def normalize(tag: str | None) -> str | None:
    """One of LANGUAGES for a language tag (``pt-BR``, ``pt_br``, ``zh-TW``, ``zh-Hant-HK``,
    ``en_US.UTF-8``...), or None when the tag names none of them."""
    if not tag or not isinstance(tag, str):
        return None
    t = tag.strip().split(".")[0].split("@")[0].replace("_", "-").lower()
    if not t:
        return None
    parts = t.split("-")
    if parts[0] == "en":
        return "en"
    if parts[0] == "pt":
        return "pt_BR"
    if parts[0] == "zh":
        rest = set(parts[1:])
        if rest & {"hans", "cn", "sg"}:
            return None
        return "zh_Hant"
    return None


def negotiate(accept_language: str | None, default: str = DEFAULT) -> str:
    """The best of LANGUAGES for an HTTP ``Accept-Language`` header (quality values honoured;
    ``default`` when none matches or the header is malformed)."""
    best: list[tuple[float, int, str]] = []
    for i, item in enumerate((accept_language or "")[:1000].split(",")):
        bits = item.strip().split(";")
        q = 1.0
        for b in bits[1:]:
            b = b.strip()
            if b.startswith("q="):
                try:
                    q = float(b[2:])
                except ValueError:
                    q = 0.0
        lang = normalize(bits[0])
        if lang and q > 0:
            best.append((-q, i, lang))
    return sorted(best)[0][2] if best else default


@lru_cache(maxsize=None)
def translations(lang: str, domain: str = "citybuilders") -> _gettext.NullTranslations:
    """The catalog of ``domain`` in ``lang`` (NullTranslations = English when none is installed)."""
    if lang not in LANGUAGES or lang == DEFAULT:
        return _gettext.NullTranslations()
    try:
        return _gettext.translation(domain, localedir=str(LOCALE_DIR), languages=[lang])
    except OSError:
        return _gettext.NullTranslations()


def gettext_for(lang: str, domain: str = "citybuilders") -> Callable[[str], str]:
    """``_`` for one language: msgid -> translated text (the msgid itself when untranslated)."""
    return translations(lang, domain).gettext


def env_language(environ: dict[str, str] | None = None) -> str:
    """The language of the terminal from ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` (in that order,
    POSIX precedence); DEFAULT for ``C``/``POSIX`` or an unknown language."""
    env = os.environ if environ is None else environ
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        val = env.get(key)
        if val:
            return normalize(val) or DEFAULT
    return DEFAULT


class TextTables:
    """A game's player-facing tables in one language: the same attribute names as the game's
    ``texts`` module (``CARD_NAMES``, ``CARD_RULES``...), values translated.

    Built by :func:`text_tables` from the module's English tables; a value with no translation
    stays English. Read-only by convention (shared between callers, cached per language).
    """

    def __init__(self, lang: str, tables: dict[str, object]) -> None:
        self.lang = lang
        self.__dict__.update(tables)

    def __getattr__(self, name: str) -> object:  # only reached for a missing table
        raise AttributeError(f"no text table {name!r} in language {self.lang!r}")


def _translate_value(value: object, tr: Callable[[str], str]) -> object:
    if isinstance(value, str):
        return tr(value) if value else value
    if isinstance(value, dict):
        return {k: _translate_value(v, tr) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_translate_value(v, tr) for v in value)
    if isinstance(value, list):
        return [_translate_value(v, tr) for v in value]
    return value


_TABLE_CACHE: dict[tuple[str, str], TextTables] = {}


def text_tables(module_name: str, lang: str) -> TextTables:
    """The upper-case tables of the texts module ``module_name`` (e.g.
    ``citybuilders.games.kingdom_builder.texts``) in ``lang``: every string value, also inside
    dicts/tuples/lists, goes through the game's catalog (domain ``texts``, in the folder
    ``locale/`` beside that module). Unknown language or missing catalog: English."""
    import importlib
    import sys

    key = (module_name, lang)
    hit = _TABLE_CACHE.get(key)
    if hit is not None:
        return hit
    mod = sys.modules.get(module_name) or importlib.import_module(module_name)
    english = {k: v for k, v in vars(mod).items() if k.isupper() and not k.startswith("_")}
    tr: Callable[[str], str] = lambda s: s  # noqa: E731
    if lang in LANGUAGES and lang != DEFAULT and getattr(mod, "__file__", None):
        localedir = Path(mod.__file__).resolve().parent / "locale"  # type: ignore[arg-type]
        try:
            tr = _gettext.translation("texts", localedir=str(localedir), languages=[lang]).gettext
        except OSError:
            pass
    tables = TextTables(lang, {k: _translate_value(v, tr) for k, v in english.items()})
    _TABLE_CACHE[key] = tables
    return tables
