"""Drive a play page by clicking: always the first highlighted key (SVG target or button)."""

from __future__ import annotations

import time

TARGETS = "#board [data-key].cb-target, #choices button.cb-choice"


def create_from_home(page, base: str, game: str, seats: list[str], num_players: int) -> None:
    """Fill the home page form of ``game`` (seat values: human, invite, bot:<name>) and start."""
    page.goto(base + "/")
    det = page.locator(f"#new-{game}")
    if det.get_attribute("open") is None:
        det.locator(":scope > summary").click()
    form = det.locator("form")
    form.locator("select[name=num_players]").select_option(str(num_players))
    for i, s in enumerate(seats):
        form.locator(f"select[name=seat{i}]").select_option(s)
    form.locator("button.create-button").click()
    page.wait_for_url("**/play/**")
    page.wait_for_function("document.body.dataset.stateId !== undefined")


_READY = (
    "document.body.dataset.terminal === 'true' || document.querySelector(%r)" % TARGETS)
_PICK = """(sel) => {
  // a target on the board first, else a button of the turn bar (which comes first on the page)
  const el = document.querySelector("#board [data-key].cb-target") || document.querySelector(sel);
  const before = [document.body.dataset.stateId, document.body.dataset.prefix,
                  document.body.dataset.confirming];
  if (!el) return {before, point: null, found: false, key: null};
  const key = el.getAttribute("data-key") || el.textContent;
  el.scrollIntoView({block: "nearest", inline: "nearest"});
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  const point = hit && (hit === el || el.contains(hit)) ? [x, y] : null;
  if (!point) el.setAttribute("data-e2e-pick", "1");
  return {before, point, found: true, key};
}"""
_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
_PAGE_NOW = """(sel) => ({data: {...document.body.dataset},
  status: (document.getElementById("status") || {}).textContent,
  error: (document.getElementById("error") || {}).textContent,
  targets: Array.from(document.querySelectorAll(sel)).slice(0, 8)
    .map((e) => e.getAttribute("data-key") || e.textContent)})"""
_CHANGED = """([sid, pre, conf]) => document.body.dataset.stateId !== sid ||
  document.body.dataset.prefix !== pre || document.body.dataset.confirming !== conf"""


def step(page, timeout: float = 15.0) -> bool:
    """Click the first highlighted target (SVG element or button); False once the game is over.

    A real mouse click at the target's centre when the target is what lies there; if another
    shape (a label) is drawn on top, the click event is dispatched on the target itself.
    Waits until the state, the selection or the confirm step (a move that cannot be undone
    asks for a confirmation click) changed.
    """
    page.wait_for_function(_READY, timeout=timeout * 1000)
    if page.evaluate("document.body.dataset.terminal") == "true":
        return False
    # two animation frames first: a resize or zoom applied in the next frame (CB.zoomApply)
    # would move the target after its point was measured (CI: a click after the screenshots'
    # phone-size round trip landed beside the card)
    page.evaluate(_FRAMES)
    pick = page.evaluate(_PICK, TARGETS)
    if pick["point"]:
        page.mouse.click(*pick["point"])
    else:
        page.locator("[data-e2e-pick]").dispatch_event("click")
    try:
        page.wait_for_function(_CHANGED, arg=pick["before"], timeout=timeout * 1000)
    except Exception as exc:  # say what was clicked and what the page shows (a CI flake's clue)
        now = page.evaluate(_PAGE_NOW, TARGETS)
        raise AssertionError(
            f"clicking {pick['key']!r} ({'at ' + str(pick['point']) if pick['point'] else 'event'})"
            f" changed nothing in {timeout} s; before {pick['before']}, now {now}; js errors "
            f"{getattr(page, 'js_errors', None)}, console {getattr(page, 'console_errors', None)}"
        ) from exc
    return True


def play_to_end(page, max_clicks: int = 3000, max_seconds: float = 180.0) -> int:
    """Click until the end screen shows; returns the number of clicks."""
    t0 = time.time()
    clicks = 0
    while step(page):
        clicks += 1
        assert clicks < max_clicks, "game did not end"
        assert time.time() - t0 < max_seconds, "game took too long"
    page.wait_for_selector("#endscreen:not([hidden])")
    return clicks
