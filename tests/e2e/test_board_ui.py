"""The board and play page as a player meets it (issue 12): rules on hover, legends, previews,
confirm steps, the selection kept across another browser's move, keyboard-only play, a phone
game, turn alerts, the whole log, axe-core on every page, screenshots of every game at
desktop and phone size, start and end (test-artifacts/ui-*.png)."""

from __future__ import annotations

import re

import pytest
from ui_helpers import DESKTOP, PHONE, _call, axe, new_game, play_by_api, wait_ready

from citybuilders.core.registry import registered_games

GAMES = {
    "kingdom-builder": ["human", "bot:greedy"],
    "sprawlopolis": ["human"],
    "roll-into-town": ["human", "bot:greedy"],
    "roll-builder": ["human", "bot:greedy"],
}


def need(game: str) -> None:
    if game not in registered_games():
        pytest.skip("game not registered")


def open_page(browser, url: str, size: dict, mobile: bool = False):
    ctx = browser.new_context(viewport=size, is_mobile=mobile, has_touch=mobile,
                              device_scale_factor=1)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.js_errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    wait_ready(page)
    return ctx, page


@pytest.mark.parametrize("game", list(GAMES))
def test_screenshots_axe_start_and_end(browser, live_server, artifacts, game):
    """Every game at desktop and phone size, start and end (looked at by hand); axe-core on the
    play page, the end screen and the replay; the phone page is no wider than the phone."""
    need(game)
    g = new_game(live_server, game, GAMES[game])
    for name, size, mobile in (("desktop", DESKTOP, False), ("phone", PHONE, True)):
        ctx, page = open_page(browser, g["url"], size, mobile)
        page.wait_for_selector("#board svg")
        page.screenshot(path=str(artifacts / f"ui-{game}-{name}-start.png"), full_page=True)
        if name == "desktop":
            axe(page, f"{game} play page")
        else:
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{game}: the phone page is {width} px wide"
            board = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
            assert board <= 390
        assert page.js_errors == []
        ctx.close()
    play_by_api(live_server, g, 0)
    for name, size, mobile in (("desktop", DESKTOP, False), ("phone", PHONE, True)):
        ctx, page = open_page(browser, g["url"], size, mobile)
        page.wait_for_selector("#endscreen:not([hidden])")
        page.screenshot(path=str(artifacts / f"ui-{game}-{name}-end.png"), full_page=True)
        if name == "desktop":
            axe(page, f"{game} end screen")
            cols = page.locator("#end-scores table.scores tr").first.locator("th").count()
            if game == "sprawlopolis":
                assert cols == 2  # the parts' column + one shared column
            page.locator("#end-close").click()
            page.screenshot(path=str(artifacts / f"ui-{game}-{name}-end-board.png"), full_page=True)
            page.reload()  # shown once: a finished game opens on the board, "Final scores" shows it
            page.wait_for_selector("#end-open:not([hidden])")
            page.locator("#end-open").click()
            page.wait_for_selector("#endscreen:not([hidden])")
            what_scored(page, live_server, g, game)
            axe(page, f"{game} board showing what scored")
            page.screenshot(path=str(artifacts / f"ui-{game}-{name}-what-scored.png"), full_page=True)
            page.goto(live_server + page.locator("#replay-link").get_attribute("href"))
            page.wait_for_selector("#board svg")
            page.locator("#prev").click()
            page.wait_for_function("document.getElementById('stepinfo').textContent.startsWith(String(Number(document.getElementById('slider').max) - 1))")
            axe(page, f"{game} replay page")
            page.screenshot(path=str(artifacts / f"ui-{game}-replay.png"), full_page=True)
        assert page.js_errors == []
        ctx.close()


