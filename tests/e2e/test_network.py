"""A move whose request never reaches the server (the connection dropped, the server
restarting): the page says so in the page's language and stays playable."""

from __future__ import annotations

from driver import create_from_home, step


def test_a_lost_move_request_leaves_the_page_playable(page, live_server):
    create_from_home(page, live_server, "sprawlopolis", ["human"], 1)
    lost: list[str] = []

    def drop(route) -> None:
        lost.append(route.request.url)
        route.abort("connectionreset")

    page.route("**/api/games/*/act*", drop)
    clicks = 0
    while not lost:  # select until a click posts a move: that request is dropped
        assert step(page)
        clicks += 1
        assert clicks < 12, "no click posted a move"
    box = page.locator("#error")
    box.wait_for(state="visible")
    assert box.inner_text() == "the server could not be reached; try again"
    before = page.evaluate("document.body.dataset.stateId")
    page.unroute("**/api/games/*/act*")
    for _ in range(12):  # the same page plays on: the next posted move is applied
        assert step(page)
        if page.evaluate("document.body.dataset.stateId") != before:
            break
    assert page.evaluate("document.body.dataset.stateId") != before
    assert page.js_errors == []


def test_a_click_on_the_pushed_state_counts_before_the_moves_reply(page, live_server):
    """The websocket brings the new state before the POST's reply (here held back 2 s): a click
    in that state selects at once, and the late reply does not wipe that selection (the click
    used to be dropped while the page waited: a CI flake of the clicking tests)."""
    import time

    create_from_home(page, live_server, "sprawlopolis", ["human"], 1)
    held: list[str] = []

    def late(route) -> None:
        held.append(route.request.url)
        response = route.fetch()
        time.sleep(2.0)
        route.fulfill(response=response)

    page.route("**/api/games/*/act*", late)
    start = page.evaluate("document.body.dataset.stateId")
    clicks = 0
    while not held:  # select until a click posts a move (its reply is held back)
        page.evaluate("""() => { const e = document.querySelector('#board [data-key].cb-target,'
            + ' #choices button.cb-choice'); e.dispatchEvent(new MouseEvent('click', {bubbles: true,
            detail: 1})); }""")
        clicks += 1
        assert clicks < 12, "no click posted a move"
    page.wait_for_function("(s) => document.body.dataset.stateId !== s", arg=start,
                           timeout=1500)  # pushed, while the reply is still held
    assert page.evaluate("document.body.dataset.prefix") == ""
    page.evaluate("""() => document.querySelector('#board [data-key].cb-target')
        .dispatchEvent(new MouseEvent('click', {bubbles: true, detail: 1}))""")
    chosen = page.evaluate("document.body.dataset.prefix")
    assert chosen != "", "the click on the pushed state was dropped"
    page.wait_for_timeout(2500)  # the reply has come
    assert page.evaluate("document.body.dataset.prefix") == chosen
    page.unroute("**/api/games/*/act*")
    assert page.js_errors == []


def test_replay_draws_the_newest_step_when_replies_cross(page, live_server):
    """Quick steps send several requests; the first one's reply (step 0, no move to outline)
    is held back until after the others: the page still ends on the last step asked for."""
    from ui_helpers import new_game, play_by_api

    g = new_game(live_server, "sprawlopolis", ["human"], seed=5)
    play_by_api(live_server, g, 0)
    page.goto(f"{live_server}/replay/{g['id']}?t={g['tokens'][0]}")
    page.wait_for_selector("#board svg")
    held: list = []

    def slow_first(route) -> None:
        if "step=0" in route.request.url and not held:
            held.append(route)  # answered below, after the later steps
            return
        route.continue_()

    page.route("**/api/games/*/replay*", slow_first)
    page.locator("#first").click()
    for _ in range(6):
        page.locator("#next").click()
    page.wait_for_function("document.getElementById('stepinfo').textContent.startsWith('6 ')")
    assert held, "the first step's request was not held"
    held[0].continue_()
    page.wait_for_timeout(1000)  # its reply has come and must not draw over step 6
    assert page.locator("#stepinfo").inner_text().startswith("6 ")
    assert page.locator("#board .cb-step").count() > 0
    page.unroute("**/api/games/*/replay*")
    assert page.js_errors == []
