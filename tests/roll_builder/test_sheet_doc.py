"""Sheets as documents (issue 11): the game never opens files; ``sheet_doc`` carries the sheet in
the record; the command line's ``-o sheet_file=PATH`` reads a regular, size-capped file; every
sheet text in the SVG is escaped."""
from __future__ import annotations

import copy
import json
import os
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from citybuilders.cli import _game_options, main
from citybuilders.core.errors import OptionError
from citybuilders.core.game import CHANCE
from citybuilders.core.records import load_record, record_of, replay
from citybuilders.core.registry import load_game

DATA = Path(__file__).parents[2] / "src/citybuilders/games/roll_builder/data"


def _doc(name: str = "highcrag") -> dict:
    return json.loads((DATA / f"{name}.json").read_text())


def _play(g, seed: int = 3, steps: int = 120):  # noqa: ANN001, ANN202
    s = g.new_initial_state(1, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        if s.current_player() == CHANCE:
            s.apply_legal(s.sample_chance(rng))
        else:
            la = s.legal_actions(0)
            s.apply_legal(la[rng.randrange(len(la))], 0)
    return s


def test_sheet_file_is_refused_by_the_game() -> None:
    with pytest.raises(OptionError) as ei:
        load_game("roll-builder", sheet_file=str(DATA / "highcrag.json"))
    assert str(ei.value) == (
        "option 'sheet_file' of roll-builder: the game does not read files; pass the parsed "
        "sheet document as 'sheet_doc' (the command line's -o sheet_file=PATH reads the file "
        "and does this)")
    # records saved before issue 11 carry "sheet_file": null: still accepted
    assert load_game("roll-builder", sheet_file=None).sheet.id == "rivermouth"


def test_sheet_doc_is_self_contained_in_the_record(tmp_path: Path) -> None:
    doc = _doc()
    doc["id"], doc["name"] = "mycity", "My City"
    f = tmp_path / "mine.json"
    f.write_text(json.dumps(doc))
    opts = _game_options("roll-builder", [f"sheet_file={f}"], {})
    assert opts == {"sheet_doc": doc}
    g = load_game("roll-builder", **opts)
    assert g.sheet.name == "My City" and g.options["sheet_doc"] == doc
    s = _play(g)
    rec = json.loads(record_of(s).dumps())
    os.remove(f)  # the record replays without the file
    t = replay(load_record(rec))
    assert t == s and t.game.sheet.name == "My City"
    # the game keeps its own copy: editing the caller's dict changes nothing
    doc["name"] = "Changed"
    assert g.options["sheet_doc"]["name"] == "My City"


def test_sheet_doc_errors_name_the_field() -> None:
    bad = _doc()
    bad["buildings"][2]["bonus_action"] = "road"
    with pytest.raises(OptionError) as ei:
        load_game("roll-builder", sheet_doc=bad)
    assert str(ei.value) == ("option 'sheet_doc' of roll-builder: buildings[2].bonus_action: "
                             "bad value 'road'; allowed: build, wonder")
    with pytest.raises(OptionError) as ei:
        load_game("roll-builder", sheet_doc="highcrag.json")
    assert str(ei.value) == ("option 'sheet_doc' of roll-builder: not valid JSON (Expecting "
                             "value at line 1 column 1)")
    with pytest.raises(OptionError) as ei:
        load_game("roll-builder", sheet_doc=[1, 2])
    assert str(ei.value) == ("option 'sheet_doc' of roll-builder: expected a sheet document "
                             "(a JSON object), got list")
    # JSON text (the web form, -o sheet_doc=...) is parsed; the game keeps the object
    g = load_game("roll-builder", sheet_doc=json.dumps(_doc()))
    assert g.options["sheet_doc"] == _doc() and g.sheet.id == "highcrag"
    big = _doc()
    big["theme"] = "x" * 70000
    with pytest.raises(OptionError) as ei:
        load_game("roll-builder", sheet_doc=big)
    size = len(json.dumps(big, separators=(",", ":")).encode())
    assert str(ei.value) == (f"option 'sheet_doc' of roll-builder: {size} bytes; allowed: at "
                             "most 65536 bytes")
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    big["theme"] = deep
    with pytest.raises(OptionError, match=r"^option 'sheet_doc' of roll-builder: nested too "
                                          r"deeply$"):
        load_game("roll-builder", sheet_doc=big)


@pytest.mark.parametrize("make, problem", [
    (lambda p: None, "'{p}': no such file"),
    (lambda p: os.mkfifo(p), "'{p}': not a regular file"),
    (lambda p: p.mkdir(), "'{p}': not a regular file"),
    (lambda p: p.write_text(" " * 70000), "'{p}': 70000 bytes; allowed: at most 65536 bytes"),
])
def test_cli_sheet_file_errors(tmp_path: Path, capsys, make, problem: str) -> None:
    p = tmp_path / "sheet.json"
    make(p)
    assert main(["simulate", "roll-builder", "-n", "1", "-o", f"sheet_file={p}"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "error: sheet_file: " + problem.format(p=p)


def test_cli_dev_zero_is_not_read(capsys) -> None:
    assert main(["simulate", "roll-builder", "-n", "1", "-o", "sheet_file=/dev/zero"]) == 2
    assert capsys.readouterr().err.strip() == "error: sheet_file: '/dev/zero': not a regular file"


HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "<!-- & ]]>"]


def test_svg_escapes_every_sheet_text() -> None:
    doc = _doc("rivermouth")
    for inn, name in zip(doc["innovations"], HOSTILE):
        inn["name"] = name
    doc["name"] = HOSTILE[0]
    g = load_game("roll-builder", sheet_doc=doc)
    s = _play(g, steps=200)
    svg = s.render_svg(0)
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag.endswith("svg")
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for name in HOSTILE:
        assert name not in svg
        assert any(name in t for t in texts), name  # shown, as text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
    assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in svg
    assert "&lt;!-- &amp; ]]&gt;" in svg
    assert not any(el.tag.endswith(("script", "img")) for el in root.iter())


def test_svg_of_shipped_sheets_unchanged_by_escaping() -> None:
    g = load_game("roll-builder", sheet_doc=copy.deepcopy(_doc("rivermouth")))
    h = load_game("roll-builder", sheet="rivermouth")
    assert _play(g).render_svg(0) == _play(h).render_svg(0)
