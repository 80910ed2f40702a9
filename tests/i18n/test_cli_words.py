"""No English word in the CLI's and the terminal's zh-Hant output, read word by word (the
same reading as tests/e2e/test_no_english.py: every Latin-letter word of 3+ letters outside a
short allowlist is English that was never translated)."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from citybuilders.cli import main
from citybuilders.core.i18n import set_current
from citybuilders.core.registry import game_class, load_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from words import latin_words  # noqa: E402

from test_cli import SHEET  # noqa: E402

from catalogs import english_words  # noqa: E402
from option_words import allowed_words  # noqa: E402

ALLOW = {
    "citybuilders",  # the product's name
    # the games' titles: the Portuguese and Chinese rulebooks print them in Latin letters
    "Kingdom", "Builder", "Crossroads", "Sprawlopolis", "Roll", "into", "Town",
    # metavars and value types of the command line: what is typed, the same in every language
    "LANG", "COMMAND", "OPTIONS", "ARGS", "bool", "str", "int", "float", "path", "list",
    "Bradley", "Terry",  # the Bradley-Terry rating, named after its authors
    "HTML", "JSON",  # file formats
    "Hant",  # the language tag zh-Hant, typed as it is
    "help",  # 'citybuilders --help': the help option's name
    "docs", "formats", "score",  # paths of the documentation (docs/formats.md, docs/score.md)
}


def _notation() -> set[str]:
    """Words of what is typed on the command line: the commands, their option and argument
    names and the games' ids (``--games``, ``'game'``, ``kingdom-builder``)."""
    import re

    import typer.main

    from citybuilders.cli import app
    from citybuilders.core.registry import registered_games

    words: set[str] = set()

    def walk(cmd) -> None:
        words.update(re.findall(r"[A-Za-z]+", cmd.name or ""))
        for p in cmd.params:
            for o in [*getattr(p, "opts", []), *getattr(p, "secondary_opts", []), p.name or ""]:
                words.update(re.findall(r"[A-Za-z]+", o))
        for sub in getattr(cmd, "commands", {}).values():
            walk(sub)

    walk(typer.main.get_command(app))
    for g in registered_games():
        words.update(re.findall(r"[A-Za-z]+", g))
    return words


@pytest.fixture(autouse=True)
def _no_environment_language(monkeypatch):
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("COLUMNS", "100")
    yield
    set_current(None)


def _out(capsys, *args: str) -> tuple[int, str]:
    code = main(["--lang", "zh-Hant", *args])
    got = capsys.readouterr()
    return code, got.out + got.err


@pytest.mark.parametrize("args", [
    ("--help",), ("score", "--help"), ("games",),
    ("score",),  # click: a missing argument
    ("score", "--nope"),  # click: an unknown option
    ("nope",),  # click: an unknown command
    ("simulate", "kingdom-builder", "--games", "abc"),  # click: a value of the wrong type
    ("score", "roll-into-town", "a", "b"),  # click: extra arguments
    ("options", "nosuchgame"),  # ours
])
def test_cli_speaks_chinese(capsys, args):
    code, out = _out(capsys, *args)
    assert code in (0, 2)
    typed = {w for a in args for w in a.replace("-", " ").split()}
    assert latin_words([out], ALLOW | _notation() | typed) == {}, out


def test_score_breakdown_speaks_chinese(capsys, tmp_path):
    f = tmp_path / "sheet.json"
    # named: a sheet without a name is "Player 1" in every language (data: the --json output
    # is the same in every language, tests/i18n/test_cli.py)
    f.write_text(json.dumps({**SHEET, "name": "Zoe"}), encoding="utf-8")
    code, out = _out(capsys, "score", "roll-into-town", str(f))
    assert code == 0 and "Zoe" in out
    assert latin_words([out], ALLOW | {"Zoe"}) == {}, out


def test_click_errors_are_one_translated_line_exit_2(capsys):
    code, out = _out(capsys, "score", "--nope")
    assert (code, out) == (2, "錯誤：沒有這個選項：--nope（請見 'citybuilders --help'）\n")
    code, out = _out(capsys, "simulate", "kingdom-builder", "--games", "abc")
    assert (code, out) == (2, "錯誤：'--games' / '-n' 的值無效：應為整數（請見 'citybuilders --help'）\n")
    code = main(["score", "--nope"])  # English stays click's
    assert capsys.readouterr().err == "error: No such option: --nope (see 'citybuilders --help')\n"
    assert code == 2


GAMES = ["kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder"]

TYPED = {
    "moves", "hint", "rules", "help",  # the terminal's commands, named in its first prompt
    "play", "rot",  # Sprawlopolis' move pattern "play CARD at ROW,COL [rot 180]"
}
"""Words the player types: the terminal names them as they are typed, in every language."""

