"""End-to-end games in a real browser (Chromium via Playwright): every game by clicking."""

from __future__ import annotations

import pytest
from driver import TARGETS, create_from_home, play_to_end, step

from citybuilders.core.registry import registered_games


def need(game: str) -> None:
    if game not in registered_games():
        pytest.skip("game not registered")


def finish_and_screenshot(page, artifacts, name: str) -> None:
    page.locator("#board").screenshot(path=str(artifacts / f"{name}-board-start.png"))
    for _ in range(6):  # a few moves in, then a mid-game shot
        if not step(page):
            break
    page.locator("#board").screenshot(path=str(artifacts / f"{name}-board-mid.png"))
    play_to_end(page)
    page.screenshot(path=str(artifacts / f"{name}-end.png"), full_page=True)
    assert page.locator("#end-scores table.scores tr").count() >= 2
    assert page.js_errors == []
    assert page.console_errors == []
    panels = page.locator("#panels").inner_text()
    assert "0x" not in panels and "Current player" not in panels
    return page.locator("#end-result").inner_text()


def test_kingdom_builder_vs_bots_by_clicking(page, live_server, artifacts):
    need("kingdom-builder")
    create_from_home(page, live_server, "kingdom-builder",
                     ["human", "bot:random", "bot:greedy"], 3)
    assert page.locator("#board svg").count() == 1
    page.wait_for_selector("#board [data-key].cb-target")  # legal hexes highlighted
    line = finish_and_screenshot(page, artifacts, "kingdom-builder")
    assert line.startswith(("Winner: ", "Shared win: "))


def test_sprawlopolis_solo_by_clicking(page, live_server, artifacts):
    need("sprawlopolis")
    create_from_home(page, live_server, "sprawlopolis", ["human"], 1)
    line = finish_and_screenshot(page, artifacts, "sprawlopolis")
    assert line.startswith(("You won! Score ", "You lost: score ")) and "target" in line


def test_roll_into_town_solo_by_clicking(page, live_server, artifacts):
    need("roll-into-town")
    create_from_home(page, live_server, "roll-into-town", ["human"], 1)
    line = finish_and_screenshot(page, artifacts, "roll-into-town")
    assert line.startswith("Final score: ") and "your rank: " in line
    assert "Round 13" not in page.locator("#panels").inner_text()


def test_roll_builder_solo_by_clicking(page, live_server, artifacts):
    need("roll-builder")
    create_from_home(page, live_server, "roll-builder", ["human"], 1)
    line = finish_and_screenshot(page, artifacts, "roll-builder")
    assert line.startswith("Final score: ") and "your rank: " in line


def test_two_browsers_play_online_through_an_invite_link(browser, live_server, artifacts):
    game = "kingdom-builder" if "kingdom-builder" in registered_games() else "toy"
    ctx_a, ctx_b = browser.new_context(), browser.new_context()  # two separate browsers
    try:
        a, b = ctx_a.new_page(), ctx_b.new_page()
        create_from_home(a, live_server, game, ["human", "invite"], 2)
        link = a.locator(".invite-link").first.input_value()
        assert link.startswith(live_server + "/play/") and "?t=" in link
        b.goto(link)
        b.wait_for_function("document.body.dataset.stateId !== undefined")
        assert b.locator(".invite-link").count() == 0  # the guest does not see the host's links
        # the two players alternate; every move shows up live in the other browser
        pages = [a, b]
        done = set()
        seen_remote_update = False
        for _ in range(2000):
            if len(done) == 2:
                break
            progressed = False
            for i, p in enumerate(pages):
                if i in done:
                    continue
                if p.evaluate("document.body.dataset.terminal") == "true":
                    done.add(i)
                    continue
                if p.locator(TARGETS).count():
                    other = pages[1 - i]
                    sid = other.evaluate("document.body.dataset.stateId")
                    step(p)
                    progressed = True
                    # a move was sent (not a selection, nor a confirm step still open)
                    if p.evaluate("document.body.dataset.prefix + document.body.dataset.confirming") == "":
                        other.wait_for_function(
                            f"document.body.dataset.stateId !== {sid!r}", timeout=10_000)
                        seen_remote_update = True
            if not progressed:
                a.wait_for_timeout(50)
        assert done == {0, 1} and seen_remote_update
        a.screenshot(path=str(artifacts / f"online-{game}-host-end.png"), full_page=True)
        b.screenshot(path=str(artifacts / f"online-{game}-guest-end.png"), full_page=True)
        host = a.locator("#end-scores").inner_text().replace(" (you)", "")
        guest = b.locator("#end-scores").inner_text().replace(" (you)", "")
        assert host == guest  # both browsers see the same final breakdown
    finally:
        ctx_a.close()
        ctx_b.close()


def test_bad_token_page_and_replay_page(page, live_server):
    r = page.goto(live_server + "/play/0123456789abcdef?t=nope")
    assert r.status == 404 and "not found" in page.locator("#error-message").inner_text()
    create_from_home(page, live_server, "toy", ["human", "bot:random"], 2)
    play_to_end(page)
    page.locator("#end-replay").click()
    page.wait_for_url("**/replay/**")
    page.wait_for_function("document.getElementById('stepinfo').textContent.includes('/')")
    total = page.locator("#stepinfo").inner_text().split("/")[1].strip()
    page.locator("#first").click()
    page.wait_for_function("document.getElementById('stepinfo').textContent.startsWith('0 /')")
    page.locator("#next").click()
    page.wait_for_function("document.getElementById('stepinfo').textContent.startsWith('1 /')")
    page.locator("#last").click()
    page.wait_for_function(
        f"document.getElementById('stepinfo').textContent.startsWith('{total} /')")
    assert page.js_errors == []
