"""The score calculator page (/score) in a real Chromium: rebuild each game's documented
example (examples/score/, from docs/formats.md) by clicking, and check the breakdown shown
equals ``citybuilders score`` on the same file; an invalid placement is flagged on the board;
save -> load round trip; the share link reproduces the position; phone viewport; axe-core;
screenshots in test-artifacts/ (desktop 1280x800 and phone 390x844, en / pt-BR / zh-Hant).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from axe import violations

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "score"
GAMES = ("kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder")


def cli_score(path: Path, game: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "citybuilders", "score", game, str(path),
                          "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def expected_table(game: str, js: dict) -> dict[str, list[int]]:
    """The breakdown table the page must show for the CLI's ``--json`` result ``js``."""
    if game == "kingdom-builder":
        pl = js["players"]
        rows = {c: [p["cards"][c] for p in pl] for c in pl[0]["cards"]}
        rows["castles"] = [p["castles"] for p in pl]
        rows.update({t: [p["tasks"][t] for p in pl] for t in pl[0].get("tasks", {})})
        rows["total"] = [p["total"] for p in pl]
    elif game == "sprawlopolis":
        rows = {f"group:{z}": [v] for z, v in js["groups"].items()}
        rows["roads"] = [-js["roads"]]
        rows.update({f"condition:{n}": [v] for n, v in js["conditions"].items()})
        rows["target"] = [js["target"]]
        rows["total"] = [js["total"]]
    elif game == "roll-into-town":
        pl = js["players"]
        rows = {c: [p["parts"][c] for p in pl] for c in pl[0]["parts"]}
        rows["total"] = [p["total"] for p in pl]
    else:
        rows = {c: [v] for c, v in js["parts"].items()}
        rows["total"] = [js["total"]]
    return rows


def shown_table(page) -> dict[str, list[int]]:
    return page.evaluate("""() => Object.fromEntries(Array.from(
        document.querySelectorAll('#score-table tr[data-row]')).map((tr) => [tr.dataset.row,
        Array.from(tr.querySelectorAll('td')).map((td) => Number(td.textContent))]))""")


def settle(page) -> None:
    """Wait until the page has scored its current position (no request in flight)."""
    page.wait_for_function("""() => { const h = location.hash;
        return document.body.dataset.scored && document.body.dataset.scoredHash === h; }""",
                           timeout=15000)


_LINE_POINT = """(key) => {
  const el = Array.from(document.querySelectorAll('#board [data-key]'))
    .find((e) => e.getAttribute('data-key') === key);
  el.scrollIntoView({block: 'center'});
  const m = el.getScreenCTM();
  const x = (el.x1.baseVal.value + el.x2.baseVal.value) / 2;
  const y = (el.y1.baseVal.value + el.y2.baseVal.value) / 2;
  return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
}"""


def click_key(page, key: str) -> None:
    """A real mouse click on the board element ``key`` (a road side is a thin line: its
    midpoint)."""
    loc = page.locator(f'#board [data-key="{key}"]').first
    if loc.evaluate("(e) => e.tagName") == "line":
        page.mouse.click(*page.evaluate(_LINE_POINT, key))
    else:
        loc.click()
    settle(page)


def open_game(page, base: str, game: str, query: str = "") -> None:
    page.goto(f"{base}/score{query}")
    page.click(f"#game-tabs [data-game={game}]")
    page.wait_for_selector("#board svg")
    settle(page)


def rebuild_kingdom_builder(page, data: dict) -> None:
    for k, (sid, rot) in enumerate(data["sections"]):
        page.select_option(f'#setup [data-section="{k}"]', sid)
        settle(page)
        page.select_option(f'#setup [data-rotation="{k}"]', str(rot))
        settle(page)
    for k, card in enumerate(data["cards"]):
        page.select_option(f'#setup [data-card="{k}"]', card)
        settle(page)
    for task in data.get("tasks", []):
        page.check(f'#setup [data-task="{task}"]')
        settle(page)
    for key in ("settlements", "wagons", "ships", "warriors", "city_hall"):
        page.click(f'#palette [data-piece="{key}"]')
        for p, hexes in enumerate(data.get(key, [])):
            page.click(f'#palette [data-player="{p}"]')
            for r, c in hexes[:1] if key == "city_hall" else hexes:  # a city hall: its centre
                click_key(page, f"hex:{r},{c}")


