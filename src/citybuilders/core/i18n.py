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

import contextvars
import gettext as _gettext
import json
import os
import re
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator, Mapping

__all__ = ["LANGUAGES", "DEFAULT", "LOCALE_DIR", "normalize", "negotiate", "translations",
           "gettext_for", "env_language", "TextTables", "text_tables", "Message", "N_",
           "message_of", "localize", "ngettext_for", "babel_locale", "format_number",
           "format_percent", "set_current", "current", "js_msgids", "extract_js", "js_strings",
           "gettext_now", "ngettext_now", "text_width", "ljust", "rjust", "using", "json_reason"]

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


_WORD_RX = re.compile(r"[A-Za-z_]+")


def gloss(text: str, words: Mapping[str, str] | None) -> str:
    """``text`` (a move's notation: ``"build 11,4"``, ``"d1 coast 0,0"``) with each whole
    word found in ``words`` (English word -> the reader's word, a game's ``NOTATION_WORDS``
    table in a language) replaced; digits, coordinates and unknown words stay. The notation
    itself (records, CLI input) never changes: this is for people reading a log line or a
    button. ``words`` None or empty: ``text`` unchanged."""
    if not words or not text:
        return text
    return _WORD_RX.sub(lambda m: words.get(m.group(0), m.group(0)), text)


# --------------------------------------------------------------------------- messages
class Message(str):
    """An English message that remembers how it was made, so it can be shown in any language.

    ``Message(template, **params)`` is the English text ``template.format(**params)`` (a plain
    ``str`` everywhere: comparisons, logs, tests) with ``.template`` (the gettext msgid, marked
    for extraction by :func:`N_`) and ``.params`` kept. :func:`localize` renders it in another
    language; a param that is itself a Message, or an exception carrying one, is localized too.
    Without params the template is used as is (no ``{}`` substitution)."""

    template: str
    params: dict[str, object]

    def __new__(cls, template: str, /, **params: object) -> "Message":
        text = template.format(**params) if params else template
        obj = super().__new__(cls, text)
        obj.template = template
        obj.params = params
        return obj

    def __reduce__(self) -> tuple[object, ...]:  # pickles (process pools) keep the template
        return (_rebuild_message, (self.template, self.params))


def _rebuild_message(template: str, params: dict[str, object]) -> Message:
    return Message(template, **params)


def N_(template: str, /, **params: object) -> Message:  # noqa: N802 - the gettext convention
    """Mark ``template`` (an English msgid with ``{name}`` placeholders) for translation and
    fill it: the result is English now and :func:`localize`-able later."""
    return Message(template, **params)


_JSON_REASONS = (
    N_("Expecting value"), N_("Expecting property name enclosed in double quotes"),
    N_("Expecting ':' delimiter"), N_("Expecting ',' delimiter"), N_("Extra data"),
    N_("Unterminated string starting at"), N_("Invalid control character at"),
    N_("Invalid \\escape"), N_("Invalid \\uXXXX escape"),
)
"""The reasons Python's JSON parser gives (``JSONDecodeError.msg``, without the character it
names), as msgids: English keeps the parser's words, other languages read their own."""


def json_reason(exc: BaseException) -> Message:
    """Why a JSON text did not parse, localizable: ``exc.msg`` of a ``json.JSONDecodeError``
    as one of :data:`_JSON_REASONS` (English: the parser's own words; ``"Invalid control
    character '\\n' at"`` is known by its words before the quote); any other error (a
    ``UnicodeDecodeError``) or reason: "not UTF-8 text" / "unreadable here"."""
    msg = getattr(exc, "msg", None)
    if not isinstance(msg, str):
        if isinstance(exc, UnicodeDecodeError):
            return N_("not UTF-8 text")
        return N_("unreadable here")
    words = re.sub(r":? ?(['\"]).*?\1", "", msg)
    for known in _JSON_REASONS:
        if msg == known or words == known:
            return known
    return N_("unreadable here")


