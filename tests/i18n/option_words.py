"""Helpers of the option-language tests (tests/i18n/test_lobby_options.py,
test_cli_words.py): which Latin words may stand in a translated option text (the English words
of the catalogs are catalogs.english_words)."""

from __future__ import annotations

import re


from citybuilders.core.registry import game_class


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
    "tavern",  # the board section the sections option's example types (tavern:180)
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
