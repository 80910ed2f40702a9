"""Custom board sections (option sections_doc, CLI -o sections_file=PATH): a valid file plays in
play, simulate and the server and its record replays anywhere; every kind of bad file is one
error line naming the section, the hex and the problem."""

from __future__ import annotations

import copy
import json
import os
from importlib import resources
from pathlib import Path

import pytest

import citybuilders
from citybuilders.core.errors import CitybuildersError, OptionError
from citybuilders.core.records import record_of, replay
from citybuilders.games.kingdom_builder.loader import (
    CASTLE, GRASS, LOCATION, custom_sections, section_data)

from .helpers import run_cli

SHIPPED = json.loads(resources.files("citybuilders.games.kingdom_builder")
                     .joinpath("data/sections.json").read_text("utf-8"))


def meadow() -> dict:
    """Tavern with every desert hex turned into grass: one valid custom section."""
    tavern = SHIPPED["sections"][0]
    return {"id": "meadow", "name": "Meadow", "rows": [r.replace("D", "G") for r in
                                                        tavern["rows"]],
            "locations": copy.deepcopy(tavern["locations"]),
            "castles": copy.deepcopy(tavern["castles"])}


def doc(*sections: dict) -> dict:
    return {"format": "citybuilders.kingdom-builder.sections/1",
            "sections": list(sections) or [meadow()]}


FOUR = "meadow,paddock,oasis,farm"


def test_a_custom_section_is_on_the_board() -> None:
    cat = custom_sections(doc())
    assert cat.custom == ("meadow",) and len(cat) == len(section_data()) + 1
    sec = cat["meadow"]
    assert sum(row.count(GRASS) for row in sec.terrain) == 17 + 15  # tavern's grass + desert
    assert sec.locations == ((6, 2, "tavern"), (6, 7, "tavern")) and sec.castles == ((3, 3),)
    g = citybuilders.load_game("kingdom-builder", sections_doc=doc(),
                               sections=["meadow:180", "paddock:0", "oasis:0", "farm:0"])
    s = g.new_initial_state(2, 1)
    assert s.board.sections[0] == ("meadow", 180)
    # 180 degrees: section (r, c) lands on board (9 - r, 9 - c); castle (3, 3) -> (6, 6)
    assert s.board.terrain[6 * 20 + 6] == CASTLE
    assert s.board.terrain[3 * 20 + 7] == LOCATION  # location (6, 2) -> (3, 7)
    assert s.board.location_kind_at(3 * 20 + 7) == "tavern"
    # the same ids from a different document give a different board (cached per document)
    other = doc({**meadow(), "rows": [r.replace("F", "G") for r in meadow()["rows"]]})
    g2 = citybuilders.load_game("kingdom-builder", sections_doc=other,
                                sections=["meadow:180", "paddock:0", "oasis:0", "farm:0"])
    assert g2.new_initial_state(2, 1).board.terrain != s.board.terrain


def test_custom_sections_join_the_random_pool_and_records_replay_anywhere() -> None:
    g = citybuilders.load_game("kingdom-builder", sections_doc=json.dumps(doc()))
    seeds = [seed for seed in range(60)
             if "meadow" in dict(g.new_initial_state(2, seed).board.sections)]
    assert 0 < len(seeds) < 60  # 4 of 9 sections drawn: about 44 % of the games
    s = g.new_initial_state(2, seeds[0])
    rng = __import__("random").Random(3)
    for _ in range(40):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    rec = json.loads(json.dumps(record_of(s).to_json()))
    assert rec["options"]["sections_doc"]["sections"][0]["id"] == "meadow"
    assert rec["rules_version"] == "1"
    assert replay(rec) == s
    # the saved position restores its custom board too
    again = g.state_from_json(json.loads(json.dumps(s.to_json())))
    assert again.board is s.board
    # a standard game's record is unchanged apart from the null option; an old record without
    # the option still replays
    std = citybuilders.load_game("kingdom-builder").new_initial_state(2, 5)
    old = record_of(std).to_json()
    assert old["options"]["sections_doc"] is None
    del old["options"]["sections_doc"]
    assert replay(old) == std


def test_the_game_opens_no_file() -> None:
    with pytest.raises(OptionError, match="the game does not read files"):
        citybuilders.load_game("kingdom-builder", sections_file="/etc/passwd")