def what_scored(page, base: str, g: dict, game: str) -> None:
    """End screen: a points cell clicked outlines on the board exactly the elements the server
    says earned it (view.explain, the calculator's leave-out test), in that seat's colour,
    with one sentence read out (aria-live); the side table's cells do it too, by keyboard."""
    view = _call(f"{base}/api/games/{g['id']}/view", token=g["tokens"][0])[1]
    assert set(view["explain"]) == ({"0"} if game == "sprawlopolis" else
                                    {str(s) for s in range(len(view["seats"]))})
    seat, part = max(((s, p) for s, d in view["explain"].items() for p in d),
                     key=lambda sp: (len(view["explain"][sp[0]][sp[1]]), sp))
    keys = view["explain"][seat][part]
    assert keys, f"{game}: no part of the finished game shows anything"
    page.locator(f'#end-scores button.part[data-seat="{seat}"][data-part="{part}"]').click()
    page.wait_for_selector("#endscreen", state="hidden")
    got = page.evaluate("""() => [...document.querySelectorAll('#board .cb-scored')].map((e) =>
        [e.getAttribute('data-key') || e.getAttribute('data-at'), e.classList.contains('cb-scored-p' + (Number(%s) %% 5))])""" % seat)
    assert sorted({k for k, _ in got}) == sorted(set(keys))
    assert all(ok for _, ok in got)
    name = (" + ".join(s["name"] for s in view["seats"]) if view["cooperative"] and len(view["seats"]) > 1
            else view["seats"][int(seat)]["name"])
    points = view["scores"][int(seat)]["parts"][part]
    assert page.locator("#scored-note").text_content() == \
        f"{name}: {part} scored {points}; {len(got)} highlighted on the board"
    # the seat key next to the board: every player's name in the colour of the seat
    assert page.locator("#seat-key .seat-key-item").count() == len(view["seats"])
    assert page.locator("#seat-key .seat-key-item").nth(0).text_content().startswith(view["seats"][0]["name"])
    # keyboard: the side table's points cells explain too
    other = [p for p in view["explain"][seat] if p != part][0]
    page.locator(f'#scores button.part[data-seat="{seat}"][data-part="{other}"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(k) => document.getElementById('board').dataset.scored === k",
                           arg=" ".join(view["explain"][seat][other]))


def _rules_of(game: str, page) -> list[str]:
    """The rule texts the board of ``page`` must explain on hover (from the game's texts)."""
    svg = page.inner_html("#board")
    if game == "kingdom-builder":
        from citybuilders.games.kingdom_builder import texts as t
        kinds = set(re.findall(r'data-tile="(\w+)"', svg))
        cards = set(re.findall(r'data-at="card:(\w+)"', svg)) - {"castle"}
        assert kinds and len(cards) == 3
        return ([t.TILE_RULES[k] for k in kinds] + [t.CARD_RULES[c] for c in cards]
                + [t.CASTLE_RULE])
    if game == "sprawlopolis":
        from citybuilders.games.sprawlopolis import texts as t
        conds = [int(n) for n in re.findall(r'data-at="condition:(\d+)"', svg)]
        assert len(conds) == 3
        return [t.CONDITION_RULES[n] for n in conds]
    if game == "roll-into-town":
        from citybuilders.games.roll_into_town import texts as t
        return [t.ICON_RULES["town hall"]]
    from citybuilders.games.roll_builder import texts as t
    return [t.RESOURCE_RULES["favor"], t.RESOURCE_RULES["strength"], t.RESOURCE_RULES["wealth"]]


_TITLED = """() => {
  const out = [];
  document.querySelectorAll('#board svg *').forEach((e, i) => {
    const t = e.querySelector(':scope > title');
    if (!t || e.closest('[display=none]') || e.closest('[data-seat]:not([data-seat="0"])')) return;
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return;
    e.setAttribute('data-e2e-tip', String(i));
    out.push([String(i), t.textContent]);
  });
  return out;
}"""


@pytest.mark.parametrize("game", list(GAMES))
def test_every_rule_text_reachable_by_hover(browser, live_server, artifacts, game):
    """Hovering any titled board element shows its title in the popover; the game's rule
    texts for what is on the board are among them; the legend lists the symbols."""
    need(game)
    g = new_game(live_server, game, GAMES[game])
    ctx, page = open_page(browser, g["url"], DESKTOP)
    page.wait_for_selector("#board svg")
    titled = page.evaluate(_TITLED)
    texts = {t for _, t in titled}
    for rule in _rules_of(game, page):
        assert any(rule in t for t in texts), (game, rule)
    # hover one element per distinct title (at most 60): the popover says it
    seen: set[str] = set()
    for idx, text in titled:
        if text in seen or len(seen) >= 60:
            continue
        seen.add(text)
        el = page.locator(f'[data-e2e-tip="{idx}"]')
        el.scroll_into_view_if_needed()
        el.hover(force=True)
        tip = page.locator("#tip")
        if not tip.is_visible() or tip.inner_text() != text:
            box = el.bounding_box()  # a label drawn on top: hover the element's own point
            el.dispatch_event("pointermove", {"clientX": box["x"] + 2, "clientY": box["y"] + 2})
        assert tip.is_visible() and tip.inner_text() == text, (game, text, tip.inner_text())
    assert page.locator("#legend").is_visible()
    page.locator("#legend summary").click()
    assert page.locator("#legend dt").count() >= 5
    page.locator("#board").screenshot(path=str(artifacts / f"ui-{game}-tip.png"))
    assert page.js_errors == []
    ctx.close()


