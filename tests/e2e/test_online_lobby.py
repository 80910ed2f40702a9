"""The lobby and online play in real browsers (issue 12, items 1 and 5): one-click play vs
bot, names kept through export and import, invite claims, spectators, re-issued links,
presence dots, rematch; axe-core and screenshots of the home page."""

from __future__ import annotations

import json

from axe import serious_violations
from driver import play_to_end

READY = "document.body.dataset.stateId !== undefined"


def _dot(page, seat: int) -> str:
    return page.locator(f"#presence .seatline[data-seat='{seat}'] .dot").get_attribute(
        "data-online")


def _new_game(page, base, game, seats, names=()):
    """Fill the "More choices" form of ``game`` and start it."""
    page.goto(base + "/")
    page.locator(f"#new-{game} > summary").click()
    form = page.locator(f"#new-{game} form")
    form.locator("select[name=num_players]").select_option(str(len(seats)))
    for i, s in enumerate(seats):
        form.locator(f"select[name=seat{i}]").select_option(s)
    for i, n in enumerate(names):
        form.locator(f"input[name=name{i}]").fill(n)
    form.locator("button.create-button").click()
    page.wait_for_url("**/play/**")
    page.wait_for_function(READY)


def test_home_page_screenshots_and_axe(browser, live_server, artifacts):
    for label, size in (("desktop", {"width": 1280, "height": 800}),
                        ("phone", {"width": 390, "height": 844})):
        ctx = browser.new_context(viewport=size)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(live_server + "/")
        page.wait_for_function("Array.from(document.images).every((i) => i.complete)")
        page.screenshot(path=str(artifacts / f"home-{label}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        page.locator("#new-kingdom-builder > summary").click()
        page.locator("#new-kingdom-builder details.variants > summary").click()
        page.locator("#new-kingdom-builder").screenshot(
            path=str(artifacts / f"home-{label}-kingdom-builder-options.png"))
        assert serious_violations(page) == []
        assert errors == []
        ctx.close()


def test_lobby_one_click_play_vs_bot_and_expansion_options(page, live_server):
    page.goto(live_server + "/")
    kb = page.locator("#new-kingdom-builder")
    page.locator("#new-kingdom-builder > summary").click()
    page.locator("#new-kingdom-builder details.variants > summary").click()
    wagon = kb.locator(".opt[data-expansion='crossroads']").filter(has_text="Wagon on mountains")
    assert not wagon.is_visible()  # Crossroads is off: its options are not shown
    kb.locator("input[name='opt.expansions'][value='crossroads']").check()
    assert wagon.is_visible()
    # solo game: "Add a bot" brings a bot seat without touching the player count
    spr = page.locator("#new-sprawlopolis")
    page.locator("#new-sprawlopolis > summary").click()
    assert not spr.locator(".seat-row[data-seat='1']").is_visible()
    spr.locator("button.add-bot").click()
    assert spr.locator("select[name=num_players]").input_value() == "2"
    assert spr.locator("select[name=seat1]").input_value().startswith("bot:")
    # one click from the lobby to a game against a bot, under the name typed once
    page.locator("#your-name").fill("Ana")
    page.locator("#card-kingdom-builder button.quick-play").click()
    page.wait_for_url("**/play/**")
    page.wait_for_function(READY)
    page.wait_for_function("document.querySelector(\"#presence .seatline[data-seat='0'] "
                           ".dot\")?.dataset.online === '1'")
    assert "Ana (you)" in page.locator("#presence").inner_text()
    assert "Normal (bot)" in page.locator("#presence").inner_text()
    assert page.js_errors == []


def test_names_kept_through_export_and_import(page, live_server, artifacts):
    _new_game(page, live_server, "toy", ["human", "bot:random"], ["Ana", "Robô"])
    play_to_end(page)
    assert "Ana" in page.locator("#scores").inner_text() + page.locator("#log").inner_text()
    href = page.locator("#export").get_attribute("href")
    rec = page.request.get(live_server + href).json()
    assert rec["players"] == ["Ana", "Robô"]
    page.goto(live_server + "/")
    page.locator("#import-file").set_input_files(
        files=[{"name": "rec.json", "mimeType": "application/json",
                "buffer": json.dumps(rec).encode()}])
    page.locator("#import-form button").click()
    page.wait_for_url("**/replay/**")
    page.wait_for_function("document.getElementById('stepinfo').textContent.includes('/')")
    assert page.evaluate("JSON.parse(document.getElementById('page-data').textContent)"
                         ".seat_names") == ["Ana", "Robô"]
    assert "Robô" in page.locator("body").inner_text()


def test_invite_claim_spectator_reissue_presence(browser, live_server, artifacts):
    host_ctx, bea_ctx, eve_ctx = (browser.new_context() for _ in range(3))
    try:
        host, bea, eve = host_ctx.new_page(), bea_ctx.new_page(), eve_ctx.new_page()
        _new_game(host, live_server, "toy", ["human", "invite"], ["Ana", "Bea"])
        link = host.locator(".invite-link").first.input_value()
        assert link.startswith(live_server + "/play/")  # the address the host used
        assert host.locator(".online button.copy").count() >= 2  # invite + spectator
        assert _dot(host, 1) == "0"
        bea.goto(link)
        bea.wait_for_function(READY)
        assert bea.url != link  # the claimed seat's own secret is in Bea's address now
        assert "Bea (you)" in bea.locator("#presence").inner_text()
        host.wait_for_function("document.querySelector(\"#presence .seatline[data-seat='1'] "
                               ".dot\").dataset.online === '1'")
        # a third browser opening the same link only watches
        eve.goto(link)
        eve.wait_for_function(READY)
        assert eve.locator("#spectator-note").is_visible()
        assert eve.locator("#board [data-key].cb-target, #choices button.cb-choice").count() == 0
        eve.screenshot(path=str(artifacts / "online-spectator.png"), full_page=True)
        # the host makes a new link for seat 2: Bea's old one stops working
        host.locator("button.reissue[data-seat='1']").click()
        host.wait_for_function("document.getElementById('invite-1').value !== %r" % link)
        new_link = host.locator("#invite-1").input_value()
        bea.wait_for_function("document.body.innerText.includes('no longer valid')")
        host.wait_for_function("document.querySelector(\"#presence .seatline[data-seat='1'] "
                               ".dot\").dataset.online === '0'")
        eve.goto(new_link)
        eve.wait_for_function(READY)
        assert not eve.locator("#spectator-note").count()
        assert "Bea (you)" in eve.locator("#presence").inner_text()
        host.wait_for_function("document.querySelector(\"#presence .seatline[data-seat='1'] "
                               ".dot\").dataset.online === '1'")
        host.screenshot(path=str(artifacts / "online-host-panel.png"), full_page=True)
        eve_ctx.close()  # the player's browser closes: the host sees them away
        host.wait_for_function("document.querySelector(\"#presence .seatline[data-seat='1'] "
                               ".dot\").dataset.online === '0'")
    finally:
        for c in (host_ctx, bea_ctx):
            c.close()


def test_rematch_after_the_end(page, live_server):
    _new_game(page, live_server, "toy", ["human", "bot:random"], ["Ana"])
    first = page.url
    play_to_end(page)
    page.locator("#end-close").click()
    page.locator("#rematch").click()
    page.wait_for_url(lambda u: u != first and "/play/" in u)
    page.wait_for_function(READY)
    assert page.evaluate("document.body.dataset.terminal") != "true"
    assert "Ana (you)" in page.locator("#presence").inner_text()