def test_play_and_simulate_take_a_sections_file(tmp_path: Path, capsys) -> None:
    f = tmp_path / "mine.json"
    f.write_text(json.dumps(doc()))
    code, out, err = run_cli(capsys, "play", "kingdom-builder", "--players", "random,random",
                             "--seed", "4", "-o", f"sections_file={f}", "--sections", FOUR,
                             "--no-color")
    assert code == 0, err
    assert "meadow:" in out
    rows = tmp_path / "rows.jsonl"
    code, out, err = run_cli(capsys, "simulate", "kingdom-builder", "-p", "random,random",
                             "-n", "6", "-q", "-o", f"sections_file={f}", "--out", str(rows))
    assert code == 0, err
    setups = [json.loads(line)["setup"] for line in rows.read_text().splitlines()]
    assert len(setups) == 6 and all(s.count(":") == 4 for s in setups)
    code, _, err = run_cli(capsys, "simulate", "kingdom-builder", "-p", "random,random",
                           "-n", "3", "-q", "-o", f"sections_file={f}", "--sections", FOUR)
    assert code == 0, err


def _bad(mutate) -> dict:
    sec = meadow()
    mutate(sec)
    return doc(sec)


BAD_FILES = [
    ("syntax", "{not json", "sections_file: syntax.json: not valid JSON (Expecting property "
                            "name enclosed in double quotes at line 1 column 2)"),
    ("no-list", json.dumps({"sections": {}}), "option 'sections_doc' of kingdom-builder: "
                                              "expected a non-empty 'sections' list"),
    ("size", json.dumps(_bad(lambda s: s["rows"].pop())),
     "option 'sections_doc' of kingdom-builder: sections[0] (meadow): 'rows' must hold 10 rows"),
    ("row", json.dumps(_bad(lambda s: s["rows"].__setitem__(4, "GGG"))),
     "option 'sections_doc' of kingdom-builder: sections[0] (meadow): row 4 must be a string "
     "of 10 terrain codes"),
    ("terrain", json.dumps(_bad(lambda s: s["rows"].__setitem__(2, "FFFFXFFMMM"))),
     "option 'sections_doc' of kingdom-builder: sections[0] (meadow): row 2 col 4: unknown "
     "terrain code 'X'; allowed: GCDFTWMKL"),
    ("castle", json.dumps(_bad(lambda s: s.update(castles=[[3, 4]]))),
     "option 'sections_doc' of kingdom-builder: sections[0] (meadow): castle at row 3 col 4 is "
     "on grass (G), not a K hex"),
    ("castle-unlisted", json.dumps(_bad(lambda s: s.update(castles=[]))),
     "option 'sections_doc' of kingdom-builder: sections[0] (meadow): the K hex at row 3 col 3 "
     "is not listed in 'castles'"),
    ("location", json.dumps(_bad(lambda s: s["locations"].__setitem__(0, [6, 3, "tavern"]))),
     "option 'sections_doc' of kingdom-builder: sections[0] (meadow): location at row 6 col 3 "
     "is on canyon (C), not an L hex"),
    ("location-kind", json.dumps(_bad(lambda s: s["locations"].__setitem__(0, [6, 2, "spa"]))),
     "option 'sections_doc' of kingdom-builder: sections[0] (meadow): location at row 6 col 2: "
     "unknown kind 'spa'; allowed: tavern, paddock, oasis, farm, oracle, harbor, tower, barn"),
    ("location-twice", json.dumps(_bad(lambda s: s["locations"].__setitem__(1, [6, 2, "farm"]))),
     "option 'sections_doc' of kingdom-builder: sections[0] (meadow): location at row 6 col 2 "
     "is listed twice"),
    ("counts", json.dumps(_bad(lambda s: s.update(terrain_counts={"grass": 100}))),
     "option 'sections_doc' of kingdom-builder: sections[0] (meadow): terrain counts"),
    ("shipped-id", json.dumps(_bad(lambda s: s.update(id="tavern"))),
     "option 'sections_doc' of kingdom-builder: sections[0] (tavern): 'id' is a shipped "
     "section's id; choose a new one"),
    ("bad-id", json.dumps(_bad(lambda s: s.update(id="My Section"))),
     "option 'sections_doc' of kingdom-builder: sections[0]: 'id' 'My Section' must be 1-40 "
     "characters a-z, 0-9 or _"),
    ("expansion", json.dumps(_bad(lambda s: s.update(expansion="crossroads"))),
     "option 'sections_doc' of kingdom-builder: sections[0] (meadow): 'expansion' of a custom "
     "section must be 'base'"),
    ("duplicate", json.dumps(doc(meadow(), meadow())),
     "option 'sections_doc' of kingdom-builder: sections[1]: duplicate section id 'meadow'"),
    ("not-an-object", "[1, 2]", "option 'sections_doc' of kingdom-builder: expected a sections "
                                "document (a JSON object with a 'sections' list), got list"),
    ("too-large", json.dumps({"sections": [], "note": "x" * 70_000}),
     "sections_file: "),
]


