"""Every game in a real browser in Português (Brasil) and 繁體中文: the page follows the
browser's language (Accept-Language), a few moves are played by clicking, and screenshots
(desktop 1280x800, phone 390x844) are saved under test-artifacts/ to be looked at (a glyph
missing from the fonts shows as a box). The visible text after the page scripts ran holds no
English interface string."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from driver import step

from citybuilders.core.registry import registered_games

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "i18n"))
from test_pages import english_left  # noqa: E402

LOCALES = {"pt_BR": "pt-BR", "zh_Hant": "zh-TW"}
GAMES = ["kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder"]
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def _visible_lines(page) -> list[str]:
    """The page's visible text lines, without the game's own drawing and panels (#board,
    #panels: game texts from the game's texts.py and render.py, translated by their catalogs)."""
    text = page.evaluate("""() => {
      const body = document.body.cloneNode(true);
      body.querySelectorAll('#board, #panels, script, .gname, .gtitle, .opt-doc, .opt-name')
        .forEach((e) => e.remove());
      document.documentElement.append(body);
      body.style.position = 'absolute'; body.style.left = '-99999px';
      const t = body.innerText; body.remove(); return t; }""")
    return [s.strip() for s in text.splitlines() if s.strip()]


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("game", GAMES)
def test_a_few_moves_of_every_game_in_each_language(browser, live_server, artifacts, game, lang):
    if game not in registered_games():
        pytest.skip("game not registered")
    ctx = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(live_server + "/")
        assert page.locator("html").get_attribute("lang") == lang.replace("_", "-")
        det = page.locator(f"#new-{game}")
        if det.get_attribute("open") is None:
            det.locator(":scope > summary").click()
        form = det.locator("form.create-form")
        n = 2 if game == "kingdom-builder" else 1
        form.locator("select[name=num_players]").select_option(str(n))
        if n == 2:
            form.locator("select[name=seat1]").select_option("bot:random")
        form.locator("button.create-button").click()
        page.wait_for_url("**/play/**")
        page.wait_for_function("document.body.dataset.stateId !== undefined")
        for _ in range(4):
            if not step(page):
                break
        page.wait_for_function("document.getElementById('conn').classList.contains('ok')")
        name = f"i18n-{game}-{lang}"
        page.screenshot(path=str(artifacts / f"{name}-desktop.png"))
        lines = _visible_lines(page)
        leaks = english_left(lines, lang)
        assert leaks == [], leaks[:5]
        page.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
        page.screenshot(path=str(artifacts / f"{name}-phone.png"), full_page=True)
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_home_page_and_language_switch(browser, live_server, artifacts, lang):
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    try:
        page.goto(live_server + "/")
        assert page.locator("html").get_attribute("lang") == "en"
        page.locator(f"nav.langs a[hreflang='{lang.replace('_', '-')}']").click()
        page.wait_for_function(f"document.documentElement.lang === {lang.replace('_', '-')!r}")
        assert english_left(_visible_lines(page), lang) == []
        page.screenshot(path=str(artifacts / f"i18n-home-{lang}-desktop.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(artifacts / f"i18n-home-{lang}-phone.png"))
        page.goto(live_server + "/")  # remembered in the cookie
        assert page.locator("html").get_attribute("lang") == lang.replace("_", "-")
    finally:
        ctx.close()


def test_lang_in_the_address_carries_on_to_the_next_pages(browser, live_server, artifacts):
    """New-user item 8: ``/?lang=pt-BR`` in an English browser, then "Jogar contra bot": the
    game page is Portuguese too (the address's language is remembered like the switch's)."""
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    try:
        page.goto(live_server + "/?lang=pt-BR")
        assert page.locator("html").get_attribute("lang") == "pt-BR"
        page.locator("#card-kingdom-builder .quick-play").click()
        page.wait_for_url("**/play/**")
        page.wait_for_function("document.body.dataset.stateId !== undefined")
        assert "lang=" not in page.url
        assert page.locator("html").get_attribute("lang") == "pt-BR"
        assert english_left(_visible_lines(page), "pt_BR") == []
        assert "Exportar registro" in page.locator("body").inner_text()
        page.screenshot(path=str(artifacts / "i18n-lang-carries-on-pt_BR.png"))
        page.goto(live_server + "/")  # and the home page again
        assert page.locator("html").get_attribute("lang") == "pt-BR"
    finally:
        ctx.close()
