"""The play, replay and score pages after the second new-user trial (reports/newuser.md items
1-4, 9, 10, 12, 13, 15, 17, 18), measured in Chromium at the trial's sizes (desktop 1400x1000,
phone 390x844): the board fills its box at "Fit", the score table fits the side panel, the
status line says what to do now and stays in view with the buttons that do it, the hint goes
with the position it was for, the end screen closes like a dialog and shows once, nothing
overlaps. Screenshots in every language: test-artifacts/layout-*.png."""

from __future__ import annotations

import pytest
from driver import step
from ui_helpers import _call, axe, new_game, play_by_api, wait_ready

from citybuilders.core.registry import registered_games

DESK = {"width": 1400, "height": 1000}
PHONE = {"width": 390, "height": 844}
LANGS = ("en", "pt-BR", "zh-Hant")


def need(*games: str) -> None:
    for g in games:
        if g not in registered_games():
            pytest.skip(f"{g} not registered")


def open_page(browser, url: str, size: dict, lang: str = "en", mobile: bool = False):
    ctx = browser.new_context(viewport=size, is_mobile=mobile, has_touch=mobile,
                              device_scale_factor=1)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors  # type: ignore[attr-defined]
    page.goto(url + ("&" if "?" in url else "?") + "lang=" + lang)
    wait_ready(page)
    return ctx, page


_BOX = """() => {
  const b = document.getElementById('board'), cs = getComputedStyle(b);
  return {box: b.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
          svg: b.querySelector('svg').getBoundingClientRect().width,
          bottom: b.querySelector('svg').getBoundingClientRect().bottom}; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_fit_makes_the_sprawlopolis_city_fill_the_board_box(browser, live_server, artifacts,
                                                          lang):
    """Item 1: "Fit" is the largest size that shows the whole city (it left a 400 px drawing in
    a 928 px box); "+" zooms from there and "Fit" comes back. Item 18: the hand cards' frames
    do not overlap and no condition's name runs into its points."""
    need("sprawlopolis")
    g = new_game(live_server, "sprawlopolis", ["human"], seed=11)
    ctx, page = open_page(browser, g["url"], DESK, lang)
    page.locator("#zoom-fit").click()
    m = page.evaluate(_BOX)
    assert m["svg"] >= 0.8 * m["box"], m
    assert m["svg"] <= m["box"] + 1 and m["bottom"] <= DESK["height"] + 2, m  # whole city shown
    page.screenshot(path=str(artifacts / f"layout-sprawlopolis-desktop-{lang}.png"))
    page.locator("#zoom-in").click()
    assert page.evaluate(_BOX)["svg"] > m["box"] * 1.2
    page.locator("#zoom-fit").click()
    assert abs(page.evaluate(_BOX)["svg"] - m["svg"]) <= 1
    frames = page.evaluate("""() => [...document.querySelectorAll('#board .sp-card')].map((g) => {
      const r = g.querySelector('rect.sp-frame').getBoundingClientRect();
      return [r.left, r.right, getComputedStyle(g).outlineStyle,
              getComputedStyle(g.querySelector('rect.sp-frame')).strokeWidth]; })""")
    assert len(frames) == 3
    for (l1, r1, *_), (l2, _r2, *_) in zip(frames, frames[1:]):
        assert r1 < l2, frames  # a gap between two cards' frames
    assert all(o == "none" and w.startswith("2.5") for *_, o, w in frames), frames
    clash = page.evaluate("""() => [...document.querySelectorAll('#board .sp-condition')].map((g) => {
      const texts = [...g.querySelectorAll('text')], pts = texts.pop().getBoundingClientRect();
      const card = g.querySelector('rect').getBoundingClientRect();
      return [Math.max(...texts.map((t) => t.getBoundingClientRect().right)) < pts.left,
              Math.max(...texts.map((t) => t.getBoundingClientRect().bottom)) <= card.bottom + 1]; })""")
    assert clash and all(a and b for a, b in clash), clash
    ctx.close()
    ctx, page = open_page(browser, g["url"], PHONE, lang, mobile=True)
    m = page.evaluate(_BOX)
    assert m["box"] - 2 <= m["svg"] <= m["box"] + 1, m
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(artifacts / f"layout-sprawlopolis-phone-{lang}.png"))
    assert page.js_errors == []
    ctx.close()


