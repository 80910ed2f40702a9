"""Helpers of the option-language tests (tests/i18n/test_lobby_options.py,
test_cli_words.py): which Latin words may stand in a translated option text, and the English
words of the catalogs (the pt-BR reading of tests/e2e/test_no_english.py)."""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

from catalogs import catalog

from citybuilders.core import textcat
from citybuilders.core.registry import game_class, registered_games

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from words import WORD  # noqa: E402

ALLOW = {
    "citybuilders",  # the product's name
    # the games' titles: the Portuguese and Chinese rulebooks print them in Latin letters
    "Kingdom", "Builder", "Crossroads", "Sprawlopolis", "Roll", "into", "Town",
    "JSON", "KiB", "PATH",  # a file's format, its size unit, the command line's metavar
    "data", "json", "docs", "formats", "sheet", "sheets",  # paths and a command (typed)
    # names of other implementations and people the docs cite (Board Game Arena, kbc,
    # Counterfeiter, the designer Donald X. Vaccarino)
    "BGA", "kbc", "Counterfeiter", "Donald",
    "None", "True", "False",  # the defaults as Python writes them (the line shows what is typed)
    "true", "false",  # the values of a yes/no option as typed
    "done",  # the command that ends a turn at the terminal prompt (typed as it is)
}


def allowed_words(game: str) -> set[str]:
    """ALLOW plus what is typed for ``game``'s options: their names, their choice values and
    the words of the game id (``-o city_edge=local``; the docs cite values as `local`)."""
    words = set(ALLOW) | set(re.findall(r"[A-Za-z]+", game))
    for o in game_class(game).option_specs:
        words.add(o.name)
        for c in [*(o.choices or ()), *o.alternatives]:
            words.update(re.findall(r"[A-Za-z]+", str(c)))
    return words


@lru_cache(maxsize=None)
def english_words() -> frozenset[str]:
    """Lower-case words (3+ letters) of the English msgids of every catalog (interface and the
    games' texts) that no Portuguese translation of those catalogs contains (the same list as
    tests/e2e/test_no_english.py's ``english_words``)."""
    en: set[str] = set()
    pt: set[str] = set()

    def strip(text: str) -> str:
        return re.sub(r"%\(\w+\)[sd]|\{[^{}]*\}", " ", text)

    def add(cat) -> None:
        for m in cat:
            if not m.id:
                continue
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strs = m.string if isinstance(m.string, tuple) else (m.string,)
            for s in ids:
                en.update(w.lower() for w in WORD.findall(strip(s)) if len(w) >= 3)
            for s in strs:
                pt.update(w.lower() for w in WORD.findall(strip(s or "")) if len(w) >= 3)

    add(catalog("pt_BR"))
    for game in registered_games():
        mod = textcat.texts_module(game.replace("-", "_"))
        add(textcat.read_po(textcat.po_path(mod, "pt_BR"), "pt_BR"))
    return frozenset(en - pt)