@pytest.mark.parametrize("name, text, message", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_each_bad_sections_file_is_one_error_line(tmp_path: Path, capsys, name: str, text: str,
                                                  message: str) -> None:
    f = tmp_path / f"{name}.json"
    f.write_text(text)
    for cmd in (["play", "kingdom-builder", "--players", "random,random", "--no-color"],
                ["simulate", "kingdom-builder", "-p", "random,random", "-n", "2", "-q"]):
        code, out, err = run_cli(capsys, *cmd, "-o", f"sections_file={f}")
        assert code == 2, (name, out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), err
        assert lines[0].removeprefix("error: ").startswith(message), lines[0]
        assert "Traceback" not in err


def test_a_missing_file_a_directory_and_a_fifo(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "s.fifo"
    os.mkfifo(fifo)
    for path, needle in ((tmp_path / "nope.json", "no such file"),
                         (tmp_path, "not a regular file"), (fifo, "not a regular file")):
        code, _, err = run_cli(capsys, "simulate", "kingdom-builder", "-p", "random,random",
                               "-n", "2", "-q", "-o", f"sections_file={path}")
        assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err


def test_an_unknown_section_names_the_custom_ids_too() -> None:
    with pytest.raises(CitybuildersError) as exc:
        citybuilders.load_game("kingdom-builder", sections_doc=doc(),
                               sections=["pasture", "paddock", "oasis", "farm"])
    assert str(exc.value).startswith("option 'sections' of kingdom-builder: unknown section "
                                     "'pasture'; allowed: tavern, ")
    assert "barn, lighthouse_foresters_lodge" in str(exc.value) and ", meadow (" in str(exc.value)
    with pytest.raises(CitybuildersError, match="unknown section 'meadow'"):
        citybuilders.load_game("kingdom-builder", sections=["meadow", "paddock", "oasis", "farm"])


# ---------------------------------------------------------------------- the server
H = "X-Seat-Token"


@pytest.fixture
def client(tmp_path: Path):
    from fastapi.testclient import TestClient

    from citybuilders.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}")) as c:
        yield c


def test_the_server_takes_an_uploaded_sections_document(client) -> None:
    sections = ["meadow:180", "paddock:0", "oasis:0", "farm:0"]
    r = client.post("/api/games", json={
        "game": "kingdom-builder", "seed": 3, "options": {"sections_doc": doc(),
                                                          "sections": sections},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    info = r.json()
    tok = info["seats"][0]["token"]
    view = client.get(f"/api/games/{info['id']}/view", headers={H: tok})
    assert view.status_code == 200 and "meadow" in view.text
    rec = client.get(f"/api/games/{info['id']}/record", headers={H: tok}).json()
    assert rec["options"]["sections_doc"] == json.loads(json.dumps(doc()))
    # a whole record made elsewhere (the engine here) imports and replays on the server
    g = citybuilders.load_game("kingdom-builder", sections_doc=doc(), sections=sections)
    s = g.new_initial_state(2, 8)
    rng = __import__("random").Random(8)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()) if not s.is_chance_node()
                       else s.sample_chance(rng))
    full = json.loads(json.dumps(record_of(s).to_json()))
    r = client.post("/api/records", json=full)
    assert r.status_code == 201, r.text
    steps = r.json()["steps"]
    assert steps == s.move_number()
    rv = client.get(f"/api/games/{r.json()['id']}/replay?step={steps}&seat=0")
    assert rv.status_code == 200 and "meadow" in rv.text


@pytest.mark.parametrize("options, status, message", [
    ({"sections_file": "/etc/passwd"}, 400, "options.sections_file: refused; the server reads "
                                            "no files"),
    ({"sections_doc": "meadow.json"}, 400, "options.sections_doc: expected the sections "
                                           "document as a JSON object, got 'meadow.json'"),
    ({"sections_doc": {"sections": [], "pad": "x" * 70_000}}, 413,
     "options.sections_doc: 70024 bytes, at most 65536"),
    ({"sections_doc": _bad(lambda s: s.update(castles=[[3, 4]]))}, 400,
     "option 'sections_doc' of kingdom-builder: sections[0] (meadow): castle at row 3 col 4 is "
     "on grass (G), not a K hex"),
])
def test_the_server_refuses_paths_and_bad_documents(client, options, status,
                                                    message: str) -> None:
    r = client.post("/api/games", json={"game": "kingdom-builder", "options": options})
    assert r.status_code == status, r.text
    assert r.json()["error"].startswith(message), r.json()
    assert "root:" not in r.text
    rec = {"game": "kingdom-builder", "rules_version": "1", "num_players": 2, "seed": 1,
           "options": options, "actions": []}
    r = client.post("/api/records", json=rec)
    assert r.status_code == status and message.split(":")[-1][:20] in r.text, r.text


# ---------------------------------------------------------------------- the score calculator
def _hill() -> dict:
    """Meadow with tavern's mountains (row 0: cols 3, 4) turned into grass too."""
    sec = meadow()
    sec["rows"][0] = sec["rows"][0].replace("M", "G")
    return sec


SCORE = {"game": "kingdom-builder",
         "sections": [["meadow", 0], ["paddock", 0], ["oasis", 0], ["farm", 0]],
         "cards": ["fishermen", "knights", "lords"],
         "settlements": [[[0, 1], [0, 3], [0, 4]], [[9, 9]]]}
SCORED = {"players": [{"total": 18, "cards": {"fishermen": 0, "knights": 6, "lords": 12},
                       "castles": 0},
                      {"total": 8, "cards": {"fishermen": 0, "knights": 2, "lords": 6},
                       "castles": 0}]}


def test_a_score_file_names_its_own_sections(tmp_path: Path, capsys) -> None:
    """The score file's options.sections_doc, or -o sections_file=PATH: (0, 3) and (0, 4) are
    mountains on tavern and grass on the custom section, so only the custom board takes them."""
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(doc(_hill())))
    carried = tmp_path / "carried.json"
    carried.write_text(json.dumps({**SCORE, "options": {"sections_doc": doc(_hill())}}))
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(SCORE))
    for args in ([str(carried)], [str(plain), "-o", f"sections_file={mine}"]):
        code, out, err = run_cli(capsys, "score", "kingdom-builder", *args, "--json")
        assert code == 0, err
        assert json.loads(out) == SCORED
    code, out, _ = run_cli(capsys, "score", "kingdom-builder", str(carried))
    assert code == 0 and out.splitlines()[-1].split() == ["total", "18", "8"]
    # without the document the section is unknown; on tavern the mountain hex is refused
    code, _, err = run_cli(capsys, "score", "kingdom-builder", str(plain))
    assert code == 2 and err.startswith("error: sections[0]: unknown section 'meadow'; allowed: "
                                        "tavern, paddock,"), err
    tavern = tmp_path / "tavern.json"
    tavern.write_text(json.dumps({**SCORE, "sections": [["tavern", 0], *SCORE["sections"][1:]]}))
    code, _, err = run_cli(capsys, "score", "kingdom-builder", str(tavern))
    assert code == 2 and err.strip() == ("error: settlements[0][1]: hex 0,3 is mountain; it must "
                                         "be a buildable or water hex"), err


