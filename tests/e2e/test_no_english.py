"""No English word on any page in 繁體中文 or Português (Brasil), read word by word in Chromium.

tests/e2e/test_languages.py compares the visible text with the English interface msgids, so
it cannot see a string that was never marked for translation (a panel value, a board label, a
log line, an SVG tooltip). This test reads what a person sees (``words.page_texts``: the
rendered text, SVG ``<text>``, ``title``/``aria-label``/``placeholder``/``alt`` attributes and
SVG ``<title>``s of visible elements) on the home page, the score page, every game's play
page (start, after a few clicks, the end screen), the replay page and the online pages (the
invite panel, the spectator view), and flags:

* in zh-Hant every Latin-letter word of 3 letters or more that is not in ``ALLOW_ZH``;
* in pt-BR every English word of the catalogs (``english_words``: the words of the English
  msgids that no Portuguese translation uses) that is not in ``ALLOW``.

An allowlist entry needs a reason on its line (docs/developing.md, "Languages").
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from driver import _FRAMES, _READY, step
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from ui_helpers import _call
from words import latin_words, page_texts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "i18n"))
from catalogs import english_words  # noqa: E402
from option_words import allowed_words  # noqa: E402

from citybuilders.core.registry import registered_games  # noqa: E402

NAMES = ("Zoe", "Kai")
"""The seat names the test types: a player's own name is never translated."""

ALLOW = {
    "citybuilders",  # the product's name
    # the games' titles: the Portuguese and Chinese rulebooks print them in Latin letters
    "Kingdom", "Builder", "Crossroads", "Sprawlopolis", "Roll", "into", "Town",
    # the language switch names each language in its own language
    "English", "Português", "Brasil",
    "JSON",  # the record file's format, named as the file dialog shows it
    "Home", "End",  # the key caps of the replay's keyboard shortcuts
    "Secrets", "Simul", "Toy",  # titles of the test games (tests/server/helpers.py)
    *NAMES,
}
ALLOW_ZH = ALLOW
GAMES = ("kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder")
LOCALES = {"zh_Hant": "zh-TW", "pt_BR": "pt-BR"}


def leaks(page, lang: str, allow: set[str] = frozenset()) -> dict[str, str]:
    """{word: line} of the English words on ``page`` (see the module docstring); ``allow``:
    more words that stand as typed (the lobby's option names and values)."""
    found = latin_words(page_texts(page), (ALLOW_ZH if lang == "zh_Hant" else ALLOW) | allow)
    if lang == "pt_BR":
        bad = english_words()
        found = {w: line for w, line in found.items() if w.lower() in bad}
    return found


def _check(page, lang: str, where: str, seen: dict[str, dict[str, str]],
           allow: set[str] = frozenset()) -> None:
    found = leaks(page, lang, allow)
    if found:
        seen[where] = found