def test_selection_kept_across_another_browsers_move(browser, live_server, artifacts):
    """Two browsers, a simultaneous Roll Builder turn: A selects a die, B moves; A's view updates
    (new state id) and A's selection is still there."""
    need("roll-builder")
    g = new_game(live_server, "roll-builder", ["human", "human"], seed=3)
    base = live_server + f"/play/{g['id']}?t="
    ctx_a, a = open_page(browser, base + g["tokens"][0], DESKTOP)
    ctx_b, b = open_page(browser, base + g["tokens"][1], DESKTOP)
    a.wait_for_selector("#board [data-key^='die:'].cb-target")
    a.locator("#board [data-key='die:0']").click()
    a.wait_for_function("document.body.dataset.prefix === 'die:0'")
    sid = a.evaluate("document.body.dataset.stateId")
    b.wait_for_selector("#board [data-key^='die:'].cb-target")
    b.locator("#board [data-key='die:1']").click()
    b.wait_for_function("document.body.dataset.prefix !== ''")
    b.locator("#choices button.cb-choice").first.click()  # B uses the die: a move
    a.wait_for_function(f"document.body.dataset.stateId !== {sid!r}")
    assert a.evaluate("document.body.dataset.prefix") == "die:0"
    assert a.locator("#board [data-key='die:0'].cb-selected").count() == 1
    a.screenshot(path=str(artifacts / "ui-selection-kept.png"))
    assert a.js_errors == [] and b.js_errors == []
    ctx_a.close()
    ctx_b.close()


def test_keyboard_only_sprawlopolis_solo_to_the_end(browser, live_server, artifacts):
    """Tab to the first target, then only Enter (and the focus the page keeps on the next
    target): card, place (the footprint previewed), confirm — until the game is over."""
    need("sprawlopolis")
    g = new_game(live_server, "sprawlopolis", ["human"], seed=11)
    ctx, page = open_page(browser, g["url"], DESKTOP)
    page.wait_for_selector("#board [data-key].cb-target")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.classList.contains('cb-target')"):
            break
    else:
        pytest.fail("Tab never reached a board target")
    assert "card" in page.evaluate("document.activeElement.getAttribute('aria-label')")
    presses = 0
    shot = False
    while page.evaluate("document.body.dataset.terminal") != "true":
        before = page.evaluate("[document.body.dataset.stateId, document.body.dataset.prefix, document.body.dataset.confirming]")
        if before[2] == "1" and not shot:
            assert page.locator("#board .cb-preview").count() == 1  # the 2×2 footprint
            page.locator("#board").screenshot(path=str(artifacts / "ui-sprawlopolis-keyboard-confirm.png"))
            shot = True
        page.keyboard.press("Enter")
        presses += 1
        assert presses < 400
        page.wait_for_function("""([s, p, c]) => document.body.dataset.terminal === 'true' ||
          document.body.dataset.stateId !== s || document.body.dataset.prefix !== p ||
          document.body.dataset.confirming !== c""", arg=before, timeout=15000)
        if page.evaluate("document.body.dataset.terminal") != "true":
            page.wait_for_function("document.activeElement && document.activeElement !== document.body", timeout=15000)
    page.wait_for_selector("#endscreen:not([hidden])")
    assert shot
    page.screenshot(path=str(artifacts / "ui-sprawlopolis-keyboard-end.png"), full_page=True)
    assert page.js_errors == []
    ctx.close()