_TABLE = """() => {
  const wrap = document.querySelector('#scores .table-wrap'), panel = document.querySelector('aside.right');
  const last = [...wrap.querySelectorAll('tr')].map((tr) => tr.lastElementChild.getBoundingClientRect().right);
  const heads = [...wrap.querySelectorAll('th')].map((th) => th.getBoundingClientRect().height /
                parseFloat(getComputedStyle(th).lineHeight || '20'));
  return {scroll: wrap.scrollWidth - wrap.clientWidth, right: Math.max(...last),
          panel: panel.getBoundingClientRect().right, lines: Math.max(...heads),
          total: !!wrap.querySelector('tr.total')}; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_score_table_fits_the_side_panel(browser, live_server, artifacts, lang):
    """Item 2 (and 17, zh-Hant headers one character a line): the side table's last column is
    inside the panel without scrolling; no header takes more than two lines."""
    need("kingdom-builder", "roll-into-town")
    for game in ("kingdom-builder", "roll-into-town"):
        g = new_game(live_server, game, ["human", "bot:random", "bot:random"], seed=3)
        ctx, page = open_page(browser, g["url"], DESK, lang)
        page.wait_for_selector("#scores table.scores")
        page.locator("aside.right").screenshot(path=str(artifacts / f"layout-{game}-scores-{lang}.png"))
        t = page.evaluate(_TABLE)
        assert t["total"] and t["scroll"] <= 0 and t["right"] <= t["panel"], (game, t)
        assert t["lines"] < 2.7, (game, t)  # two lines and the padding
        ctx.close()


def test_kingdom_builder_turn_says_what_to_do_and_ends_in_one_click(browser, live_server,
                                                                    artifacts):
    """Items 3 and 9: the status names each step ("... hex (2 left)", "end your turn"); the
    "end turn" button is in the turn bar, in view however the page is scrolled, and ends the
    turn at once; while the expert bot plays the status says it is thinking; at the start of
    the next turn the status line is on screen."""
    need("kingdom-builder")
    g = new_game(live_server, "kingdom-builder", ["human", "bot:expert"], seed=4)
    ctx, page = open_page(browser, g["url"], DESK, "pt-BR")
    status = page.locator("#status")
    assert "construa uma vila num hexágono destacado (vilas a construir: 3)" in status.text_content()
    seen = []
    for _ in range(3):
        seen.append(status.text_content())
        assert step(page)
    text = status.text_content()
    assert "encerre seu turno" in text, (seen, text)
    assert "construir: 2" in seen[1] and "construir: 1" in seen[2], seen
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the page scrolled down
    end = page.locator("#choices button.cb-bar[data-key='end']")
    box = end.bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= DESK["height"], box
    page.screenshot(path=str(artifacts / "layout-kingdom-builder-end-turn-pt-BR.png"))
    sid = page.evaluate("document.body.dataset.stateId")
    end.click()
    page.wait_for_function("(s) => document.body.dataset.stateId !== s", arg=sid)
    assert page.evaluate("document.body.dataset.confirming") == ""  # no second click
    # the expert thinks for a second or more a move: the reply to "end turn" has it to move
    page.wait_for_function("document.getElementById('status').classList.contains('thinking')")
    assert status.text_content().endswith(" está pensando…")
    page.screenshot(path=str(artifacts / "layout-kingdom-builder-thinking-pt-BR.png"))
    page.wait_for_selector("#board [data-key].cb-target", timeout=60_000)
    r = status.bounding_box()
    assert r and 0 <= r["y"] and r["y"] + r["height"] <= DESK["height"], r
    assert "construir: 3" in status.text_content()
    page.screenshot(path=str(artifacts / "layout-kingdom-builder-next-turn-pt-BR.png"))
    assert page.js_errors == []
    ctx.close()


def test_status_names_the_selection_and_the_next_step(browser, live_server, artifacts):
    """Item 10: Roll into Town names a chosen die by the value it shows (it said "die 1" for a
    die showing 2) and its buttons by their step ("lower the die by 1", not "adjust d1 -1");
    Roll Builder's status names what the turn offers, not "click a highlighted target"."""
    need("roll-into-town", "roll-builder")
    g = new_game(live_server, "roll-into-town", ["human"], seed=9)
    for lang, word in (("en", "die showing"), ("zh-Hant", "點數")):
        ctx, page = open_page(browser, g["url"], DESK, lang)
        for _ in range(40):
            if page.locator('#board [data-key^="die:"].cb-target').count():
                break
            assert step(page)
        die = page.locator('#board [data-key^="die:"].cb-target').first
        value = die.locator("text").text_content().strip()
        die.dispatch_event("click")
        page.wait_for_function("document.body.dataset.prefix !== ''")
        text = page.locator("#status").text_content()
        assert f"{word} {value}" in text, text
        buttons = page.locator("#choices button.cb-choice").all_text_contents()
        assert not any("adjust" in b or " d1" in b for b in buttons), buttons
        page.screenshot(path=str(artifacts / f"layout-roll-into-town-die-{lang}.png"))
        ctx.close()
    g = new_game(live_server, "roll-builder", ["human"], seed=9)
    for lang in LANGS:
        ctx, page = open_page(browser, g["url"], DESK, lang)
        text = page.locator("#status").text_content()
        view = _call(f"{live_server}/api/games/{g['id']}/view?lang={lang}",
                     token=g["tokens"][0])[1]
        assert view["prompt"] and text.endswith(view["prompt"]), (text, view["prompt"])
        assert "click a highlighted target" not in text
        page.screenshot(path=str(artifacts / f"layout-roll-builder-desktop-{lang}.png"))
        ctx.close()


