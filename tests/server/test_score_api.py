"""The score calculator API (``POST /api/score/<game>``, server/scorer.py).

Every answer equals the CLI's calculator on the same file: 200 with the ``--json`` result, or
400 with the calculator's own one-line message, its field and the board keys to flag. A
hypothesis fuzz (random JSON and mutated example files) never gets a 5xx.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonpaths import field_paths

from citybuilders.core.errors import FormatError
from citybuilders.core.registry import load_game
from citybuilders.server.scorer import MAX_SCORE_BODY, field_of

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "score"
GAMES = ("kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder")


def example(game: str) -> dict:
    return json.loads((EXAMPLES / f"{game}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", GAMES + ("kingdom-builder-crossroads",))
def test_example_scores_as_the_cli(client, name):
    game = name if name in GAMES else "kingdom-builder"
    cli = subprocess.run([sys.executable, "-m", "citybuilders", "score", game,
                          str(EXAMPLES / f"{name}.json"), "--json"],
                         capture_output=True, text=True, check=True)
    r = client.post(f"/api/score/{game}?draw=1", json=example(name))
    assert r.status_code == 200
    body = r.json()
    assert body["result"] == json.loads(cli.stdout)
    assert body["svg"].startswith("<svg")
    # the table's totals are the calculator's
    res = body["result"]
    if name == "kingdom-builder":
        assert body["totals"] == [p["total"] for p in res["players"]] == [36, 35]
    elif game == "kingdom-builder":  # Crossroads: the tasks are rows, pieces drawn lettered
        assert body["totals"] == [49, 36]
        assert [r["id"] for r in body["rows"]][-2:] == ["compass_points", "advance"]
        assert body["svg"].count('class="kb-piece"') == 1 + 1 + 1 + 7
    elif game == "roll-into-town":
        assert body["totals"] == [72] and body["verdict"] == "great mayor"
    else:
        assert body["totals"] == [res["total"]]


def test_kingdom_builder_rows_and_highlight(client):
    body = client.post("/api/score/kingdom-builder", json=example("kingdom-builder")).json()
    rows = {r["id"]: r["values"] for r in body["rows"]}
    assert rows == {"fishermen": [0, 1], "knights": [6, 10], "lords": [30, 24],
                    "castles": [0, 0]}
    # Knights: P1's fullest row is row 0 (3 settlements); P2's is row 0 too (5)
    assert body["highlight"]["0"]["knights"] == ["hex:0,0", "hex:0,1", "hex:0,2"]
    assert body["highlight"]["1"]["fishermen"] == ["hex:0,14"]
    # Lords counts sectors: P1 scores in the top-left (5 settlements) and bottom-left (1)
    assert body["highlight"]["0"]["lords"] == ["hex:0,0", "hex:0,1", "hex:0,2", "hex:1,0",
                                                "hex:1,1", "hex:14,5"]
    assert "svg" not in body


def test_roll_into_town_highlight(client):
    body = client.post("/api/score/roll-into-town", json=example("roll-into-town")).json()
    hl = body["highlight"]["0"]
    assert hl["lighthouse"] == ["sq:2,3"]
    assert hl["river"] == [f"sq:8,{c}" for c in range(9)]
    assert "sq:2,5" in hl["taverns"]


def _bad_files():
    """(game, file, expected field) — one per kind of check of each calculator."""
    out = []

    def kb(mut, field):
        d = example("kingdom-builder")
        mut(d)
        out.append(("kingdom-builder", d, field))

    kb(lambda d: d.update(colour=1), "file")
    kb(lambda d: d.update(game="sprawlopolis"), "game")
    kb(lambda d: d.pop("sections"), "sections")
    kb(lambda d: d.update(sections=d["sections"][:3]), "sections")
    kb(lambda d: d["sections"].__setitem__(1, ["castle", 0]), "sections[1]")
    kb(lambda d: d["sections"].__setitem__(2, ["oasis", 90]), "sections[2]")
    kb(lambda d: d["sections"].__setitem__(3, ["tavern", 0]), "sections")
    kb(lambda d: d.update(cards=["fishermen"]), "cards")
    kb(lambda d: d["cards"].__setitem__(2, "kings"), "cards[2]")
    kb(lambda d: d["cards"].__setitem__(2, "knights"), "cards")
    kb(lambda d: d["settlements"][1].__setitem__(0, [0, 20]), "settlements[1][0]")
    kb(lambda d: d["settlements"][1].__setitem__(0, "0,1"), "settlements[1][0]")
    kb(lambda d: d["settlements"][1].append([0, 0]), "settlements[1][6]")
    kb(lambda d: d["settlements"][0].append([3, 3]), "settlements[0][6]")  # a castle hex
    kb(lambda d: d["settlements"][0].append([0, 3]), "settlements[0][6]")  # a mountain
    kb(lambda d: d["settlements"].append([]) or d["settlements"].extend([[], []]), "settlements")
    kb(lambda d: d["settlements"].__setitem__(0, "none"), "settlements[0]")
    kb(lambda d: d.update(options={"speed": 1}), "options")
    kb(lambda d: d.update(ships=[[[1, 1]]]), "ships[0]")
    kb(lambda d: d.update(tasks=["harbour"]), "tasks")
    out.append(("kingdom-builder", [], "file"))

    def sp(mut, field):
        d = example("sprawlopolis")
        mut(d)
        out.append(("sprawlopolis", d, field))

    sp(lambda d: d.update(colour=1), "file")
    sp(lambda d: d.update(game="kingdom-builder"), "game")
    sp(lambda d: d.update(conditions=[1, 7]), "conditions")
    sp(lambda d: d["conditions"].__setitem__(2, 1), "conditions[2]")
    sp(lambda d: d["conditions"].__setitem__(2, 19), "conditions[2]")
    sp(lambda d: d["conditions"].__setitem__(2, True), "conditions[2]")
    sp(lambda d: d["cards"][1].update(row=5, col=5), "cards[1]")     # does not touch
    sp(lambda d: d["cards"][1].update(row=2, col=2), "cards[1]")     # corner only
    sp(lambda d: d["cards"][1].update(rot=90), "cards[1]")
    sp(lambda d: d["cards"][1].update(card=4), "cards[1]")
    sp(lambda d: d["cards"][1].update(card=7), "cards[1]")
    sp(lambda d: d["cards"][1].update(flip=1), "cards[1]")
    sp(lambda d: d["cards"][1].pop("row"), "cards[1]")
    sp(lambda d: d["cards"][0].update(card=19), "cards[0]")
    sp(lambda d: d.update(grid=["P"]), "file")
    sp(lambda d: d.update(options={"city_edg": "outer"}), "options")
    sp(lambda d: d.update(cards=[]), "cards")

    def rit(mut, field):
        d = example("roll-into-town")
        mut(d)
        out.append(("roll-into-town", d, field))

    def cell(d, r, c, tok):
        row = d["map"][r].split()
        row[c] = tok
        d["map"][r] = " ".join(row)

    rit(lambda d: d.update(colour=1), "colour")
    rit(lambda d: d.update(game="x"), "game")
    rit(lambda d: d.update(options={"speed": 1}), "options")
    rit(lambda d: cell(d, 8, 1, "zz"), "map[8][1]")
    rit(lambda d: cell(d, 1, 1, "c:N+HA") or cell(d, 1, 0, "HA"), "map[1][0]")
    rit(lambda d: cell(d, 4, 4, "."), "map[4][4]")
    rit(lambda d: cell(d, 8, 4, "r:NS"), "map[8][4]")
    rit(lambda d: cell(d, 0, 8, "FO") or cell(d, 1, 8, "FO"), "map")
    rit(lambda d: cell(d, 0, 8, "fa+HO"), "map[0][8]")
    rit(lambda d: d["map"].pop(), "map")
    rit(lambda d: d.update(name=3), "name")
    rit(lambda d: d.update(players=[{"map": d["map"], "score": 1}]) or d.pop("map"),
        "players[0].score")

    def rb(mut, field):
        d = example("roll-builder")
        mut(d)
        out.append(("roll-builder", d, field))

    rb(lambda d: d.update(colour=1), "colour")
    rb(lambda d: d.update(game="x"), "game")
    rb(lambda d: d.update(sheet="nowhere"), "sheet")
    rb(lambda d: d["roads"].append("0,0,Q"), "roads[4]")
    rb(lambda d: d["roads"].append("4,5,E"), "roads[4]")
    rb(lambda d: d["roads"].append("8,0,W"), "roads[4]")
    rb(lambda d: d["roads"].append("1,1,E"), "roads")
    rb(lambda d: d["marks"].append("8,10"), "marks[2]")
    rb(lambda d: d["buildings"].append(["4,4", 9]), "buildings[2]")
    rb(lambda d: d["buildings"].append(["8,10", 2]), "buildings[2]")
    rb(lambda d: d["innovations"].append("I9"), "innovations[2]")
    rb(lambda d: d["innovations"].append("I1"), "innovations[2]")
    rb(lambda d: d["wonder"].update(C4=1), "wonder.C4")
    rb(lambda d: d["wonder"].update(C9=6), "wonder")
    rb(lambda d: d.update(favor_crossed=99), "favor_crossed")
    rb(lambda d: d.update(wealth_stored=-1), "wealth_stored")
    return out


BAD = _bad_files()


@pytest.mark.parametrize("game,data,field", BAD,
                         ids=[f"{g}-{i}" for i, (g, _, _) in enumerate(BAD)])
def test_every_error_is_a_400_naming_the_field(client, game, data, field):
    with pytest.raises(FormatError) as exc:
        load_game(game).score_file(data)
    expected = str(exc.value)
    r = client.post(f"/api/score/{game}?draw=1", json=data)
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["error"] == expected  # the calculator's own message, unchanged
    assert body["field"] == field == field_of(expected)
    assert body["error"].lstrip("'").startswith(field if field != "file" else "")
    assert "svg" in body


def test_flagged_keys_point_at_the_offending_piece(client):
    d = example("kingdom-builder")
    d["settlements"][0].append([0, 3])  # a mountain
    body = client.post("/api/score/kingdom-builder", json=d).json()
    assert body["keys"] == ["hex:0,3"]
    d = example("sprawlopolis")
    d["cards"][1].update(row=2, col=2)
    body = client.post("/api/score/sprawlopolis", json=d).json()
    assert body["error"].endswith("touches the city only at a corner")
    assert body["keys"] == ["pos:2,2", "pos:2,3", "pos:3,2", "pos:3,3"]
    d = example("roll-into-town")
    row = d["map"][0].split()
    row[8] = "fa+HO"
    d["map"][0] = " ".join(row)
    assert client.post("/api/score/roll-into-town", json=d).json()["keys"] == ["sq:0,8"]
    d = example("roll-builder")
    d["wonder"]["C4"] = 1
    assert client.post("/api/score/roll-builder", json=d).json()["keys"] == ["box:C4"]


def test_body_and_game_errors(client):
    r = client.post("/api/score/chess", json={})
    assert r.status_code == 404 and r.json()["error"].startswith("game: unknown game 'chess'")
    r = client.post("/api/score/sprawlopolis", content=b"{nope")
    assert r.status_code == 400 and r.json()["error"].startswith("body: malformed JSON")
    r = client.post("/api/score/sprawlopolis", content=b"")
    assert r.status_code == 400 and r.json()["error"].startswith("body: expected")
    r = client.post("/api/score/sprawlopolis", content=b"[" * 100_000 + b"]" * 100_000)
    assert r.status_code in (400, 413)
    r = client.post("/api/score/sprawlopolis", content=b" " * (MAX_SCORE_BODY + 1))
    assert r.status_code == 413 and r.json()["error"].startswith("body: larger than")
    r = client.post("/api/score/kingdom-builder?colors=0,99", json=example("kingdom-builder"))
    assert r.status_code == 400 and r.json()["error"].startswith("colors:")
    r = client.post("/api/score/sprawlopolis", content='{"game": "\\udfff"}')
    assert r.status_code == 400 and "not valid Unicode" in r.json()["error"]


def test_page_and_home_link(client):
    r = client.get("/score")
    assert r.status_code == 200 and 'id="page-data"' in r.text and "/static/score.js" in r.text
    assert '<a href="/score">' in client.get("/").text


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 25), st.integers(),
                    st.sampled_from([10**30, -2**63, 180, 0, "", "<svg>", "tavern", "4,5,E",
                                     "r:NS", "HO", "C1"]),
                    st.floats(allow_nan=False), st.text(max_size=6))
JSONS = st.recursive(SCALARS, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=6), kids, max_size=3)),
    max_leaves=12)


@st.composite
def mutated(draw):
    game = draw(st.sampled_from(GAMES))
    data = copy.deepcopy(example(game))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in field_paths(data) if p]
        path = draw(st.sampled_from(paths))
        node = data
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = draw(JSONS)
    return game, data


@settings(max_examples=160, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=st.one_of(mutated(), st.tuples(st.sampled_from(GAMES), JSONS)))
def test_fuzz_never_5xx(client, case):
    game, data = case
    r = client.post(f"/api/score/{game}?draw=1", content=json.dumps(data))
    assert r.status_code in (200, 400), r.text
    body = r.json()
    if r.status_code == 400:
        assert body["field"] and body["error"]
    else:
        assert body["rows"] and body["totals"]


def test_sprawlopolis_grid_form_drawn_and_highlighted(client):
    data = {"game": "sprawlopolis", "conditions": [10, 12, 18], "grid": ["P I-NE", "C-EW R-EW"]}
    body = client.post("/api/score/sprawlopolis?draw=1", json=data).json()
    assert body["totals"] == [8] and body["svg"].count("data-key='blk:") == 4
    hl = body["highlight"]["0"]
    assert hl["group:park"] == ["blk:0,0"] and hl["group:commercial"] == ["blk:1,0"]
    assert hl["roads"] == ["blk:0,1", "blk:1,0", "blk:1,1"]
    assert hl["condition:12"] == ["blk:1,0", "blk:1,1"]


def test_board_drawings():
    from citybuilders.games.kingdom_builder.render import score_board_svg
    from citybuilders.games.kingdom_builder.rules.board import make_board
    from citybuilders.games.roll_into_town.render import score_map_svg
    from citybuilders.games.sprawlopolis.loader import card_blocks
    from citybuilders.games.sprawlopolis.render import score_city_svg

    board = make_board((("tavern", 0), ("paddock", 0), ("oasis", 0), ("farm", 0)))
    svg = score_board_svg(board, [(0, 0, ""), (21, 1, "W")], ["#d62728", "#1f57c4"])
    assert svg.count('data-key="hex:') == 400
    assert svg.count('class="kb-settlement"') == 2 and 'data-piece="W"' in svg
    assert 'fill="#1f57c4"' in svg
    # a later card covers an earlier one: block 0,1 shows card 9's block, not card 4's
    svg = score_city_svg([(4, 0, 0, 0), (9, 0, 1, 180)], margin=0)
    assert svg.count("data-key='blk:") == 6 and svg.count("data-key='pos:") == 6
    assert "data-key='blk:0,1' class='block' data-card='9'" in svg
    assert card_blocks(9, 180) != card_blocks(9, 0)
    svg = score_map_svg([[(0, 0, 0), None]])
    assert svg.count("data-key='sq:") == 2 and ">?</text>" in svg


def test_rit_map_labels_fit_their_square():
    """A terrain label longer than its square ("fazenda", pt-BR's farm) is drawn smaller and
    squeezed into 0.86 of the square (34.4 px of 40); short labels keep 11 px, unsqueezed."""
    import re

    from citybuilders.games.roll_into_town import rules as R
    from citybuilders.games.roll_into_town.render import score_map_svg

    row = [(R.FARM, 0, 0), (R.MOUNTAIN, 0, 0)]
    texts = re.findall(r"<text [^>]*>[^<]*</text>", score_map_svg([row], lang="pt_BR"))
    assert [re.search(r">([^<]*)<", t).group(1) for t in texts] == ["fazenda", "mont"]
    assert "font-size='10' textLength='34.4' lengthAdjust='spacingAndGlyphs'" in texts[0]
    assert "font-size='11'" in texts[1] and "textLength" not in texts[1]
    texts = re.findall(r"<text [^>]*>[^<]*</text>", score_map_svg([row], lang="en"))
    assert all("textLength" not in t and "font-size='11'" in t for t in texts)  # farm, mtn
    texts = re.findall(r"<text [^>]*>[^<]*</text>", score_map_svg([row], lang="zh_Hant"))
    assert all("textLength" not in t for t in texts)  # two CJK characters fit


def test_rit_palette_words_in_the_page_language():
    """The score page's Roll into Town palette reads as the map: building labels and side
    letters in the page's language, each with the file's token kept as its code."""
    from citybuilders.core.i18n import localize
    from citybuilders.server.scorer import page_data

    data = page_data("pt_BR", lambda s: localize(s, "pt_BR"))["roll_into_town"]
    by_code = {b["code"]: b for b in data["buildings"]}
    assert (by_code["HO"]["label"], by_code["HO"]["name"]) == ("CS", "casa")
    assert by_code["LT"]["name"] != by_code["LB"]["name"]  # the lighthouse's two squares
    assert "farol" in by_code["LT"]["name"] and "farol" in by_code["LB"]["name"]
    assert data["sides"]["NW"] == "NO" and data["sides"]["E"] == "L"
    zh = page_data("zh_Hant", lambda s: localize(s, "zh_Hant"))["roll_into_town"]
    assert zh["sides"]["NW"] == "北、西"
    en = page_data("en", lambda s: s)["roll_into_town"]
    assert {b["code"]: b["label"] for b in en["buildings"]}["HO"] == "HO"
    assert en["sides"]["NES"] == "NES"


def test_hostile_names_stay_text(client):
    d = example("roll-into-town")
    d["name"] = "</script><svg onload=alert(1)>"
    body = client.post("/api/score/roll-into-town?draw=1", json=d).json()
    assert body["columns"] == [d["name"]]  # JSON: the page writes it with textContent
    assert "onload" not in body["svg"]


def test_examples_are_the_documented_ones():
    import re

    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    documented = []
    for block in re.findall(r"```json\n(.*?)```", text, flags=re.S):
        try:
            documented.append(json.loads(block))
        except json.JSONDecodeError:
            pass  # abridged examples (with ...)
    for path in sorted(EXAMPLES.glob("*.json")):
        assert json.loads(path.read_text(encoding="utf-8")) in documented, path.name


def test_roll_builder_column_is_the_sheets_name_in_the_readers_language():
    """The score table's column of a shipped sheet is its name in the page's language (the
    English name was shown on the Portuguese and Chinese pages)."""
    from citybuilders.server.scorer import score_position

    names = [score_position("roll-builder", {"sheet": "rivermouth"}, lang)[1]["columns"]
             for lang in ("en", "pt_BR", "zh_Hant")]
    assert names == [["Rivermouth"], ["Foz do Rio"], ["河口鎮"]]


def test_usual_rule_mark_spacing_per_language(client):
    """The Lords select's usual choice (and the lobby's): "Ranked (usual rule)" in English,
    no space before Chinese's full-width bracket ("排名（一般規則）")."""
    from citybuilders.core.i18n import localize
    from citybuilders.server.scorer import page_data

    en = page_data("en", lambda s: s)["kingdom_builder"]["lords_rule"]["choices"][0][1]
    zh = page_data("zh_Hant", lambda s: localize(s, "zh_Hant"))["kingdom_builder"]
    assert en == "Ranked (usual rule)"
    assert zh["lords_rule"]["choices"][0][1].endswith("（一般規則）")
    assert " （" not in zh["lords_rule"]["choices"][0][1]
    lobby = client.get("/?lang=zh_Hant").text
    assert "（一般規則）" in lobby and " （一般規則）" not in lobby
    assert " (usual rule)" in client.get("/?lang=en").text
