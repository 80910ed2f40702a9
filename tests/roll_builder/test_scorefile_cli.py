"""Score calculator (sheet-state files) and the CLI: score, sheets, sheets check, moves, bad files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from citybuilders.cli import main
from citybuilders.core.errors import FormatError
from citybuilders.games.roll_builder.loader import load_shipped_sheet
from citybuilders.games.roll_builder.scorefile import score_file
from citybuilders.games.roll_builder.scoring import score_sheet

EXAMPLE = {
    "game": "roll-builder",
    "sheet": "rivermouth",
    "roads": ["4,5,E", "4,5,NW", "4,5,SW", "4,4,NE"],
    "buildings": [["3,5", 5], ["4,4", 1]],
    "marks": ["4,4", "3,4"],
    "innovations": ["I1", "I3"],
    "wonder": {"C1": 2, "C2": 3, "C3": 3},
    "favor_crossed": 5,
    "strength_crossed": 2,
    "wealth_stored": 5,
}


def test_example_exact_breakdown() -> None:
    r = score_file(EXAMPLE)
    # buildings 2; roads 0 (no points near the centre); innovations 2+3; resources 5//2 + 6 + 2;
    # wonder 3 boxes; bonuses: the full hexagon around the town centre (1 point on Rivermouth)
    assert r.parts == {"buildings": 2, "roads": 0, "innovations": 5, "resources": 10,
                       "wonder": 3, "bonuses": 1}
    assert r.total == 21 and r.details["full_hexagons"] == 1
    assert "total" in r.to_text() and r.to_json()["total"] == 21


def test_road_points_wonder_bonus_and_wings() -> None:
    sh = load_shipped_sheet("rivermouth")
    conn = 1 << 0 | 1 << (8 * 11)  # (0,0) P+2vp and (8,0) P+3vp
    c8, c9 = sh.box_index["C8"], sh.box_index["C9"]
    parts = score_sheet(sh, conn, [0] * 7, 0, 0, 0, 0, (1 << c8) | (1 << c9), 0)
    assert parts["roads"] == 5 and parts["wonder"] == 2 and parts["bonuses"] == 4
    gp = load_shipped_sheet("goldplain")
    wing_a = gp.wings["A"]
    parts = score_sheet(gp, 0, [0] * 7, 0, 0, 0, 0, wing_a, 0)
    assert parts["wonder"] == 5 and parts["bonuses"] == 1 + 1


@pytest.mark.parametrize("change, field", [
    ({"roads": ["0,1,E"]}, "roads"),
    ({"roads": ["4,5,W"]}, "roads[0]"),
    ({"roads": ["6,8,E"]}, "roads[0]"),
    ({"buildings": [["6,8", 1]]}, "buildings[0]"),
    ({"buildings": [["3,5", 7]]}, "buildings[0]"),
    ({"buildings": [["3,5", 1], ["3,5", 2]]}, "buildings[1]"),
    ({"wonder": ["C2"]}, "wonder"),
    ({"wonder": ["Z1"]}, "wonder[0]"),
    ({"favor_crossed": 7}, "favor_crossed"),
    ({"wealth_stored": 9}, "wealth_stored"),
    ({"innovations": ["I9"]}, "innovations[0]"),
    ({"sheet": "atlantis"}, "sheet"),
    ({"colour": 1}, "colour"),
])
def test_bad_score_files(change: dict, field: str) -> None:
    data = dict(EXAMPLE, **change)
    with pytest.raises(FormatError) as ei:
        score_file(data)
    msg = str(ei.value)
    assert msg.startswith(field) and "\n" not in msg


def test_inline_sheet_in_score_file() -> None:
    sheet = json.loads((Path(__file__).parents[2] / "src/citybuilders/games/roll_builder/data/"
                        "goldplain.json").read_text())
    r = score_file({"sheet": sheet, "buildings": [["3,5", 6], ["3,4", 6]]})
    assert r.parts["buildings"] == 2


def _write(tmp_path: Path, data, name: str = "f.json") -> str:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(p)


def test_cli_score(tmp_path: Path, capsys) -> None:
    f = _write(tmp_path, EXAMPLE)
    assert main(["score", "roll-builder", f, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 21 and out["parts"]["innovations"] == 5
    assert main(["score", "roll-builder", f]) == 0
    assert "resources" in capsys.readouterr().out


@pytest.mark.parametrize("content", ["{not json", json.dumps(dict(EXAMPLE, roads=["0,1,E"])),
                                     json.dumps([1, 2])])
def test_cli_score_bad_files_exit_2(tmp_path: Path, capsys, content: str) -> None:
    f = _write(tmp_path, content)
    assert main(["score", "roll-builder", f]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "\n" not in err and "Traceback" not in err


def test_cli_sheets_list_and_check(tmp_path: Path, capsys) -> None:
    assert main(["sheets"]) == 0
    out = capsys.readouterr().out
    assert "rivermouth" in out and "highcrag" in out and "goldplain" in out
    good = Path(__file__).parents[2] / "src/citybuilders/games/roll_builder/data/highcrag.json"
    assert main(["sheets", "check", str(good)]) == 0
    assert capsys.readouterr().out.startswith("OK:")
    data = json.loads(good.read_text())
    data["buildings"][2]["bonus_action"] = "road"
    bad = _write(tmp_path, data, "bad.json")
    assert main(["sheets", "check", bad]) == 2
    err = capsys.readouterr().err.strip()
    assert "buildings[2].bonus_action" in err and "\n" not in err
    data["buildings"] = data["buildings"][:5]
    assert main(["sheets", "check", _write(tmp_path, data, "bad2.json")]) == 2
    assert "buildings" in capsys.readouterr().err


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d["map"].__setitem__(0, d["map"][0].replace("L+We", "L+Xx", 1)), "map[0]"),
    (lambda d: d.__setitem__("start_roads", ["4,5,QQ"]), "start_roads[0]"),
    (lambda d: d["innovations"][0].__setitem__("cost", ["gold"]), "innovations[0].cost[0]"),
    (lambda d: d["wonder"]["boxes"][1].__setitem__("requires", ["B5"]), "wonder.boxes[1].requires"),
    (lambda d: d["tracks"].__setitem__("favor", [0]), "tracks.favor"),
    (lambda d: d["road_abilities"]["milestones"].append({"roads": 5, "treasure": 1}),
     "road_abilities.milestones[2].treasure"),
])
def test_sheet_schema_errors_name_the_field(mutate, field: str) -> None:
    from citybuilders.games.roll_builder.loader import compile_sheet

    good = Path(__file__).parents[2] / "src/citybuilders/games/roll_builder/data/goldplain.json"
    data = json.loads(good.read_text())
    mutate(data)
    with pytest.raises(FormatError) as ei:
        compile_sheet(data)
    assert str(ei.value).startswith(field)


def test_locked_box_without_unlock_is_rejected() -> None:
    from citybuilders.games.roll_builder.loader import compile_sheet

    good = Path(__file__).parents[2] / "src/citybuilders/games/roll_builder/data/goldplain.json"
    data = json.loads(good.read_text())
    data["wonder"]["boxes"][0]["locked"] = True
    with pytest.raises(FormatError, match="nothing unlocks it"):
        compile_sheet(data)


def test_user_sheet_file_option(tmp_path: Path) -> None:
    from citybuilders.core.registry import load_game

    good = Path(__file__).parents[2] / "src/citybuilders/games/roll_builder/data/highcrag.json"
    data = json.loads(good.read_text())
    data["id"], data["name"] = "mycity", "My City"
    f = _write(tmp_path, data, "mine.json")
    # issue 11: the game never opens files; the trusted caller (the CLI) reads the document
    from citybuilders.games.roll_builder.loader import read_sheet_document

    g = load_game("roll-builder", sheet_doc=read_sheet_document(f))
    assert g.sheet.name == "My City" and g.describe_setup(g.new_initial_state()) == "My City"


def test_cli_moves_on_saved_position(tmp_path: Path, capsys) -> None:
    from rb_helpers import new, roll

    s = new(players=2)
    roll(s, 3, 2)
    f = _write(tmp_path, s.to_json())
    assert main(["moves", f]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "P1 road d1" in out and "P2 skip d2" in out