def test_phone_kingdom_builder_game(browser, live_server, artifacts):
    """A Kingdom Builder game at 390×844 by tapping: the page fits the phone, zoom makes hexes
    ≥ 32 px, the bot's moves are played back, the end screen shows."""
    need("kingdom-builder")
    g = new_game(live_server, "kingdom-builder", ["human", "bot:random"], seed=5)
    ctx, page = open_page(browser, g["url"], PHONE, mobile=True)
    page.wait_for_selector("#board [data-key].cb-target")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for _ in range(2):
        page.locator("#zoom-in").tap()
    hexw = page.evaluate("document.querySelector('#board polygon.hex').getBoundingClientRect().width")
    assert hexw >= 32, hexw
    page.screenshot(path=str(artifacts / "ui-kingdom-builder-phone-zoomed.png"))
    page.locator("#zoom-fit").tap()
    taps = 0
    played_back = False
    while page.evaluate("document.body.dataset.terminal") != "true":
        page.wait_for_function(
            "document.body.dataset.terminal === 'true' || document.querySelector('#board .cb-target, #choices .cb-confirm')",
            timeout=20000)
        if page.evaluate("document.body.dataset.terminal") == "true":
            break
        before = page.evaluate("[document.body.dataset.stateId, document.body.dataset.prefix, document.body.dataset.confirming]")
        confirm = page.locator("#choices .cb-confirm")
        if confirm.count():
            confirm.first.tap()
        else:
            target = page.locator("#board .cb-target").first
            target.scroll_into_view_if_needed()
            target.dispatch_event("click")
        taps += 1
        assert taps < 600
        page.wait_for_function("""([s, p, c]) => document.body.dataset.terminal === 'true' ||
          document.body.dataset.stateId !== s || document.body.dataset.prefix !== p ||
          document.body.dataset.confirming !== c""", arg=before, timeout=20000)
        if not played_back and page.locator("#playback:not([hidden])").count():
            played_back = True
            page.screenshot(path=str(artifacts / "ui-kingdom-builder-phone-playback.png"))
    page.wait_for_selector("#endscreen:not([hidden])")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifacts / "ui-kingdom-builder-phone-game-end.png"), full_page=True)
    assert page.js_errors == []
    ctx.close()


def test_turn_alert_log_pages_and_last_turns(browser, live_server, artifacts):
    """The tab title and favicon say it is your turn; the bot's last turn is outlined; a log
    line highlights its hexes on hover; the log keeps every entry in pages."""
    need("kingdom-builder")
    g = new_game(live_server, "kingdom-builder", ["human", "bot:random"], seed=9)
    ctx, page = open_page(browser, g["url"], DESKTOP)
    page.wait_for_selector("#board [data-key].cb-target")
    page.wait_for_function("document.title.startsWith('●')")
    assert page.locator("link[rel=icon]").get_attribute("href").endswith("favicon-turn.svg")
    play_by_api(live_server, g, 0, max_moves=40)
    page.reload()
    wait_ready(page)
    page.wait_for_function("document.querySelectorAll('#log li').length > 0")
    assert page.locator("#board .cb-last-p1").count() >= 1  # the bot's last turn
    n = page.evaluate("document.querySelectorAll('#log li').length")
    if not page.locator("#log li[tabindex='0']").count():  # a last page of hidden draws only
        page.locator("#log-pages button").first.click()
    li = page.locator("#log li[tabindex='0']").last
    li.hover()
    assert page.locator("#board .cb-flash").count() >= 1
    page.locator("#board").screenshot(path=str(artifacts / "ui-kingdom-builder-log-hover.png"))
    if page.locator("#log-pages button").count():
        while page.locator("#log-pages button").first.is_enabled():
            page.locator("#log-pages button").first.click()
        assert page.evaluate("document.querySelector('#log li').value") == 1
    assert n <= 50
    assert page.js_errors == []
    ctx.close()


