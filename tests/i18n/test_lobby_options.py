"""The games' options in the web lobby speak the reader's language: in zh-Hant and pt-BR the
labels, questions, value names and the opened details ("More about this choice": the doc
and each alternative) of every option of every game's create form hold no English word.

The home page is rendered by the server (Jinja2 macros ``opt_control``/``opt_more``), so its
HTML is read as served (TestClient), every text of it: the option's source (a bibliographic
reference: rulebook sections, digest entries, issues) and its identifier are for developers
(``citybuilders options``, docs/rules-options.md) and no longer on the page, and a yes/no
option's alternative is named "Yes"/"No" in words, not "True"/"False".
Words are read as tests/e2e/test_no_english.py reads them:
in zh-Hant every Latin word of 3+ letters outside the allowlist, in pt-BR every English word
of the catalogs (``catalogs.english_words``).
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from catalogs import english_words
from option_words import allowed_words

from citybuilders.core.registry import game_class, registered_games
from citybuilders.server import create_app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from words import latin_words  # noqa: E402


class _OptionTexts(HTMLParser):
    """{game id: [text...]} of the ``div.opt`` blocks of each create form (every text)."""

    VOID = {"input", "br", "img", "hr", "meta", "link"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.game: str | None = None
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, opens an option, skipped)
        self.texts: dict[str, list[str]] = {}

    def _inside(self) -> bool:
        return any(opt for _t, opt, _s in self.stack) and not any(s for *_x, s in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("data-game"):
            self.game = a["data-game"]
            self.texts.setdefault(self.game, [])
        if tag in self.VOID:
            return
        opens = tag == "div" and "opt" in (a.get("class") or "").split()
        self.stack.append((tag, opens, False))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if data.strip() and self.game and self._inside():
            self.texts[self.game].append(data.strip())


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("lobby") / "lobby.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}")) as c:
        yield c


def option_texts(client, lang: str) -> _OptionTexts:
    p = _OptionTexts()
    p.feed(client.get(f"/?lang={lang}").text)
    return p


@pytest.mark.parametrize("lang", ["zh_Hant", "pt_BR"])
@pytest.mark.parametrize("game", registered_games())
def test_lobby_options_speak_the_language(client, lang, game):
    p = option_texts(client, lang)
    texts = p.texts[game]
    assert texts, f"no option of {game} on the home page"
    found = latin_words(texts, allowed_words(game))
    if lang == "pt_BR":
        bad = english_words()
        found = {w: line for w, line in found.items() if w.lower() in bad}
    assert found == {}, found


def test_lobby_option_texts_exact(client):
    """One option in each language, word for word (label, question, value names, doc,
    alternative), and the English page unchanged."""
    def one(lang: str) -> list[str]:
        texts = option_texts(client, lang).texts["sprawlopolis"]
        i = texts.index({"en": "Edge of the city", "pt_BR": "Borda da cidade",
                         "zh_Hant": "城市邊緣"}[lang])
        return texts[i:i + 8]

    assert one("zh_Hant") == [
        "城市邊緣", "封閉空洞的邊算作城市邊緣嗎？", "局部（一般規則）", "外圍",
        "關於此選項的更多說明",
        "什麼是城市邊緣（城郊、中央公園、觀光陷阱）？`local`：任何外側沒有街區的街區邊，"
        "包括面向封閉空洞的邊。", "外圍", ": 只算與城市外部相通的開放邊；封閉空洞屬於內部"]
    assert one("en")[0:2] == ["Edge of the city",
                              "Do the sides of an enclosed hole count as the edge of the city?"]
    assert one("en")[6:8] == ["Outer", ": only open sides connected to the outside of the "
                              "city; enclosed holes are interior"]


@pytest.mark.parametrize("lang", ["en", "zh_Hant", "pt_BR"])
def test_no_developer_reference_in_the_lobby(client, lang):
    """No option's source ("rulebook Preparação 1", "digest §10.3", "issue 15",
    "roll_games_notes.md §6") nor identifier on the page, in any language (English too), and
    a yes/no option's alternatives read "Yes"/"No" (its translation), never "True"/"False"."""
    p = option_texts(client, lang)
    for g in registered_games():
        text = " ".join(p.texts[g])
        for o in game_class(g).option_specs:
            assert not o.source or o.source not in text, (g, o.name)
            assert o.name not in p.texts[g], (g, o.name)  # the old `<code>` line
        assert not {"True", "False", "true", "false"} & set(text.replace(":", " ").split()), g