def test_a_bad_sections_document_of_a_score_file_is_one_line(tmp_path: Path, capsys) -> None:
    bad = _bad(lambda s: s.update(castles=[[3, 4]]))
    f = tmp_path / "score.json"
    f.write_text(json.dumps({**SCORE, "options": {"sections_doc": bad}}))
    code, out, err = run_cli(capsys, "score", "kingdom-builder", str(f))
    assert code == 2 and out == ""
    assert err.strip() == ("error: options.sections_doc: sections[0] (meadow): castle at row 3 "
                           "col 4 is on grass (G), not a K hex")
    badfile = tmp_path / "bad.json"
    badfile.write_text(json.dumps(bad))
    f.write_text(json.dumps(SCORE))
    code, out, err = run_cli(capsys, "score", "kingdom-builder", str(f), "-o",
                             f"sections_file={badfile}")
    assert code == 2 and err.strip() == (
        "error: option 'sections_doc' of kingdom-builder: sections[0] (meadow): castle at row 3 "
        "col 4 is on grass (G), not a K hex")


def test_the_score_page_api_draws_a_custom_board(client) -> None:
    body = {**SCORE, "options": {"sections_doc": doc(_hill())}}
    r = client.post("/api/score/kingdom-builder?draw=1", json=body)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["result"] == SCORED and got["svg"] and "<svg" in got["svg"]
    assert got["highlight"]["0"]["knights"] == ["hex:0,1", "hex:0,3", "hex:0,4"]
    bad = {**SCORE, "options": {"sections_doc": _bad(lambda s: s.update(castles=[[3, 4]]))}}
    r = client.post("/api/score/kingdom-builder", json=bad)
    assert r.status_code == 400
    assert r.json()["field"] == "options.sections_doc"
    assert r.json()["error"] == ("options.sections_doc: sections[0] (meadow): castle at row 3 "
                                 "col 4 is on grass (G), not a K hex")


