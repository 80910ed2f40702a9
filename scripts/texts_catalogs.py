#!/usr/bin/env python3
"""Extract, update and compile the games' text catalogs (the tables of games/<game>/texts.py).

    .venv/bin/python scripts/texts_catalogs.py                # every game: .pot, .po merge, .mo
    .venv/bin/python scripts/texts_catalogs.py sprawlopolis   # one game
    .venv/bin/python scripts/texts_catalogs.py --check        # report problems, change nothing

After editing an English table run it, translate the new (empty) entries of each
``locale/<lang>/LC_MESSAGES/texts.po`` and run it again to compile. ``--check`` exits 1 when a
string is untranslated or fuzzy, a placeholder or number differs, or a ``.mo`` is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from citybuilders.core import textcat  # noqa: E402

GAMES = ("kingdom_builder", "sprawlopolis", "roll_into_town", "roll_builder")


def main(argv: list[str]) -> int:
    check = "--check" in argv
    games = [a for a in argv if not a.startswith("--")] or list(GAMES)
    bad = 0
    for game in games:
        if check:
            for lang in textcat.TRANSLATED:
                for line in textcat.problems(game, lang):
                    print(f"{game}: {line}")
                    bad += 1
        else:
            for path in textcat.update_catalogs(game):
                print(f"wrote {path}")
            for lang in textcat.TRANSLATED:
                todo = textcat.problems(game, lang)
                if todo:
                    print(f"{game} {lang}: {len(todo)} to translate or fix")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