def test_hint_goes_when_the_position_changes(browser, live_server, artifacts):
    """Item 4: the hint's text (naming a card) is cleared by the next move."""
    need("sprawlopolis")
    g = new_game(live_server, "sprawlopolis", ["human"], seed=12)
    ctx, page = open_page(browser, g["url"], DESK)
    page.locator("#hint").click()
    page.wait_for_function("document.getElementById('hint-text').textContent !== ''")
    sid = page.evaluate("document.body.dataset.stateId")
    while page.evaluate("document.body.dataset.stateId") == sid:
        step(page)
    assert page.locator("#hint-text").text_content() == ""
    assert page.js_errors == []
    ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_end_screen_is_a_dialog_shown_once(browser, live_server, artifacts, lang):
    """Items 12 and 13: Esc and a click outside close the end screen, "Final scores" opens it
    again, it offers the record, a finished game opened again shows the board (not the
    dialog), and the header no longer says "live"."""
    need("kingdom-builder")
    g = new_game(live_server, "kingdom-builder", ["human", "bot:random"], seed=2)
    play_by_api(live_server, g, 0)
    ctx, page = open_page(browser, g["url"], DESK, lang)
    page.wait_for_selector("#endscreen:not([hidden])")
    page.wait_for_function("document.getElementById('conn').className.includes('over')")
    live = {"en": "live", "pt-BR": "ao vivo", "zh-Hant": "連線中"}[lang]
    assert page.locator("#conn").text_content() != live
    assert "/record?" in page.locator("#end-export").get_attribute("href")
    page.screenshot(path=str(artifacts / f"layout-end-desktop-{lang}.png"))
    if lang == "en":
        axe(page, "end screen")
    page.keyboard.press("Escape")
    page.wait_for_selector("#endscreen", state="hidden")
    assert page.evaluate("document.activeElement.id") == "end-open"
    page.locator("#end-open").click()
    page.wait_for_selector("#endscreen:not([hidden])")
    page.mouse.click(5, 500)  # the dimmed page around the dialog
    page.wait_for_selector("#endscreen", state="hidden")
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#board svg")
    assert page.locator("#endscreen").is_hidden()
    assert page.locator("#end-open").is_visible()
    ctx.close()
    ctx, page = open_page(browser, g["url"], PHONE, lang, mobile=True)
    page.wait_for_selector("#endscreen:not([hidden])")
    t = page.evaluate("""() => Math.max(...[...document.querySelectorAll('#end-scores th')].map((th) =>
        th.getBoundingClientRect().height / parseFloat(getComputedStyle(th).lineHeight || '20')))""")
    assert t < 2.7, t
    page.screenshot(path=str(artifacts / f"layout-end-phone-{lang}.png"))
    assert page.js_errors == []
    ctx.close()


