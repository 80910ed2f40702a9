"""Every page template in every language: ``<html lang>``, the language switch, and no visible
English interface string (the visible text is compared with the English catalog's msgids).

Each template in server/templates must be reached by one of ``page_urls`` (a new template
without a URL here fails ``test_every_template_is_checked``), so strings added to pages later
are checked too. Game names, option docs and player names are game texts (their own
catalogs), not interface strings, and are not looked at here.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from catalogs import LANGS, page_msgids
from fastapi.testclient import TestClient

from citybuilders.core.registry import registered_games
from citybuilders.server import create_app

TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "citybuilders" / "server" / "templates"
SKIP_CLASSES = {"opt-doc", "opt-name", "gtitle", "gname", "multi", "brand", "lang"}
"""Game texts (names, option docs and values) and the language names: not interface msgids."""
VISIBLE_ATTRS = ("title", "placeholder", "aria-label", "alt", "value")


class _Visible(HTMLParser):
    """Text nodes and visible attributes of a page, outside scripts and the skipped classes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.texts: list[str] = []
        self.html_lang: str | None = None

    def _skipping(self) -> bool:
        return any(skip for _t, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.html_lang = a.get("lang")
        classes = set((a.get("class") or "").split())
        skip = tag in ("script", "style") or bool(classes & SKIP_CLASSES) or (
            tag == "div" and "opt" in classes)
        if tag not in ("input", "meta", "link", "br", "img", "hr"):
            self.stack.append((tag, skip))
        if not (skip or self._skipping()):
            for k in VISIBLE_ATTRS:
                if a.get(k) and not (tag == "input" and k == "value"):
                    self.texts.append(a[k])
            if tag == "option" and a.get("value", "").startswith("bot:"):
                pass

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if data.strip() and not self._skipping():
            self.texts.append(data.strip())


def visible(html: str) -> tuple[str | None, list[str]]:
    p = _Visible()
    p.feed(html)
    return p.html_lang, p.texts


def english_left(texts: list[str], lang: str) -> list[tuple[str, str]]:
    """(text, msgid) of each visible text that is an English interface string: the whole
    text matches the msgid, or a msgid of two words or more stands in it as a phrase."""
    found = []
    ids = page_msgids(lang)
    for t in texts:
        for mid, rx in ids:
            literal = re.sub(r"%\(\w+\)[sd]|\{[^{}]*\}", "", mid).strip()
            words = len(literal.split())
            # a msgid with placeholders is matched as a pattern only when its own words are two
            # or more ("Start {title}" would match any "Start ..." of a game text)
            whole = rx.match(t) and (literal == mid.strip() or words >= 2)
            if whole or (words >= 2 and len(literal) >= 8 and "{" not in mid and "%(" not in mid
                         and re.search(r"(?<!\w)" + re.escape(literal) + r"(?!\w)", t)):
                found.append((t, mid))
    return found


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("pages") / "pages.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}")) as c:
        yield c


@pytest.fixture(autouse=True)
def _no_language_cookie(request):
    """Each test starts without the ``lang`` cookie that a page's ``?lang=`` sets: the client is
    shared by the module, and xdist runs its tests in any order (a test expecting the English
    default got Chinese after another test's ``?lang=zh-Hant`` page)."""
    if "client" in request.fixturenames:
        request.getfixturevalue("client").cookies.clear()


@pytest.fixture(scope="module")
def page_urls(client) -> list[str]:
    """One URL per page template: home, a play and a replay page of every game, a finished
    game's replay, an error page."""
    urls = ["/"]
    for game in registered_games():
        cls_seats = [{"kind": "human"}]
        r = client.post("/api/games", json={"game": game, "seats": cls_seats})
        if r.status_code != 201:
            r = client.post("/api/games", json={"game": game, "seats": cls_seats * 2})
        if r.status_code != 201:
            continue
        d = r.json()
        tok = d["seats"][0]["token"]
        urls += [f"/play/{d['id']}?t={tok}", f"/replay/{d['id']}?t={tok}"]
    urls += ["/score", "/no-such-page", "/play/abc?t=x"]
    return urls


def test_every_template_is_checked(client, page_urls):
    rendered = set()
    for url in page_urls:
        r = client.get(url)
        name = getattr(getattr(r, "template", None), "name", None)
        if name:
            rendered.add(name)
    # base.html, online.html and the "_" partials are parts of other pages (extended /
    # included), not pages
    pages = {p.name for p in TEMPLATES.glob("*.html")
             if not p.name.startswith("_")} - {"base.html", "online.html"}
    assert pages - rendered == set(), (
        f"templates not reached by tests/i18n/test_pages.py page_urls: {sorted(pages - rendered)}"
        " (add a URL that renders them)")


@pytest.mark.parametrize("lang", LANGS)
def test_no_visible_english_interface_string(client, page_urls, lang):
    html_lang = lang.replace("_", "-")
    problems = []
    for url in page_urls:
        sep = "&" if "?" in url else "?"
        r = client.get(f"{url}{sep}lang={lang}")
        got_lang, texts = visible(r.text)
        if got_lang != html_lang:
            problems.append((url, "html lang", got_lang))
        problems += [(url, t, mid) for t, mid in english_left(texts, lang)]
    assert problems == [], problems[:10]


