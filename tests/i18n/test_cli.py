"""The CLI and the terminal in three languages: --lang, LANG/LC_ALL, translated score tables,
ranks, help and one-line errors (exit 2); JSON output and notation stay English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from citybuilders.cli import main
from citybuilders.core.i18n import env_language, set_current
from citybuilders.games.roll_into_town import texts as rit_texts

SHEET = {"game": "roll-into-town", "map": [
    "oc oc oc oc c:NW . . . .",
    "oc oc oc c:NW HO HO HO . .",
    "oc oc c:NW LT HO TA HO . .",
    "oc c:NW . LB HO HO HO . .",
    "c:NW fa fa mo TH QU mo . .",
    ". . CA . . . . . .",
    ". . CA CA . . . . .",
    ". . CA CA . . . . .",
    "r:EW r:EW r:EW r:EW r:EW r:EW r:EW r:EW r:EW"]}
HAN = re.compile(r"[\u4e00-\u9fff]")
RIT_CATALOG = (Path(rit_texts.__file__).parent / "locale" / "zh_Hant" / "LC_MESSAGES"
               / "texts.mo")


@pytest.fixture(autouse=True)
def _english_terminal(monkeypatch):
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)
    yield
    set_current(None)


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def sheet(tmp_path):
    f = tmp_path / "sheet.json"
    f.write_text(json.dumps(SHEET), encoding="utf-8")
    return str(f)


def test_score_in_chinese_prints_the_chinese_breakdown_and_rank(capsys, sheet):
    code, out, err = run(capsys, "--lang", "zh-Hant", "score", "roll-into-town", sheet)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("項目")
    assert any(line.startswith("總分") and line.rstrip().endswith("72") for line in lines)
    rank = rit_texts.for_language("zh_Hant").RANK_NAMES["great mayor"]
    assert lines[-1] == f"單人等級：{rank}"
    cats = rit_texts.for_language("zh_Hant").CATEGORY_NAMES
    assert any(line.startswith(cats["lighthouse"]) and line.rstrip().endswith("15")
               for line in lines)
    if RIT_CATALOG.exists():  # the game's own catalog names the rank in Chinese (等級)
        assert HAN.search(rank), rank
    # the English table is unchanged
    code, out, _ = run(capsys, "score", "roll-into-town", sheet)
    assert out.splitlines()[-1] == "solo rank: great mayor" and "category" in out


def test_json_output_keys_and_ids_stay_english(capsys, sheet):
    _, en, _ = run(capsys, "score", "roll-into-town", sheet, "--json")
    _, zh, _ = run(capsys, "--lang", "zh-Hant", "score", "roll-into-town", sheet, "--json")
    assert json.loads(zh) == json.loads(en)
    assert json.loads(zh)["players"][0]["rank"] == "great mayor"


def test_an_error_in_portuguese_is_one_translated_line_exit_2(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"map": ["x"]}), encoding="utf-8")
    code, out, err = run(capsys, "--lang", "pt-BR", "score", "roll-into-town", str(bad))
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err == "erro: map: esperavam-se 9 linhas, vieram 1 (defina options.rows para outro " \
                  "tamanho)\n"
    code, _, err = run(capsys, "--lang", "pt-BR", "score", "roll-into-town",
                       str(tmp_path / "missing.json"))
    assert code == 2 and err == f"erro: {tmp_path / 'missing.json'}: arquivo não encontrado\n"
    code, _, err = run(capsys, "--lang", "pt-BR", "score", "no-such-game", str(bad))
    assert code == 2 and err.startswith("erro: jogo desconhecido 'no-such-game'; jogos "
                                        "registrados: ") and err.count("\n") == 1


def test_usage_errors_and_unknown_language(capsys):
    code, _, err = run(capsys, "--lang", "pt-BR", "score")
    assert code == 2 and err.startswith("erro: ") and "(veja 'citybuilders --help')" in err
    assert err.count("\n") == 1
    code, _, err = run(capsys, "--lang", "klingon", "games")
    assert code == 2 and err == ("error: --lang 'klingon': unknown language; allowed: en, "
                                 "pt-BR, zh-Hant\n")


def test_lang_and_lc_all_choose_the_terminal_language(capsys, sheet, monkeypatch):
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    assert env_language() == "pt_BR"
    code, out, _ = run(capsys, "score", "roll-into-town", sheet)
    assert code == 0 and out.startswith("categoria") and "nível solo: " in out
    monkeypatch.setenv("LC_ALL", "zh_TW.UTF-8")  # LC_ALL wins over LANG
    _, out, _ = run(capsys, "score", "roll-into-town", sheet)
    assert out.startswith("項目")
    _, out, _ = run(capsys, "--lang", "en", "score", "roll-into-town", sheet)
    assert out.startswith("category")  # --lang wins over the environment
    monkeypatch.setenv("LC_ALL", "C")
    _, out, _ = run(capsys, "score", "roll-into-town", sheet)
    assert out.startswith("category")


def test_help_is_translated(capsys):
    code, out, _ = run(capsys, "--lang", "pt-BR", "--help")
    assert code == 0 and "Lista os jogos registrados." in out and "Comandos" in out
    code, out, _ = run(capsys, "--lang", "zh-Hant", "score", "--help")
    assert code == 0 and "計算完成或假設局面的分數" in out
    code, out, _ = run(capsys, "--help")
    assert "List the registered games." in out


@pytest.mark.parametrize("command", ["", "games", "options", "score", "moves", "play",
                                     "simulate", "report", "tournament", "replay", "serve",
                                     "sheets"])
def test_help_shows_no_value_type_beside_a_flag(capsys, command):
    """``--help``, ``--json``, ``--color/--no-color`` take no value: no ``<bool>`` beside them
    (new-user item 19), while options that take one keep their type (``<int>``...)."""
    code, out, _ = run(capsys, *([command] if command else []), "--help")
    assert code == 0 and "--help" in out
    assert "<bool>" not in out, out
    if command == "simulate":
        assert "<int" in out


@pytest.mark.parametrize("game,data,want", [
    ("kingdom-builder", {"game": "kingdom-builder", "sections": "x"}, "erro: "),
    ("sprawlopolis", {"conditions": [1]}, "erro: conditions: esperava-se uma lista de 3"),
    ("roll-builder", {"sheet": "nope"}, "erro: sheet: cartela desconhecida 'nope'"),
])
def test_score_file_errors_of_every_game_in_portuguese(capsys, tmp_path, game, data, want):
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(capsys, "--lang", "pt-BR", "score", game, str(f))
    assert code == 2 and err.startswith(want) and err.count("\n") == 1, err


def test_terminal_play_speaks_the_language(capsys, monkeypatch):
    import io

    from citybuilders.core.registry import load_game
    from citybuilders.terminal import play_terminal

    set_current("pt_BR")
    out = io.StringIO()
    lines = iter(["help", "nonsense-move", "quit"])
    play_terminal(load_game("sprawlopolis"), ["human"], seed=1, color=False,
                  inp=lambda prompt: next(lines), out=out)
    text = out.getvalue()
    assert "Digite um lance em notação" in text and "semente 1" in text
    assert "erro: " in text and "partida abandonada" in text