def rebuild_sprawlopolis(page, data: dict) -> None:
    for k, c in enumerate(data["conditions"]):
        page.select_option(f'#setup [data-condition="{k}"]', str(c))
        settle(page)
    for e in data["cards"]:
        if (e.get("rot", 0) == 180) != (page.get_attribute("#sp-rotate", "aria-pressed") == "true"):
            page.click("#sp-rotate")
        page.click(f'#palette [data-card="{e["card"]}"]')
        page.locator(f'#board [data-key="pos:{e["row"]},{e["col"]}"]').hover()
        assert page.locator("#board .cb-preview").count() == 4  # the 2x2 placement preview
        click_key(page, f'pos:{e["row"]},{e["col"]}')


def rebuild_roll_into_town(page, data: dict) -> None:
    page.fill("#rit-name", data["name"])
    for r, row in enumerate(data["map"]):
        for c, tok in enumerate(row.split()):
            if tok in (".", "TH"):
                continue
            for part in tok.split("+"):
                page.click(f'#palette [data-token="{part}"]')
                click_key(page, f"sq:{r},{c}")


def rebuild_roll_builder(page, data: dict) -> None:
    from citybuilders.games.roll_builder.loader import load_shipped_sheet

    sheet = load_shipped_sheet(data["sheet"])
    page.select_option("#rb-sheet", data["sheet"])
    settle(page)
    for iid in data["innovations"]:
        click_key(page, f"circle:{iid}.1")
    for e in data["roads"]:
        click_key(page, "edge:" + sheet.edge_name[sheet.edge_of(e)])
    page.click('#palette [data-tool="mark"]')
    for m in data["marks"]:
        click_key(page, f"space:{m}")
    for space, n in data["buildings"]:
        page.click(f'#palette [data-tool="b{n}"]')
        click_key(page, f"space:{space}")
    for box, v in data["wonder"].items():
        page.select_option("#rb-value", str(v))
        click_key(page, f"box:{box}")
    for key in ("favor_crossed", "strength_crossed", "wealth_stored"):
        page.fill(f"#rb-{key}", str(data[key]))
        settle(page)


REBUILD = {"kingdom-builder": rebuild_kingdom_builder, "sprawlopolis": rebuild_sprawlopolis,
           "roll-into-town": rebuild_roll_into_town, "roll-builder": rebuild_roll_builder}


@pytest.mark.parametrize("name", GAMES + ("kingdom-builder-crossroads",))
def test_rebuild_example_by_clicking(page, live_server, tmp_path, name):
    game = name if name in GAMES else "kingdom-builder"
    src = EXAMPLES / f"{name}.json"
    data = json.loads(src.read_text(encoding="utf-8"))
    want = cli_score(src, game)
    open_game(page, live_server, game)
    REBUILD[game](page, data)
    assert page.locator("#flag").is_hidden(), page.inner_text("#flag")
    assert shown_table(page) == expected_table(game, want)
    # save: the downloaded score file scores the same with the CLI
    with page.expect_download() as dl:
        page.click("#save")
    saved = tmp_path / "saved.json"
    dl.value.save_as(saved)
    assert cli_score(saved, game) == want
    # share link: a fresh page on the link shows the same breakdown
    link = page.input_value("#share")
    other = page.context.new_page()
    other.goto(link)
    other.wait_for_selector("#score-table")
    settle(other)
    assert shown_table(other) == expected_table(game, want)
    # load: the saved file on a fresh page
    fresh = page.context.new_page()
    fresh.goto(live_server + "/score")
    settle(fresh)
    empty = fresh.evaluate("location.hash")
    fresh.set_input_files("#load", str(saved))
    # the file is read asynchronously; Kingdom Builder is also the page's first game, so wait
    # for the position itself (the link) to change, not only the game
    fresh.wait_for_function(f"document.body.dataset.game === {game!r} && "
                            f"location.hash !== {empty!r}")
    settle(fresh)
    assert shown_table(fresh) == expected_table(game, want)
    assert not page.js_errors