def test_phone_details(browser, live_server, artifacts):
    """Item 17: the bot-move banner is part of the turn bar (it covered the other player's
    sheet); Kingdom Builder's score line, unreadable at phone size, gives way to the scores
    in the player key; a tap that zooms hides the rule popover over the instruction; the
    replay's last move is outlined on its blocks, not in boxes spilling out of the city."""
    need("kingdom-builder", "sprawlopolis")
    g = new_game(live_server, "kingdom-builder", ["human", "bot:random"], seed=8)
    ctx, page = open_page(browser, g["url"], PHONE, "zh-Hant", mobile=True)
    assert page.evaluate("getComputedStyle(document.getElementById('playback')).position") != "fixed"
    assert page.evaluate("document.getElementById('turnbar').contains(document.getElementById('playback'))")
    assert page.locator("#board .kb-scoreline").first.is_hidden()
    assert page.locator("#seat-key .seat-score").count() == 2
    target = page.locator("#board .cb-target").first
    target.tap()
    page.wait_for_function("document.getElementById('hint-text').textContent !== ''")
    assert page.locator("#tip").is_hidden()
    page.screenshot(path=str(artifacts / "layout-kingdom-builder-phone-zoomed-zh-Hant.png"))
    ctx.close()
    g = new_game(live_server, "sprawlopolis", ["human"], seed=5)
    play_by_api(live_server, g, 0)
    for lang in LANGS:
        ctx, page = open_page(browser, g["url"], PHONE, lang, mobile=True)
        page.goto(live_server + page.locator("#replay-link").get_attribute("href") + "&lang=" + lang
                  if "?" in (page.locator("#replay-link").get_attribute("href") or "")
                  else live_server + page.locator("#replay-link").get_attribute("href") + "?lang=" + lang)
        page.wait_for_selector("#board svg")
        page.locator("#first").click()
        for _ in range(6):
            page.locator("#next").click()
        page.wait_for_function("document.getElementById('stepinfo').textContent.startsWith('6 ')")
        page.wait_for_selector("#board .cb-step")
        style = page.evaluate("""() => [...document.querySelectorAll('#board g.cb-step')].map((g) =>
            [getComputedStyle(g).outlineStyle, getComputedStyle(g.querySelector(':scope > rect')).stroke])""")
        assert style and all(o == "none" and s not in ("none", "rgb(255, 255, 255)")
                             for o, s in style), style  # its blocks outlined, no box around
        page.screenshot(path=str(artifacts / f"layout-replay-phone-{lang}.png"))
        ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_score_page_outlines_fit_and_tap(browser, live_server, artifacts, lang):
    """Item 15: the calculator's Kingdom Builder board has hex outlines; on the phone it fits
    the width, the hint says "tap", and a tapped row brings the board (its highlight) into
    view."""
    need("kingdom-builder")
    ctx = browser.new_context(viewport=DESK, device_scale_factor=1)
    page = ctx.new_page()
    page.goto(f"{live_server}/score?lang={lang}")
    page.wait_for_selector("#board svg polygon")
    stroke = page.evaluate("getComputedStyle(document.querySelector('#board polygon')).stroke")
    assert stroke not in ("none", ""), stroke
    page.screenshot(path=str(artifacts / f"layout-score-desktop-{lang}.png"))
    ctx.close()
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                              device_scale_factor=1)
    page = ctx.new_page()
    page.goto(f"{live_server}/score?lang={lang}")
    page.wait_for_selector("#board svg polygon")
    w = page.evaluate("""() => [document.getElementById('board').clientWidth,
        document.querySelector('#board svg').getBoundingClientRect().width]""")
    assert w[1] <= w[0] + 1, w
    keys = page.evaluate("""() => [...document.querySelectorAll('#board polygon[data-key^="hex:0,"], #board polygon[data-key^="hex:1,"]')]
        .filter((p) => !['water', 'mountain', 'castle', 'location'].includes(p.dataset.terrain))
        .slice(0, 3).map((p) => p.getAttribute('data-key'))""")
    for k in keys:  # settlements on the top rows: a part counts them
        page.locator(f'#board [data-key="{k}"]').dispatch_event("click")
    page.wait_for_function("document.querySelectorAll('#board .kb-settlement').length === 3")
    assert page.locator("#flag").is_hidden(), page.locator("#flag").text_content()
    if lang == "en":
        assert "tap" in page.locator(".scorer aside").inner_text()
    rows = page.locator("#breakdown tr[data-row]:not(.total) th")
    lit = None
    for i in range(rows.count()):
        rows.nth(i).dispatch_event("click")
        if page.locator("#board .cb-scored").count():
            lit = rows.nth(i)
            break
    assert lit is not None
    page.set_viewport_size({"width": 390, "height": 560})  # a short screen: the board is off it
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    lit.scroll_into_view_if_needed()
    off = "(() => { const r = document.querySelector('#board .cb-scored').getBoundingClientRect(); return r.bottom < 0 || r.top > innerHeight; })()"
    assert page.evaluate(off)
    lit.tap()
    page.wait_for_function(f"!{off} && !!document.querySelector('#board .cb-scored')")
    page.screenshot(path=str(artifacts / f"layout-score-phone-{lang}.png"))
    ctx.close()