def test_player_names_everywhere_and_neutral_hot_seat(browser, live_server, artifacts, tmp_path):
    """Seat names on the board's colour key, the scores, the log, the end screen (hot-seat:
    no "(you)"), the exported record and the replay of that record imported again."""
    need("kingdom-builder")
    import random

    names = ["Ana <b>", "Bo"]
    status, g = _call(live_server + "/api/games", {
        "game": "kingdom-builder", "seed": 5,
        "seats": [{"kind": "human", "name": n} for n in names]})
    assert status == 201, g
    tokens = {s["seat"]: s["token"] for s in g["seats"]}
    rng = random.Random(5)
    view: dict = {"terminal": False}
    while not view["terminal"]:
        for seat in (0, 1):
            view = _call(f"{live_server}/api/games/{g['id']}/view", token=tokens[seat])[1]
            if view["legal"] and not view["terminal"]:
                _call(f"{live_server}/api/games/{g['id']}/act",
                      {"state_id": view["state_id"], "action": rng.choice(view["legal"])["action"]},
                      tokens[seat])
    ctx, page = open_page(browser, live_server + g["play_url"], DESKTOP)
    page.wait_for_selector("#endscreen:not([hidden])")
    result = page.locator("#end-result").text_content()
    assert "(you)" not in result and any(n in result for n in names), result
    assert page.locator("#end-scores th[scope=col]:not(.corner)").all_text_contents() == names
    assert page.locator("#seat-key .seat-key-item").all_text_contents() == names
    assert page.locator("#seat-key .seat-swatch.p1").count() == 1
    for box in ("#presence", "#panels", "#scores", "#status"):  # one screen for both: no "you"
        assert "(you)" not in page.locator(box).inner_text(), box
    # the log fills in after the end screen shows (under load, a moment later)
    try:
        page.wait_for_function("document.querySelectorAll('#log .who').length >= 1",
                               timeout=8000)
    except Exception:
        print("LOGDUMP", page.locator("#log").inner_html()[:3000])
        raise
    # the server draws the cards with the OS's RNG, so the game's length varies: the last
    # page of the log (50 lines) may hold a single line; read the page before it as well
    whos = set(page.locator("#log .who").all_text_contents())
    older = page.locator("#log-pages button").first
    if older.count() and older.is_enabled():
        older.dispatch_event("click")  # under the end screen
        whos |= set(page.locator("#log .who").all_text_contents())
    assert {"Ana <b>: ", "Bo: "} <= whos, whos
    page.screenshot(path=str(artifacts / "ui-names-hot-seat-end.png"), full_page=True)
    record = _call(f"{live_server}/api/games/{g['id']}/record?token={tokens[0]}")[1]
    assert record["players"] == names
    path = tmp_path / "named.json"
    path.write_text(__import__("json").dumps(record))
    page.goto(live_server + "/")
    page.locator("#import-form input[type=file]").set_input_files(str(path))
    page.locator("#import-form button[type=submit]").click()
    page.wait_for_url("**/replay/**")
    page.wait_for_selector("#scores table.scores")
    assert page.locator("#seat option").all_inner_texts() == names
    assert page.locator("#seat-key .seat-key-item").all_text_contents() == names
    assert page.locator("#scores th[scope=col]:not(.corner)").all_text_contents() == names
    page.screenshot(path=str(artifacts / "ui-names-imported-replay.png"), full_page=True)
    assert page.js_errors == []
    ctx.close()


def test_phone_first_tap_zooms_to_finger_size_then_taps_play(browser, live_server, artifacts):
    """390×844, Kingdom Builder at "Fit": hexes are smaller than a fingertip, so the first tap
    zooms around the tapped hex (nothing is played); from then on every tapped target is
    ≥ 32 px and a tap plays it. A mouse click at "Fit" still plays at once (desktop)."""
    need("kingdom-builder")
    g = new_game(live_server, "kingdom-builder", ["human", "bot:random"], seed=6)
    ctx, page = open_page(browser, g["url"], PHONE, mobile=True)
    page.wait_for_selector("#board [data-key].cb-target")
    size = "(e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); }"
    first = page.locator("#board .cb-target").nth(3)
    assert first.evaluate(size) < 32  # the whole board fits the width: too small to tap
    before = page.evaluate("document.body.dataset.stateId")
    first.tap()
    assert page.locator("#zoom-level").text_content() != "100%"
    assert page.evaluate("[document.body.dataset.stateId, document.body.dataset.prefix]") == [before, ""]
    assert first.evaluate(size) >= 32
    box = first.bounding_box()
    assert 0 <= box["x"] and box["x"] + box["width"] <= 390  # the tapped hex stays in view
    page.screenshot(path=str(artifacts / "ui-kingdom-builder-phone-tap-zoom.png"))
    played = 0
    while played < 3:
        target = page.locator("#board .cb-target").first
        target.scroll_into_view_if_needed()
        assert target.evaluate(size) >= 32
        state = page.evaluate("document.body.dataset.stateId")
        target.tap()
        page.wait_for_function("(s) => document.body.dataset.stateId !== s || "
                               "document.body.dataset.confirming === '1'", arg=state)
        if page.evaluate("document.body.dataset.confirming") == "1":
            page.locator("#choices .cb-confirm").tap()
            page.wait_for_function("(s) => document.body.dataset.stateId !== s", arg=state)
        played += 1
    page.screenshot(path=str(artifacts / "ui-kingdom-builder-phone-tap-played.png"))
    assert page.js_errors == []
    ctx.close()
    # desktop: a click at "Fit" plays at once
    g = new_game(live_server, "kingdom-builder", ["human", "bot:random"], seed=6)
    ctx, page = open_page(browser, g["url"], DESKTOP)
    page.wait_for_selector("#board [data-key].cb-target")
    state = page.evaluate("document.body.dataset.stateId")
    page.locator("#board .cb-target").first.click()
    page.wait_for_function("(s) => document.body.dataset.stateId !== s", arg=state)
    assert page.locator("#zoom-level").text_content() == "100%"
    ctx.close()
