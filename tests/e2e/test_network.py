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
