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
           "gettext_for", "env_language"]

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