def test_the_check_catches_english(client):
    """The comparison itself: an English page read as a Portuguese one is full of findings."""
    _lang, texts = visible(client.get("/?lang=en").text)
    found = {mid for _t, mid in english_left(texts, "pt_BR")}
    assert {"Play a city-building game", "My games", "Import and replay"} <= found


def test_language_choice_accept_language_cookie_and_query(client):
    client.cookies.clear()  # the pages read with ?lang= before set the cookie
    assert visible(client.get("/", headers={"Accept-Language": "zh-TW,zh;q=0.9"}).text)[0] \
        == "zh-Hant"
    assert visible(client.get("/", headers={"Accept-Language": "fr, pt;q=0.5"}).text)[0] \
        == "pt-BR"
    assert visible(client.get("/", headers={"Accept-Language": "fr"}).text)[0] == "en"
    r = client.get("/lang/pt-BR?next=/%3Fx%3D1", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/?x=1"
    assert "cb_lang=pt_BR" in r.headers["set-cookie"]
    client.cookies.set("cb_lang", "pt_BR")
    try:
        html = client.get("/", headers={"Accept-Language": "zh-TW"}).text
        assert visible(html)[0] == "pt-BR" and "Minhas partidas" in html
        assert visible(client.get("/?lang=zh-Hant").text)[0] == "zh-Hant"  # ?lang= overrides
        for bad in ("//evil.example/", "https://evil.example/", "/\\evil"):
            r = client.get("/lang/zh-Hant", params={"next": bad}, follow_redirects=False)
            assert r.headers["location"] == "/"
        assert client.get("/lang/xx-YY").status_code == 404
    finally:
        client.cookies.clear()


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_has_the_language_switch(client, page_urls, lang):
    for url in page_urls:
        sep = "&" if "?" in url else "?"
        html = client.get(f"{url}{sep}lang={lang}").text
        assert 'class="langs"' in html, url
        for code in ("en", "pt_BR", "zh_Hant"):
            if code != lang:
                assert f'href="/lang/{code}?next=' in html, (url, code)


def test_page_scripts_get_their_strings(client):
    html = client.get("/?lang=pt_BR").text
    assert '"Cancel": "Cancelar"' in html and '"seat {num}": "lugar {num}"' in html
    assert '<script type="application/json" id="strings">{}</script>' in client.get(
        "/?lang=en").text


def test_api_errors_follow_lang_and_stay_english_by_default(client):
    r = client.get("/api/games/nope/view")
    assert r.status_code in (401, 404) and r.json()["error"].isascii()
    en = r.json()["error"]
    pt = client.get("/api/games/nope/view?lang=pt-BR").json()["error"]
    zh = client.get("/api/games/nope/view?lang=zh-Hant").json()["error"]
    assert pt != en and zh != en and re.search(r"[\u4e00-\u9fff]", zh), (en, pt, zh)
    # Accept-Language alone does not change an API reply (scripts get stable English)
    assert client.get("/api/games/nope/view",
                      headers={"Accept-Language": "pt-BR"}).json()["error"] == en
    r = client.post("/api/games?lang=pt_BR", json={"game": "kingdom-builder", "seats": "x"})
    assert r.status_code == 400 and "esperava-se" in r.json()["error"]


def test_import_note_follows_the_language(client):
    from citybuilders.server.manager import note_text

    note = "the record hides move 4 (a draw you could not see); replay stops before it"
    assert note_text(note, "en") == note
    assert note_text(note, "pt_BR").startswith("o registro oculta o lance 4 ")
    assert note_text("something else", "zh_Hant") == "something else"


def test_view_payload_texts_follow_lang(client):
    if "roll-into-town" not in registered_games():
        pytest.skip("roll-into-town not registered")
    r = client.post("/api/games", json={"game": "roll-into-town", "seats": [{"kind": "human"}]})
    d = r.json()
    tok = d["seats"][0]["token"]
    v_en = client.get(f"/api/games/{d['id']}/view", headers={"X-Seat-Token": tok}).json()
    v_zh = client.get(f"/api/games/{d['id']}/view?lang=zh_Hant",
                      headers={"X-Seat-Token": tok}).json()
    # keys, ids and notation are the same in every language
    assert v_en.keys() == v_zh.keys()
    parts = set(v_en["scores"][0]["parts"])
    assert v_en["score_labels"] == {} and set(v_zh["score_labels"]) == parts
    if "roll-builder" in registered_games():
        r = client.post("/api/games", json={"game": "roll-builder", "seats": [{"kind": "human"}]})
        rb = r.json()
        v = client.get(f"/api/games/{rb['id']}/view?lang=zh-Hant",
                       headers={"X-Seat-Token": rb["seats"][0]["token"]}).json()
        assert v["score_labels"]["roads"] == "道路" and v["score_labels"]["wonder"] == "奇觀"
    assert [m["action"] for m in v_en["legal"]] == [m["action"] for m in v_zh["legal"]]
    with client.websocket_connect(f"/ws/games/{d['id']}?token={tok}&lang=zh-Hant") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "view"
        ws.send_text('{"type": "nonsense"}')
        err = ws.receive_json()
    assert err["type"] == "error" and "需要" in err["error"]