def _shots(page, stem: Path) -> None:
    """Screenshots of ``page`` at desktop 1280x800 and phone 390x844 (whole page):
    ``<stem>-desktop.png``, ``<stem>-phone.png`` (look at them: boxes instead of glyphs,
    clipped or overflowing text)."""
    page.screenshot(path=f"{stem}-desktop.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=f"{stem}-phone.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    # the board is sized again in the next frame (CB.zoomApply on resize): let it settle
    page.evaluate(_FRAMES)


def _play_out(base: str, g: dict) -> None:
    """Random legal moves by the API for every human seat of ``g`` until the game ends (the
    bots move meanwhile)."""
    rng = random.Random(5)
    idle = 0
    while True:
        moved = False
        for tok in g["tokens"].values():
            status, view = _call(f"{base}/api/games/{g['id']}/view", token=tok)
            assert status == 200, view
            if view["terminal"]:
                return
            if view["legal"]:
                a = rng.choice(view["legal"])["action"]
                status, _ = _call(f"{base}/api/games/{g['id']}/act",
                                  {"state_id": view["state_id"], "action": a}, tok)
                assert status in (200, 409)
                moved = True
        idle = 0 if moved else idle + 1
        assert idle < 400, "the game stopped moving"
        if not moved:
            time.sleep(0.05)


def _create(page, base: str, game: str, seats: list[str]) -> dict:
    """Start ``game`` from the home page form, typing the seat names; returns the shape of
    ui_helpers.new_game (``id``, ``tokens``, ``url``) for the human seat 0."""
    page.goto(base + "/")
    det = page.locator(f"#new-{game}")
    if det.get_attribute("open") is None:
        det.locator(":scope > summary").click()
    form = det.locator("form.create-form")
    form.locator("select[name=num_players]").select_option(str(len(seats)))
    for i, s in enumerate(seats):
        form.locator(f"select[name=seat{i}]").select_option(s)
        if s in ("human", "invite"):
            form.locator(f"input[name=name{i}]").fill(NAMES[i])
    form.locator("button.create-button").click()
    page.wait_for_url("**/play/**")
    page.wait_for_function("document.body.dataset.stateId !== undefined")
    url = urlparse(page.url)
    return {"id": url.path.rsplit("/", 1)[-1], "tokens": {0: parse_qs(url.query)["t"][0]},
            "url": page.url}


def _our_move_ready(page, seconds: float = 5.0) -> bool:
    """True once this page has a target to click or shows the end (False after ``seconds``:
    another seat is to move)."""
    try:
        page.wait_for_function(_READY, timeout=seconds * 1000)
        return True
    except PlaywrightTimeout:
        return False


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("game", GAMES)
def test_no_english_word_while_playing(browser, live_server, artifacts, game, lang):
    """Start, a few clicks, the end screen and the replay of ``game`` (Kingdom Builder: with
    a friend's invite seat, so the online panel and the spectator view are read too)."""
    if game not in registered_games():
        pytest.skip("game not registered")
    ctx = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    seen: dict[str, dict[str, str]] = {}
    try:
        seats = {"kingdom-builder": ["human", "invite", "bot:random"]}.get(game, ["human"])
        g = _create(page, live_server, game, seats)
        _check(page, lang, "start", seen)
        _shots(page, artifacts / f"words-{game}-{lang}-start")
        for _ in range(4):
            # the seats' order is drawn by the game's seed: when the friend's invite seat is
            # to move, this page has no target, so the clicks stop there
            if not _our_move_ready(page) or not step(page):
                break
        _check(page, lang, "moves", seen)
        if game == "kingdom-builder":
            spect = page.locator("#spectator-link").input_value()
            other = ctx.new_page()
            other.goto(spect)
            other.wait_for_function("document.body.dataset.stateId !== undefined")
            _check(other, lang, "spectator", seen)
            invite = page.locator(".invite-link[data-seat='1']").input_value()
            other.goto(invite)
            other.wait_for_function("document.body.dataset.stateId !== undefined")
            g["tokens"][1] = parse_qs(urlparse(other.url).query)["t"][0]
            other.close()
        _play_out(live_server, g)
        page.reload()
        # the end screen shows once per game: if this page saw the end live, "Final scores"
        page.wait_for_selector("#endscreen:not([hidden]), #end-open:not([hidden])", timeout=30000)
        if page.locator("#endscreen").is_hidden():
            page.locator("#end-open").click()
        page.wait_for_selector("#endscreen:not([hidden])", timeout=30000)
        _check(page, lang, "end", seen)
        _shots(page, artifacts / f"words-{game}-{lang}-end")
        page.goto(f"{live_server}/replay/{g['id']}?t={g['tokens'][0]}")
        page.wait_for_function("document.getElementById('stepinfo').textContent.includes('/')")
        _check(page, lang, "replay", seen)
    finally:
        ctx.close()
    assert seen == {}, _report(seen)


def _report(seen: dict[str, dict[str, str]]) -> str:
    return "English words left:\n" + "\n".join(
        f"  {where}: {word!r} in {line!r}" for where, found in seen.items()
        for word, line in found.items())


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_no_english_word_on_home_and_score_pages(browser, live_server, lang):
    ctx = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    seen: dict[str, dict[str, str]] = {}
    # the option texts cite what is typed on a command line (tests/i18n/option_words.py)
    typed = set().union(*(allowed_words(g) for g in GAMES if g in registered_games()))
    try:
        page.goto(live_server + "/")
        _drop_test_games(page)
        _check(page, lang, "home", seen, typed)
        # a game of this browser: "My games" lists it
        page.locator("#card-kingdom-builder .quick-play").click()
        page.wait_for_url("**/play/**")
        page.goto(live_server + "/")
        page.wait_for_selector("#my-games")
        _drop_test_games(page)
        _check(page, lang, "home, my games", seen, typed)
        # a file that is not JSON: the import's error page (the file's name is the user's)
        page.set_input_files("#import-file", files=[{
            "name": f"{NAMES[0]}.json", "mimeType": "application/json",
            "buffer": b"{not json"}])
        page.locator("#import-form button[type=submit]").click()
        page.wait_for_load_state("load")
        _check(page, lang, "import error", seen)
        page.goto(live_server + "/score")
        page.wait_for_selector("#game-tabs [data-game]")
        for game in page.locator("#game-tabs [data-game]").evaluate_all(
                "(bs) => bs.map((b) => b.dataset.game)"):
            page.click(f"#game-tabs [data-game={game}]")
            page.wait_for_selector(f"#game-tabs [data-game={game}][aria-pressed=true]")
            page.wait_for_load_state("networkidle")
            _check(page, lang, f"score {game}", seen)
    finally:
        ctx.close()
    assert seen == {}, _report(seen)


def _drop_test_games(page) -> None:
    """Remove the lobby cards of the test games (tests/server/helpers.py registers them in
    the test server; their option texts are English test data, never shipped)."""
    page.evaluate("""(keep) => { for (const c of document.querySelectorAll('.gamecard')) {
      if (!keep.includes(c.id.replace(/^card-/, ''))) c.remove(); } }""", list(GAMES))


def test_english_words_of_the_catalogs():
    """The pt-BR word list holds English-only words and no word Portuguese shares."""
    words = english_words()
    assert {"settlement", "round", "points", "turn"} <= words
    assert not {"total", "normal", "capital", "final"} & words