def test_invalid_placements_are_flagged(page, live_server, artifacts):
    open_game(page, live_server, "sprawlopolis")
    # an empty city starts with a hint beside the score, not the red alert of a broken rule
    page.wait_for_selector("#sp-start-hint")
    assert page.locator("#flag").is_hidden()
    page.click('#palette [data-card="4"]')
    click_key(page, "pos:0,0")
    page.click('#palette [data-card="9"]')
    # checked as you go: the preview at a corner-only cell is refused before the click...
    page.locator('#board [data-key="pos:2,2"]').hover()
    # the answer for this very cell (the pointer may cross other cells on its way there)
    page.wait_for_function("document.body.dataset.preview === 'illegal' && document."
                           "querySelectorAll('#board .cb-preview.illegal').length === 4")
    assert page.locator("#board .cb-preview.illegal").count() == 4
    # the score's answer redraws the board (under load it can arrive after the preview): the
    # preview under the pointer is drawn again
    assert page.evaluate("async () => { await score(); return document.querySelectorAll("
                         "'#board .cb-preview.illegal').length; }") == 4
    assert "touches the city only at a corner" in page.inner_text("#preview-note")
    page.screenshot(path=str(artifacts / "score-sprawlopolis-illegal-preview.png"))
    page.locator('#board [data-key="pos:1,2"]').hover()
    page.wait_for_function("document.body.dataset.preview === 'legal' && document."
                           "querySelectorAll('#board .cb-preview.illegal').length === 0")
    assert page.locator("#board .cb-preview.illegal").count() == 0
    # ... and a card placed there all the same is flagged on the board with the rule
    click_key(page, "pos:2,2")  # touches card 4 only at a corner
    assert "touches the city only at a corner" in page.inner_text("#flag")
    page.screenshot(path=str(artifacts / "score-sprawlopolis-flagged.png"))
    bad = page.evaluate("Array.from(document.querySelectorAll('#board .cb-bad'))"
                        ".map((e) => e.getAttribute('data-key')).sort()")
    assert bad == ["pos:2,2", "pos:2,3", "pos:3,2", "pos:3,3"]
    page.click("#sp-undo")
    settle(page)
    assert page.locator("#flag").is_hidden()
    # Kingdom Builder: a settlement on a mountain hex
    open_game(page, live_server, "kingdom-builder")
    click_key(page, "hex:0,3")
    assert "hex 0,3 is mountain" in page.inner_text("#flag")
    page.screenshot(path=str(artifacts / "score-kingdom-builder-flagged.png"))
    assert page.evaluate("document.querySelector('#board .cb-bad').getAttribute('data-key')") \
        == "hex:0,3"
    click_key(page, "hex:0,3")  # click again: removed, valid again
    assert page.locator("#flag").is_hidden()


def test_keyboard_places_and_removes(page, live_server):
    open_game(page, live_server, "kingdom-builder")
    page.focus("#board")
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):  # the cursor: 0,0, 0,1, then 1,1
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    settle(page)
    assert page.evaluate("document.querySelector('#board .cb-cursor').getAttribute('data-key')") \
        == "hex:1,1"
    # P1: Knights 2 (one on row 1) + Lords 12 (top-left); P2 second there with 0: Lords 6
    # (rules option lords_zero_scores=ranked, the default)
    assert shown_table(page)["total"] == [14, 6]
    link = page.input_value("#share")
    assert page.locator("#board .kb-settlement").count() == 1 and "#p=" in link


def test_lords_rule_option(page, live_server):
    """The Lords card's rules option (lords_zero_scores): offered while Lords is one of the
    three cards, written into the file's options (and so the link) only when not the usual
    rule, and the score follows it."""
    open_game(page, live_server, "kingdom-builder")
    page.focus("#board")
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    settle(page)
    assert shown_table(page)["total"] == [14, 6]  # ranked: P2's 0 settlements are second
    usual = page.input_value("#share")
    lords = page.locator("#kb-lords")
    assert page.locator("#kb-lords").is_visible() and lords.input_value() == "ranked"
    lords.select_option("never")
    settle(page)
    assert shown_table(page)["total"] == [14, 0]  # no settlement there: no Lords points
    assert page.input_value("#share") != usual
    lords.select_option("ranked")
    settle(page)
    assert page.input_value("#share") == usual and shown_table(page)["total"] == [14, 6]
    k = next(k for k in range(3)
             if page.locator(f'select[data-card="{k}"]').input_value() == "lords")
    page.locator(f'select[data-card="{k}"]').select_option("farmers")
    assert page.locator("#kb-lords").is_hidden()