QUOTED = re.compile(r"「[^」]*」|(?<![A-Za-z])'[^']*'")
"""A typed example quoted in a message (「build 0,2」, 'build 0,2'; not the apostrophe of
"moinho d'água"): notation, not words."""


def _terminal(game: str, lang: str) -> str:
    """The terminal's output in ``lang``, its prompts included ("P1 (human)> "): the first
    board, 'score', 'board' again, then quit (the typed examples in quotes removed)."""
    from citybuilders.terminal import play_terminal

    set_current(lang)
    out = io.StringIO()
    lines = iter(["score", "board", "quit"])
    play_terminal(load_game(game), ["human"] + ["random"] * (game == "kingdom-builder"),
                  seed=1, color=False, inp=lambda prompt: (out.write(prompt), next(lines))[1],
                  out=out)
    return QUOTED.sub(" ", out.getvalue())


@pytest.mark.parametrize("game", GAMES)
def test_terminal_board_speaks_chinese(game):
    # test defect fixed: the seat was "bot:random", which raised "unknown bot" before any board
    out = _terminal(game, "zh_Hant")
    assert out.count("對局已放棄") == 1  # the game ran to the 'quit' (a board was shown)
    assert latin_words([out], ALLOW | TYPED) == {}, out


@pytest.mark.parametrize("game", GAMES)
def test_terminal_board_speaks_portuguese(game):
    out = _terminal(game, "pt_BR")
    assert out.count("partida abandonada") == 1
    bad = english_words()
    # the list is the one meant: English words of the boards in it, "favor" (Portuguese too) not
    assert {"mandatory", "favor", "choosing", "icons"} & bad == {"mandatory", "choosing", "icons"}
    found = latin_words([out], ALLOW | TYPED)
    assert {w: line for w, line in found.items() if w.lower() in bad} == {}, out


def test_terminal_board_english_unchanged():
    """English stays the board's first words (the reading the tests of the games check)."""
    out = _terminal("sprawlopolis", "en")
    assert "Sprawlopolis - conditions 3-10-12 (target 25): 3 Go Green, 10 The Strip, " \
        "12 Superhighway\n" in out
    assert "deck: 10 face down, next card 1; plays 0/14\n" in out


@pytest.mark.parametrize("lang", ["zh-Hant", "pt-BR"])
@pytest.mark.parametrize("game", ["kingdom-builder", "sprawlopolis", "roll-into-town",
                                  "roll-builder"])
def test_options_speak_the_language(capsys, game, lang):
    """``citybuilders --lang L options GAME``: no English word but what is typed (option names,
    values, defaults: ``option_words.allowed_words``) and the sources, bibliographic references
    kept as written (docs/developing.md, "Languages"); pt-BR read for the catalogs' English
    words, as tests/e2e/test_no_english.py reads pages."""
    code = main(["--lang", lang, "options", game])
    out = capsys.readouterr().out
    label = {"zh-Hant": "出處：", "pt-BR": "fonte: "}[lang]
    lines = out.splitlines()
    sources = [ln for ln in lines if ln.strip().startswith(label)]
    assert code == 0 and len(sources) == sum(1 for o in game_class(game).option_specs
                                             if o.source)
    rest = [ln for ln in lines if ln not in sources]
    found = latin_words(rest, allowed_words(game))
    if lang == "pt-BR":
        bad = english_words()
        found = {w: line for w, line in found.items() if w.lower() in bad}
    assert found == {}, found


def test_options_speak_chinese(capsys):
    code, out = _out(capsys, "options", "sprawlopolis")
    assert code == 0
    assert out.splitlines()[1:8] == [
        "  設置",
        "    計分條件: 哪三個計分條件決定本局的目標？",
        "      conditions = None  ［可用值：以下值的清單：1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, "
        "13, 14, 15, 16, 17, 18］",
        "      三張計分條件卡（卡號 1-18）；卡號之和為目標分數。預設：由種子隨機抽出。",
        "      出處：rulebook, Preparação step 1",
        "  規則變體",
        "    難度: 城市計分要多難？",
    ]
    assert latin_words([ln for ln in out.splitlines() if "出處：" not in ln],
                       allowed_words("sprawlopolis")) == {}


def test_options_stay_english_without_a_language(capsys):
    main(["options", "roll-into-town"])
    out = capsys.readouterr().out
    assert out.splitlines()[1:4] == [
        "  Setup",
        "    Map rows: How many rows of cells does the map have?",
        "      rows = 9  [allowed: an integer from 5 to 15]",
    ]