def message_of(exc: BaseException) -> str:
    """The message of an exception, keeping its :class:`Message` (``str(exc)`` would lose it)."""
    if exc.args and isinstance(exc.args[0], Message) and len(exc.args) == 1:
        return exc.args[0]
    msg = getattr(exc, "message", None)
    if isinstance(msg, Message):
        return msg
    return str(exc)


def without_field(msg: str, field: str) -> str:
    """A loader's message ``"<field>: problem"`` or ``"<field>.key: problem"`` without its
    leading ``field`` (the caller names it already), still translatable when it was made as
    ``N_("{where}: {problem}", ...)`` or ``N_("{where}.{exc}", ...)``; another message is
    returned as it is."""
    if isinstance(msg, Message) and msg.template == "{where}: {problem}":
        where, problem = str(msg.params.get("where", "")), msg.params.get("problem", "")
        if where == field:
            return problem if isinstance(problem, str) else str(problem)
        if where.startswith(field + "."):
            return N_("{where}: {problem}", where=where[len(field) + 1:], problem=problem)
        return msg
    if isinstance(msg, Message) and msg.template == "{where}.{exc}" and \
            str(msg.params.get("where", "")) == field:  # "<field>.<inner error>"
        inner = msg.params.get("exc", "")
        return message_of(inner) if isinstance(inner, BaseException) else str(inner)
    text = str(msg)
    for head in (field + ": ", field + "."):
        if text.startswith(head):
            return text[len(head):]
    return msg


def localize(text: object, lang: str, domain: str = "citybuilders") -> str:
    """``text`` in ``lang``: a :class:`Message` is translated from its template and refilled
    (its params localized as well); a plain string is looked up as a msgid (unchanged when the
    catalog has no entry); an exception is its :func:`message_of`. Never raises: a translation
    whose placeholders do not fit falls back to English."""
    if isinstance(text, BaseException):
        text = message_of(text)
    if not isinstance(text, str):
        return str(text)
    if lang == DEFAULT or lang not in LANGUAGES:
        return str(text)
    tr = translations(lang, domain).gettext
    if isinstance(text, Message):
        if not text.params:
            return tr(text.template)
        params = {k: (localize(v, lang, domain) if isinstance(v, (Message, BaseException))
                      else v) for k, v in text.params.items()}
        try:
            return tr(text.template).format(**params)
        except (KeyError, IndexError, ValueError):
            return str(text)
    return tr(text) if text else text


def ngettext_for(lang: str, domain: str = "citybuilders") -> Callable[[str, str, int], str]:
    """``ngettext`` of one language (plural forms from the catalog header)."""
    return translations(lang, domain).ngettext


def babel_locale(lang: str) -> str:
    """The Babel/CLDR locale name of a language (``en``, ``pt_BR``, ``zh_Hant_TW``)."""
    return {"zh_Hant": "zh_Hant_TW"}.get(lang, lang)


def format_number(value: float, lang: str, decimals: int | None = None) -> str:
    """``value`` in ``lang``'s digits and separators (``1,234.5`` / ``1.234,5``) through
    ``babel.numbers``; ``decimals`` fixes the fraction digits. English formatting when Babel is
    missing."""
    try:
        from babel.numbers import format_decimal
    except ImportError:  # pragma: no cover - Babel is a dependency
        return f"{value:,.{decimals}f}" if decimals is not None else f"{value:,}"
    fmt = None if decimals is None else "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(value, format=fmt, locale=babel_locale(lang))


def format_percent(value: float, lang: str, decimals: int = 1) -> str:
    """``value`` (a fraction, 0.25) as a percentage in ``lang`` (``25.0%`` / ``25,0 %``)."""
    try:
        from babel.numbers import format_percent as _fp
    except ImportError:  # pragma: no cover
        return f"{value:.{decimals}%}"
    return _fp(value, format="#,##0" + ("." + "0" * decimals if decimals else "") + "%",
               locale=babel_locale(lang))


