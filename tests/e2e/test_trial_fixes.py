"""Browser checks for the problems of the new-user trial (screenshots in test-artifacts/):
seat rows per number of players, readable highlighted labels, no re-rendering of the choice
buttons when nothing changed, the human-readable "Your view" panels, imported replays without
"(you)", the favicon and the replay buttons' icons."""

from __future__ import annotations

import json
import random

import pytest
from driver import TARGETS, create_from_home, step

from citybuilders.core.registry import load_game, registered_games


def need(game: str) -> None:
    if game not in registered_games():
        pytest.skip("game not registered")


_STROKE = """(sel) => [...document.querySelectorAll(sel)].map((e) => {
  const cs = getComputedStyle(e);
  return [cs.stroke, cs.strokeWidth];
})"""


def test_home_shows_one_seat_row_per_player(page, live_server, artifacts):
    need("kingdom-builder")
    page.goto(live_server + "/")
    page.locator("#new-kingdom-builder > summary").click()  # "More choices" opens the form
    form = page.locator("#new-kingdom-builder form")
    rows = form.locator(".seat-row")
    total = rows.count()
    assert total >= 4
    for n in (2, 3, 4):
        form.locator("select[name=num_players]").select_option(str(n))
        visible = [rows.nth(i).is_visible() for i in range(total)]
        assert visible == [i < n for i in range(total)], (n, visible)
    form.locator("select[name=num_players]").select_option("3")
    page.locator("#new-kingdom-builder").screenshot(path=str(artifacts / "trial-home-3-seats.png"))
    assert page.console_errors == [] and page.js_errors == []


def test_highlighted_labels_have_no_stroke(page, live_server, artifacts):
    need("sprawlopolis")
    create_from_home(page, live_server, "sprawlopolis", ["human"], 1)
    page.wait_for_selector("#board [data-key].cb-target")
    for stroke, width in page.evaluate(_STROKE, "#board .cb-target text"):
        assert stroke == "none" and width in ("0px", "0"), (stroke, width)
    # select a target that carries a label (a card): its shapes are outlined in red, its
    # text is not stroked
    key = page.evaluate("""() => {
      const e = [...document.querySelectorAll('#board [data-key].cb-target')]
        .find((x) => x.querySelector('text'));
      return e ? e.getAttribute('data-key') : null;
    }""")
    assert key is not None
    page.locator(f'#board [data-key="{key}"]').dispatch_event("click")
    page.wait_for_selector("#board [data-key].cb-selected")
    texts = page.evaluate(_STROKE, "#board .cb-selected text")
    assert texts and all(s == "none" and w in ("0px", "0") for s, w in texts), texts
    # the selected card is outlined in red as a whole (its frame rectangle); its blocks and
    # road pieces keep their own colours (a stroke on every piece made the roads vanish)
    frame = page.evaluate(f"""(() => {{ const f = getComputedStyle(document.querySelector('#board [data-key="{key}"] > rect.sp-frame'));
        return [f.stroke, f.strokeWidth]; }})()""")
    assert frame == ["rgb(196, 0, 0)", "4px"], frame
    roads = page.evaluate(_STROKE, "#board .cb-selected .sp-road")
    assert all(s == "rgb(51, 51, 51)" for s, _ in roads), roads
    page.locator("#board").screenshot(path=str(artifacts / "trial-sprawlopolis-selected.png"))
    assert page.js_errors == []


def test_roll_into_town_selected_die_is_readable(page, live_server, artifacts):
    need("roll-into-town")
    create_from_home(page, live_server, "roll-into-town", ["human"], 1)
    for _ in range(40):
        if page.locator('#board [data-key^="die:"].cb-target').count():
            break
        assert step(page)
    die = page.locator('#board [data-key^="die:"].cb-target').first
    key = die.get_attribute("data-key")
    die.dispatch_event("click")
    page.wait_for_function("document.body.dataset.prefix !== ''")
    sel = f'#board [data-key="{key}"]'
    if page.locator(sel + ".cb-selected").count():  # still on the page: the die is selected
        texts = page.evaluate(_STROKE, sel + " text")
        assert texts and all(s == "none" for s, _ in texts), texts
        fill = page.evaluate(f"getComputedStyle(document.querySelector('{sel} text')).fill")
        assert fill == "rgb(176, 0, 0)"
    page.locator("#board").screenshot(path=str(artifacts / "trial-roll-into-town-die.png"))


def test_choice_buttons_are_not_rebuilt_when_the_state_is_unchanged(page, live_server,
                                                                     artifacts):
    need("roll-into-town")
    create_from_home(page, live_server, "roll-into-town", ["human"], 1)
    for _ in range(60):
        if page.locator("#choices button.cb-choice").count():
            break
        assert step(page)
    assert page.locator("#choices button.cb-choice").count()
    before = page.evaluate("""() => {
      const b = document.querySelector('#choices button.cb-choice');
      b.dataset.e2eMark = '1';
      return [document.body.dataset.stateId, document.getElementById('choices').dataset.renders];
    }""")
    # the same view again, as a websocket refresh or a reconnect delivers it
    for _ in range(3):
        page.evaluate("refresh(current)")
        page.evaluate("new Promise((r) => setTimeout(r, 150))")
    after = page.evaluate("""() => [document.body.dataset.stateId,
      document.getElementById('choices').dataset.renders,
      !!document.querySelector('#choices button[data-e2e-mark]')]""")
    assert after == [before[0], before[1], True]
    # and a real click on it acts at once (it used to time out waiting for a stable element)
    page.locator("#choices button[data-e2e-mark]").click(timeout=5000)
    page.wait_for_function(
        "([sid, pre]) => document.body.dataset.stateId !== sid || document.body.dataset.prefix"
        " !== pre", arg=[before[0], ""], timeout=10_000)
    assert page.js_errors == []