def test_a_file_the_editors_cannot_draw_is_refused_in_words(page, live_server, tmp_path):
    """A loaded file or a link with a key missing or of the wrong type: the page keeps what
    it showed and says why, with the calculator's refusal (field named, page language); no
    script error. Clearing the board keeps the setup, the rules options included."""
    import base64

    open_game(page, live_server, "kingdom-builder", "?lang=pt_BR")
    cases = [({"game": "sprawlopolis"}, "conditions:"),
             ({"game": "kingdom-builder", "sections": [["tavern", 0]]}, "sections"),
             ({"game": "sprawlopolis", "conditions": [1, 7, 12], "cards": "x"}, "cards"),
             ({"game": "chess"}, "game")]
    for k, (data, field) in enumerate(cases):
        path = tmp_path / f"bad{k}.json"
        path.write_text(json.dumps(data))
        page.evaluate("document.querySelector('#load-flag').textContent = ''")
        page.set_input_files("#load", str(path))
        page.wait_for_function("document.querySelector('#load-flag').textContent.includes(': ')")
        text = page.locator("#load-flag").inner_text()
        assert text.startswith("Este arquivo de pontuação não pode ser aberto aqui: "), (k, text)
        assert field in text, text
        assert page.get_attribute('#game-tabs [data-game="kingdom-builder"]',
                                  "aria-pressed") == "true"
        assert page.locator('#setup [data-section="0"]').input_value() == "tavern"
    # the next change puts the message away
    page.select_option("#kb-lords", "never")
    settle(page)
    assert page.locator("#load-flag").is_hidden()
    page.click("#clear")
    settle(page)
    assert page.locator("#kb-lords").input_value() == "never"  # the setup stays
    # a link whose position lacks the setup: the usual board, and why, in Chinese
    frag = base64.urlsafe_b64encode(json.dumps(
        {"g": "kingdom-builder", "f": {}}).encode()).decode().rstrip("=")
    page.goto(f"{live_server}/score?lang=zh_Hant#p={frag}")
    page.wait_for_function("document.querySelector('#load-flag').textContent.includes('：')")
    assert "sections" in page.locator("#load-flag").inner_text()
    page.wait_for_selector("#board svg")
    assert page.js_errors == []


def test_sprawlopolis_same_condition_twice_is_flagged_at_once(page, live_server):
    """Two identical scoring conditions on an empty city: the red flag names them at once
    (not the first-card hint, which hid it until a card was placed)."""
    open_game(page, live_server, "sprawlopolis")
    first = page.locator('#setup [data-condition="0"]').input_value()
    page.select_option('#setup [data-condition="1"]', first)
    settle(page)
    assert page.locator("#flag").is_visible()
    assert "conditions[1]" in page.locator("#flag").inner_text()
    assert page.locator("#sp-start-hint").count() == 0


def test_tool_buttons_do_not_redraw_the_board(page, live_server):
    """Choosing a player or a piece changes what the next click places, not the position: no
    score request, the same board element (a board redrawn between mouse-down and mouse-up
    loses the click that follows; the Crossroads rebuild test once lost one that way)."""
    open_game(page, live_server, "kingdom-builder")
    page.wait_for_timeout(400)
    page.wait_for_load_state("networkidle")  # the tab's own score answer has been drawn
    scored = []
    page.on("request", lambda r: scored.append(r.url) if "/api/score/" in r.url else None)
    page.evaluate("window.cbBoard = document.querySelector('#board svg')")
    page.click('#palette [data-player="1"]')
    page.click('#palette [data-piece="settlements"]')
    assert page.get_attribute('#palette [data-player="1"]', "aria-pressed") == "true"
    page.wait_for_timeout(400)  # well past the 60 ms the page waits before scoring
    assert scored == []
    assert page.evaluate("window.cbBoard === document.querySelector('#board svg')")
    click_key(page, "hex:0,0")  # the click right after places P2's settlement
    assert len(scored) == 1 and page.locator("#board .kb-settlement").count() == 1
    # P2: Knights 2 (one on row 0) + Lords 12; P1, second with 0: Lords 6
    assert shown_table(page)["total"] == [6, 14]