_CURRENT: list[str] = []
_CONTEXT: contextvars.ContextVar[str | None] = contextvars.ContextVar("cb_lang", default=None)


def set_current(lang: str | None) -> None:
    """Set the process's output language (the CLI's ``--lang`` / ``LANG``); None = clear."""
    _CURRENT[:] = [lang] if lang else []


def current() -> str:
    """The language of the text being made: the one of :func:`using` (a server request's),
    else the one set by :func:`set_current`, else the terminal's (:func:`env_language`)."""
    scoped = _CONTEXT.get()
    if scoped:
        return scoped
    return _CURRENT[0] if _CURRENT else env_language()


@contextmanager
def using(lang: str) -> Iterator[None]:
    """``with using("pt_BR"):`` — :func:`current` is ``lang`` inside (this thread/task only), so
    helpers that build texts for people (panels, labels) speak the reader's language."""
    token = _CONTEXT.set(lang)
    try:
        yield
    finally:
        _CONTEXT.reset(token)


# --------------------------------------------------------------------------- page scripts
_JS_CALL = re.compile(r"""\bCB\.t\(\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\s*[,)]""")


def js_msgids(source: str) -> list[tuple[int, str]]:
    """``(line, msgid)`` of every ``CB.t("...")`` / ``CB.t('...')`` call in page-script source
    (the first argument must be one string literal). Used by the catalog extraction
    (:func:`extract_js`, babel.cfg) and by the server to send each page its strings."""
    out: list[tuple[int, str]] = []
    for m in _JS_CALL.finditer(source):
        lit = m.group(1)
        if lit[0] == "'":
            lit = '"' + lit[1:-1].replace('\\\'', "'").replace('"', '\\"') + '"'
        try:
            text = json.loads(lit)
        except ValueError:
            continue
        out.append((source.count("\n", 0, m.start()) + 1, text))
    return out


def extract_js(fileobj, keywords, comment_tags, options):  # type: ignore[no-untyped-def]
    """Babel extraction method for the page scripts (babel.cfg:
    ``cb_js = citybuilders.core.i18n:extract_js`` in ``[extractors]``)."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for line, msgid in js_msgids(source):
        yield line, None, msgid, []


@lru_cache(maxsize=None)
def _static_msgids(folder: str) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for path in sorted(Path(folder).glob("*.js")):
        for _line, msgid in js_msgids(path.read_text(encoding="utf-8")):
            seen.setdefault(msgid, None)
    return tuple(seen)


def js_strings(lang: str, folder: str | Path) -> dict[str, str]:
    """msgid -> text in ``lang`` for every ``CB.t`` string of the page scripts in ``folder``
    (the JSON block base.html hands to ``CB.t``); empty for English."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return {}
    tr = translations(lang).gettext
    return {m: tr(m) for m in _static_msgids(str(folder)) if tr(m) != m}


def gettext_now(template: str, /, **params: object) -> str:
    """``template`` (an English msgid, ``{name}`` placeholders) translated into the current
    language (:func:`current`) and filled: the CLI and terminal import it as ``_``."""
    return localize(Message(template, **params), current())


def ngettext_now(singular: str, plural: str, n: int, /, **params: object) -> str:
    """The plural form for ``n`` in the current language, filled with ``params`` (and ``n``)."""
    text = translations(current()).ngettext(singular, plural, n)
    try:
        return text.format(n=n, **params)
    except (KeyError, IndexError, ValueError):
        return (singular if n == 1 else plural).format(n=n, **params)


def text_width(text: str) -> int:
    """Terminal columns of ``text``: East Asian wide and full-width characters count 2."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def ljust(text: str, width: int) -> str:
    """``text`` padded on the right to ``width`` terminal columns (CJK-aware ``str.ljust``)."""
    return text + " " * max(0, width - text_width(text))


def rjust(text: str, width: int) -> str:
    """``text`` padded on the left to ``width`` terminal columns (CJK-aware ``str.rjust``)."""
    return " " * max(0, width - text_width(text)) + text
