"""The "Your view" panels of the play and replay pages: a seat's observation for people.

Game-agnostic: a game lays out its own panels in its ``render.py`` (``View.display_panels``,
reached through ``game.view``); helpers and the generic fallback are in ``core/panels.py``.
A game whose observation has a ``"display"`` object supplies its panels that way (title ->
value). Only what is in the seat's observation is shown, so nothing hidden can leak here.
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any, Sequence

from ..core.game import Game
from ..core.errors import UnknownGameError
from ..core.i18n import Message, localize, using
from ..core.panels import Panel, clean, generic_panels
from ..core.registry import game_class
from ..core.view import View

__all__ = ["display_panels", "clean", "texts_for", "score_labels"]

_LABEL_TABLES = ("CATEGORY_NAMES", "SCORE_PART_NAMES", "CARD_NAMES", "ZONE_NAMES", "TASK_NAMES")
"""The tables of a game's texts that may name a score part (first match wins)."""


def texts_for(game: Game, lang: str) -> Any:
    """The game's player-facing tables in ``lang`` (its ``texts.for_language``), or None for a
    game without a texts module."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        mod = importlib.import_module(package + ".texts")
    except ImportError:
        return None
    fn = getattr(mod, "for_language", None)
    return fn(lang) if callable(fn) else mod


def notation_words(game: Game, lang: str) -> dict[str, str]:
    """The game's ``NOTATION_WORDS`` table (texts.py) in ``lang``: English word of its
    notation -> the reader's word; empty for English or a game without the table (the page
    scripts gloss click keys with it, ``CB.labelOf``)."""
    if lang == "en":
        return {}
    words = getattr(texts_for(game, lang), "NOTATION_WORDS", None)
    return {k: v for k, v in words.items() if k != v} if isinstance(words, dict) else {}


def notation_text(game: Game, text: str, lang: str) -> str:
    """A move's notation (a log line, a button) in words of ``lang``: each word of the
    game's ``NOTATION_WORDS`` glossed (``core.i18n.gloss``); English, or a game without the
    table: ``text`` unchanged."""
    from ..core.i18n import gloss

    return gloss(text, notation_words(game, lang)) if lang != "en" else text


def score_labels(game: Game, keys: Sequence[str], lang: str) -> dict[str, str]:
    """Score part key -> its name in ``lang`` for the score table's headings (the keys stay
    the JSON interface). From the game's texts (categories, cards, zones, tasks), else the
    interface catalog ("roads", "castles"); keys with no translation are left out; English:
    empty (the page shows the keys)."""
    if lang == "en" or not keys:
        return {}
    from ..core.i18n import localize

    tables = texts_for(game, lang)
    found = [t for t in (getattr(tables, n, None) for n in _LABEL_TABLES) if isinstance(t, dict)]
    out: dict[str, str] = {}
    numbered = getattr(tables, "CONDITION_NAMES", None)
    for key in keys:
        num = re.fullmatch(r"(\d+) (.+)", key)
        for table in found:
            if key in table:
                out[key] = str(table[key])
                break
        else:
            if num and isinstance(numbered, dict) and int(num.group(1)) in numbered:
                # a numbered card's part ("12 Superhighway"): its number and name
                out[key] = f"{num.group(1)} {numbered[int(num.group(1))]}"
                continue
            text = localize(key, lang)
            if text != key:
                out[key] = text
    return out


def _takes_lang(fn: Any) -> bool:
    key = getattr(fn, "__func__", fn)
    hit = _TAKES_LANG.get(key)
    if hit is None:
        try:
            hit = "lang" in inspect.signature(fn).parameters
        except (TypeError, ValueError):
            hit = False
        _TAKES_LANG[key] = hit
    return hit


_TAKES_LANG: dict[Any, bool] = {}


def display_panels(game: Game | str, obs: Any, names: Sequence[str], you: int | None,
                   terminal: bool, lang: str = "en") -> list[Panel]:
    """The panels of seat ``you``'s observation ``obs`` of ``game``.

    ``game``: the game, or its registry name (an unknown name gets the generic panels).
    ``names``: the seat names in seat order; ``you``: the viewing seat, or None on a replay
    without a seat of one's own (no "(you)"). ``lang``: passed on to a game's
    ``display_panels`` that takes it (its texts in that language). Never raises: a
    game-specific layout that fails falls back to the generic one."""
    if not isinstance(obs, dict):
        return []
    own = obs.get("display")
    if isinstance(own, dict):
        return [{"title": str(k), "value": v} for k, v in own.items()]
    view = game.view if isinstance(game, Game) else _view_of(game)
    with using(lang):  # core.panels helpers ("(you)") speak the reader's language
        try:
            if _takes_lang(view.display_panels):
                panels = view.display_panels(obs, names, you, terminal, lang=lang)
            else:
                panels = view.display_panels(obs, names, you, terminal)
        except Exception:  # noqa: BLE001 - an unexpected observation shape: generic panels
            panels = None
        if panels is None:
            return generic_panels(obs, names, you)
        return [_localized(p, lang) for p in panels]


def _localized(value: Any, lang: str) -> Any:
    """``value`` with every :class:`~..core.i18n.Message` in it (panel titles, row labels,
    words such as "hidden" that the game's panels mark with ``N_``) in ``lang``; other strings
    (names, notation) unchanged."""
    if isinstance(value, Message):
        return localize(value, lang)
    if isinstance(value, dict):
        return {(localize(k, lang) if isinstance(k, Message) else k): _localized(v, lang)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_localized(v, lang) for v in value]
    return value


def _view_of(name: str) -> View:
    try:
        return game_class(name).view
    except UnknownGameError:
        return View()