def test_zoomed_in_a_hint_out_of_view_is_brought_into_the_box(browser, live_server, artifacts):
    """New-user trial: zoomed in on a phone, the hinted hex (or a new turn's only target) lay
    outside the board box and nothing on screen showed it. Now the box scrolls to it."""
    need("kingdom-builder")
    g = new_game(live_server, "kingdom-builder", ["human", "bot:random"], seed=8)
    ctx, page = open_page(browser, g["url"], PHONE, "zh-Hant", mobile=True)
    page.click("#zoom-fit")
    page.click("#hint")
    page.wait_for_selector("#board .cb-hint")
    where = page.evaluate("""() => { const s = document.querySelector('#board svg')
        .getBoundingClientRect(); const r = document.querySelector('#board .cb-hint')
        .getBoundingClientRect(); return (r.left + r.width / 2 - s.left) / s.width; }""")
    for _ in range(4):  # 1.5 ** 4 ~ 5x
        page.click("#zoom-in")
    in_view = """() => { const b = document.getElementById('board').getBoundingClientRect();
        return Array.from(document.querySelectorAll('#board .cb-hint')).some((e) => {
        const r = e.getBoundingClientRect(); return r.right > b.left && r.left < b.right; }); }"""
    # the box scrolled to the side away from the hint: it is out of view
    page.evaluate("(far) => { const b = document.getElementById('board'); "
                  "b.scrollLeft = far ? b.scrollWidth : 0; }", where < 0.5)
    assert not page.evaluate(in_view)
    page.click("#hint")
    page.wait_for_function(in_view)
    page.screenshot(path=str(artifacts / "layout-kingdom-builder-phone-zoomed-hint-zh-Hant.png"))
    page.click("#zoom-fit")
    assert page.js_errors == []
    ctx.close()


def test_replay_draws_no_dead_end_turn_button(browser, live_server):
    """New-user trial: the Kingdom Builder replay drew the board's "end turn" button, which a
    replay cannot press. It is in the picture of a step where the turn could end, not shown."""
    need("kingdom-builder")
    g = new_game(live_server, "kingdom-builder", ["human", "bot:random"], seed=8)
    play_by_api(live_server, g, 0)
    ctx = browser.new_context(viewport=DESK)
    page = ctx.new_page()
    page.goto(f"{live_server}/replay/{g['id']}?t={g['tokens'][0]}")
    page.wait_for_selector("#board svg")
    page.locator("#first").click()
    found = False
    for _ in range(12):  # a step with the button in the picture (after a first settlement)
        page.locator("#next").click()
        page.wait_for_timeout(150)
        if page.locator('#board g.button[data-key="end"]').count():
            found = True
            break
    assert found, "no step drew the end-turn button"
    assert page.locator('#board g.button[data-key="end"]').first.is_hidden()
    ctx.close()