def test_your_view_panel_is_human_readable(page, live_server, artifacts):
    need("roll-builder")
    create_from_home(page, live_server, "roll-builder", ["human"], 1)
    for _ in range(8):
        step(page)
    page.wait_for_selector("#panels .panel")
    text = page.locator("#panels").inner_text()
    assert "0x" not in text and "Roads drawn" in text and "Player 1 (you)" in text
    assert "Bld1" not in text and "Placements" not in text
    page.locator("aside.right").screenshot(path=str(artifacts / "trial-roll-builder-panel.png"))


def test_kingdom_builder_panel_at_the_start(page, live_server, artifacts):
    need("kingdom-builder")
    create_from_home(page, live_server, "kingdom-builder", ["human", "bot:random"], 2)
    page.wait_for_selector("#panels .panel")
    text = page.locator("#panels").inner_text()
    assert "To move" in text and "Settlements in supply" in text
    assert "Current player" not in text and "Mandatory built" not in text
    page.locator("aside.right").screenshot(path=str(artifacts / "trial-kingdom-builder-panel.png"))


def test_imported_replay_has_no_you_and_icon_buttons(page, live_server, artifacts, tmp_path):
    from citybuilders.core.records import record_of

    g = load_game("toy")
    s = g.new_initial_state(2, 4)
    rng = random.Random(4)
    while not s.is_terminal():
        if s.current_player() == -1:
            s.apply_legal(s.sample_chance(rng))
        else:
            p = s.active_players()[0]
            s.apply_action(rng.choice(s.legal_actions(p)), p)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record_of(s).to_json()))
    page.goto(live_server + "/")
    page.locator("#import-form input[type=file]").set_input_files(str(path))
    page.locator("#import-form button[type=submit]").click()
    page.wait_for_url("**/replay/**")
    page.wait_for_selector("#scores table.scores")
    assert "(you)" not in page.locator("#scores").inner_text()
    assert "(you)" not in page.locator("#panels").inner_text()
    assert page.locator("#seat option").all_inner_texts() == ["Player 1", "Player 2"]
    for b in ("first", "prev", "next", "last"):
        box = page.locator(f"#{b} svg.ico").bounding_box()
        assert box and box["width"] >= 10 and box["height"] >= 10
    page.keyboard.press("Home")
    page.wait_for_function("document.getElementById('stepinfo').textContent.startsWith('0 /')")
    page.locator(".replay-bar").screenshot(path=str(artifacts / "trial-replay-bar.png"))
    page.screenshot(path=str(artifacts / "trial-import-replay.png"), full_page=True)
    assert page.js_errors == [] and page.console_errors == []


def test_favicon_and_unknown_pages(page, live_server):
    r = page.goto(live_server + "/favicon.ico")
    assert r.status == 200 and r.headers["content-type"].startswith("image/svg+xml")
    r = page.goto(live_server + "/no/such/page")
    assert r.status == 404 and "Error 404" in page.content()
    r = page.goto(live_server + "/api/no-such-endpoint")
    assert r.status == 404 and "error" in r.json()


def test_more_choices_opens_in_its_card_without_moving_the_others(page, live_server,
                                                                 artifacts):
    """Second new-user trial, item 14: opening "More choices" made that card take the whole
    row and moved the cards after it; now it grows downwards in its column, its form inside."""
    need("roll-into-town")
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(live_server + "/")
    boxes = """() => [...document.querySelectorAll('.gamecard')].map((c) => {
      const r = c.getBoundingClientRect(); return [c.id, Math.round(r.left), Math.round(r.top),
      Math.round(r.width)]; })"""
    before = page.evaluate(boxes)
    page.locator("#new-roll-into-town > summary").click()
    after = page.evaluate(boxes)
    # no card changed its column or width; the cards of its row stay where they were (the
    # rows below only move down, by the height the form adds)
    assert [(b[0], b[1], b[3]) for b in after] == [(b[0], b[1], b[3]) for b in before]
    row = next(b[2] for b in before if b[0] == "card-roll-into-town")
    assert [b for b in after if b[2] == row] == [b for b in before if b[2] == row]
    assert all(a[2] >= b[2] for a, b in zip(after, before))
    card = page.locator("#card-roll-into-town").bounding_box()
    for sel in ("fieldset.seats", "fieldset.options", "button.create-button"):
        inner = page.locator(f"#card-roll-into-town {sel}").first.bounding_box()
        assert inner["x"] + inner["width"] <= card["x"] + card["width"] + 1, sel
    page.screenshot(path=str(artifacts / "trial-more-choices-in-its-card.png"), full_page=True)