def test_highlight_what_scored(page, live_server):
    data = json.loads((EXAMPLES / "roll-into-town.json").read_text(encoding="utf-8"))
    link_page = page
    open_game(link_page, live_server, "roll-into-town")
    rebuild_roll_into_town(link_page, {"name": "Ann", "map": data["map"][:4] + [
        "c:NW fa fa mo TH QU mo . ."] + ["." + " ." * 8] * 4})
    page.hover('#score-table tr[data-row="lighthouse"] th')
    keys = page.evaluate("Array.from(document.querySelectorAll('#board .cb-scored'))"
                         ".map((e) => e.getAttribute('data-key'))")
    assert keys == ["sq:2,3"]


def _axe(page) -> list[dict]:
    return violations(page)


@pytest.mark.parametrize("lang", ["en", "pt_BR", "zh_Hant"])
def test_screenshots_phone_and_axe(browser, live_server, artifacts, lang):
    example = {g: json.loads((EXAMPLES / f"{g}.json").read_text(encoding="utf-8"))
               for g in GAMES}
    import base64
    for size, (w, h) in (("desktop", (1280, 800)), ("phone", (390, 844))):
        ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=size == "phone")
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        for g in GAMES:
            frag = base64.urlsafe_b64encode(json.dumps(
                {"g": g, "f": example[g], "c": [0, 1]}).encode()).decode().rstrip("=")
            page.goto(f"{live_server}/score?lang={lang}#p={frag}")
            page.wait_for_selector("#score-table")
            settle(page)
            page.screenshot(path=str(artifacts / f"score-{g}-{size}-{lang}.png"), full_page=True)
            if g == "roll-into-town" and size == "desktop":  # the palette reads as the map
                button = lambda tok: page.locator(  # noqa: E731
                    f'#palette [data-token="{tok}"]').inner_text()
                assert [button(t) for t in ("HO", "QU", "LT", "r:NW", "c:ESW")] == {
                    "en": ["HO house", "QU quarry", "LT lighthouse (top)", "NW", "ESW"],
                    "pt_BR": ["CS casa", "PE pedreira", "F↑ farol (topo)", "NO", "LSO"],
                    "zh_Hant": ["房子", "採石場", "塔頂 燈塔（頂部）", "北、西", "東、南、西"],
                }[lang]
                assert page.get_attribute('#palette [data-token="r:NW"]', "title") == "r:NW"
            if size == "phone":  # usable: the page is not wider than the screen, the whole
                # board shows at "Fit"; hexes/squares too small for a finger zoom on a first tap
                # (the board then scrolls inside its own box) and the next tap edits
                assert page.evaluate("document.documentElement.scrollWidth") <= w + 1, g
                box = page.locator("#board").bounding_box()
                svg = page.locator("#board svg").bounding_box()
                assert box and svg and box["width"] <= w and svg["width"] <= box["width"], g
                spaces = ('#board [data-key^="hex:"], #board [data-key^="sq:"], '
                          '#board [data-key^="space:"], #board [data-key^="pos:"]')
                smallest = """(sel) => Math.min(...Array.from(document.querySelectorAll(sel))
                    .slice(0, 50).map((e) => { const r = e.getBoundingClientRect();
                    return Math.max(r.width, r.height); }))"""
                tap = page.evaluate(smallest, spaces)
                if tap < 32:
                    link = page.locator("#share").input_value()
                    page.locator(spaces).nth(40).tap()
                    assert page.locator("#zoom-level").inner_text() != "100%", g
                    assert page.locator("#hint-text").inner_text(), g
                    assert page.locator("#share").input_value() == link, g  # nothing placed
                    zoomed = page.evaluate(smallest, spaces)
                    assert zoomed >= 32, (g, tap, zoomed)
                    assert page.evaluate("document.documentElement.scrollWidth") <= w + 1, g
                    page.screenshot(path=str(artifacts / f"score-{g}-phone-zoomed-{lang}.png"))
                    page.click("#zoom-fit")
                    assert page.locator("#zoom-level").inner_text() == "100%"
                else:
                    assert tap >= 24, (g, tap)
            if lang == "en" and size == "desktop" and g == "kingdom-builder":
                page.emulate_media(media="print")  # print-friendly: board and breakdown only
                assert page.locator("#palette").is_hidden() and page.locator("#board svg").is_visible()
                assert page.locator("#score-table").is_visible()
                page.screenshot(path=str(artifacts / f"score-{g}-print-{lang}.png"), full_page=True)
                page.emulate_media(media="screen")
            if lang == "en":
                bad = _axe(page)
                assert not bad, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
                                 for v in bad]
        assert not errors
        ctx.close()
