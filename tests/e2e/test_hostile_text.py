"""Hostile texts in a real browser: seat names that try to run script stay text, the boards'
SVG is inserted inert, and normal pages raise no Content-Security-Policy violation."""

from __future__ import annotations

import pytest

HOSTILE = [
    "<!--<script>",
    "</script><img src=x onerror=__pwned=1>",
    "<img src=x onerror=window.__pwned=1>",
]
WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "")));
"""


@pytest.fixture
def watched(browser):
    """A page whose context enforces the CSP (no bypass), with violations recorded in
    ``window.__csp`` and page errors in ``page.js_errors``. Waits use function predicates
    (an expression string would need eval, which the policy forbids)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, bypass_csp=False)
    page = ctx.new_page()
    page.js_errors = []  # type: ignore[attr-defined]
    page.console_errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.on("console", lambda m: page.console_errors.append(f"{m.text} {m.location.get('url', '')}")
            if m.type == "error" else None)
    page.add_init_script(WATCH)
    yield page
    ctx.close()


def _hostile_game(page, base):
    page.goto(base + "/")  # the owner cookie, so "My games" lists the game
    r = page.request.post(base + "/api/games", data={
        "game": "toy", "num_players": 3,
        "seats": [{"kind": "human", "name": n} for n in HOSTILE]})
    assert r.status == 201, r.text()
    info = r.json()
    return info["id"], [s["token"] for s in info["seats"]]


def _assert_not_pwned(page):
    assert page.evaluate("window.__pwned") is None
    assert page.js_errors == []


def test_hostile_seat_names_render_as_text(watched, live_server):
    page = watched
    gid, toks = _hostile_game(page, live_server)
    page.goto(f"{live_server}/play/{gid}?" + "&".join(f"t={t}" for t in toks))
    page.wait_for_function("() => document.body.dataset.stateId !== undefined")
    page.wait_for_selector("#scores table.scores")
    _assert_not_pwned(page)
    scores = page.locator("#scores").inner_text()
    tabs = page.locator("#seat-tabs").inner_text()
    for name in HOSTILE:
        assert name in scores and name in tabs
    assert page.locator("#scores img, #seat-tabs img").count() == 0

    page.goto(f"{live_server}/replay/{gid}?t={toks[0]}")
    page.wait_for_selector("#scores table.scores")
    _assert_not_pwned(page)
    assert page.locator("#stepinfo").inner_text() == "3 / 3"  # the page is not blanked
    assert [page.locator("#seat option").nth(i).inner_text() for i in range(3)] == HOSTILE
    for name in HOSTILE:
        assert name in page.locator("#scores").inner_text()

    page.goto(live_server + "/")
    row = page.locator(f"#my-games tr[data-game-id='{gid}']")
    assert row.count() == 1
    for name in HOSTILE:  # "My games" names the players: as text
        assert name in row.inner_text()
    _assert_not_pwned(page)


def test_a_hostile_board_svg_is_inserted_inert(watched, live_server):
    page = watched
    gid, toks = _hostile_game(page, live_server)
    page.goto(f"{live_server}/play/{gid}?t={toks[0]}")
    page.wait_for_function("() => document.body.dataset.stateId !== undefined")
    page.evaluate("""() => CB.setSvg(document.getElementById("board"),
      "<svg xmlns='http://www.w3.org/2000/svg'><script>window.__pwned=1</script>" +
      "<image href='x' onerror='window.__pwned=2'/><a href='javascript:window.__pwned=3'>" +
      "<text data-key='k' onclick='window.__pwned=4'>&lt;b&gt;ok</text></a>" +
      "<foreignObject><img src=x onerror='window.__pwned=5'></foreignObject></svg>")""")
    page.locator("#board text").dispatch_event("click")
    page.wait_for_timeout(200)
    _assert_not_pwned(page)
    board = page.locator("#board")
    assert board.locator("script, foreignObject, img").count() == 0
    assert board.locator("text").text_content() == "<b>ok"
    assert board.locator("a").get_attribute("href") is None
    assert board.locator("text").get_attribute("data-key") == "k"  # harmless attributes kept


def test_normal_pages_raise_no_csp_violation(watched, live_server):
    page = watched
    r = page.request.post(live_server + "/api/games", data={
        "game": "toy", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    info = r.json()
    tok = info["seats"][0]["token"]
    for url in ("/", f"/play/{info['id']}?t={tok}", f"/replay/{info['id']}?t={tok}",
                "/no-such-page"):
        page.goto(live_server + url)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.__csp") == [], url
    assert page.js_errors == []
    assert [e for e in page.console_errors if "404" not in e] == []