# ---------------------------------------------------------------------- the lobby form
FORM = {"game": "kingdom-builder", "num_players": "2", "seat0": "human", "seat1": "bot:random",
        "opt.sections": "meadow:180,paddock:0,oasis:0,farm:0"}


def _upload(client, text: str | bytes, name: str = "mine.json", form: dict | None = None):
    return client.post("/new", data=form or FORM, follow_redirects=False,
                       files={"opt.sections_doc": (name, text, "application/json")})


def test_the_lobby_form_uploads_a_sections_file(client) -> None:
    home = client.get("/").text
    assert ('<input type="file" id="o-kingdom-builder-sections_doc" name="opt.sections_doc"'
            in home)
    assert home.count('enctype="multipart/form-data"') == 3  # KB, Roll Builder, record import
    r = _upload(client, json.dumps(doc(), indent=2))
    assert r.status_code == 303, r.text
    url = r.headers["location"]
    gid, tok = url.split("/play/")[1].split("?t=")
    rec = client.get(f"/api/games/{gid}/record", headers={H: tok}).json()
    assert rec["options"]["sections_doc"] == doc()
    assert rec["options"]["sections"] == FORM["opt.sections"].split(",")
    view = client.get(f"/api/games/{gid}/view", headers={H: tok})
    assert view.status_code == 200 and "meadow" in view.text
    # no file chosen: the browser sends an empty part, the game has no custom sections
    r = _upload(client, b"", name="", form={**FORM, "opt.sections": ""})
    assert r.status_code == 303, r.text
    gid, tok = r.headers["location"].split("/play/")[1].split("?t=")
    rec = client.get(f"/api/games/{gid}/record", headers={H: tok}).json()
    assert rec["options"]["sections_doc"] is None


@pytest.mark.parametrize("text, status, message", [
    (json.dumps(_bad(lambda s: s.update(castles=[[3, 4]]))), 400,
     "option &#39;sections_doc&#39; of kingdom-builder: sections[0] (meadow): castle at row 3 col "
     "4 is on grass (G), not a K hex"),
    (json.dumps(_bad(lambda s: s["rows"].__setitem__(2, "FFFFXFFMMM"))), 400,
     "option &#39;sections_doc&#39; of kingdom-builder: sections[0] (meadow): row 2 col 4: "
     "unknown terrain code &#39;X&#39;; allowed: GCDFTWMKL"),
    ("{not json", 400, "options.sections_doc: malformed JSON (Expecting property name enclosed "
                       "in double quotes)"),
    ("[1, 2]", 400, "options.sections_doc: expected the sections document as a JSON object, "
                    "got a JSON list"),
    (" " * 300_000, 413, "options.sections_doc: 300000 bytes, at most 262144"),
])
def test_the_lobby_form_refuses_a_bad_sections_file(client, text: str, status: int,
                                                    message: str) -> None:
    r = _upload(client, text)
    assert r.status_code == status, r.text
    assert message in r.text, r.text[-2000:]
    assert "Traceback" not in r.text


def test_the_lobby_form_takes_no_file_in_a_text_field(client) -> None:
    r = client.post("/new", data=FORM, follow_redirects=False,
                    files={"opt.sections_file": ("x.json", b"{}", "application/json")})
    assert r.status_code == 400 and "opt.sections_file: expected a string" in r.text
