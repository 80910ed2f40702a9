"""CLI: score files (good and bad), simulate with solo ranks, moves."""

from __future__ import annotations

import json

from citybuilders.cli import main

SHEET = {"game": "roll-into-town", "map": [
    "oc oc oc oc c:NW . . . .",
    "oc oc oc c:NW HO HO HO . .",
    "oc oc c:NW LT HO TA HO . .",
    "oc c:NW . LB HO HO HO . .",
    "c:NW fa fa mo TH QU mo . .",
    ". . CA . . . . . .",
    ". . CA CA . . . . .",
    ". . CA CA . . . . .",
    "r:EW r:EW r:EW r:EW r:EW r:EW r:EW r:EW r:EW"]}


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_score_text_and_json(tmp_path, capsys):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(SHEET))
    code, out, _ = run(capsys, "score", "roll-into-town", str(f))
    assert code == 0 and "lighthouse" in out and "72" in out and "great mayor" in out
    code, out, _ = run(capsys, "score", "roll-into-town", str(f), "--json")
    data = json.loads(out)
    assert data["players"][0]["parts"] == {"houses": 16, "taverns": 8, "river": 18, "coast": 5,
                                           "lighthouse": 15, "cathedral": 10}
    assert data["players"][0]["rank"] == "great mayor"


def test_score_two_players_winner(tmp_path, capsys):
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"players": [{"name": "Ann", "map": SHEET["map"]},
                                         {"name": "Bo", "map": SHEET["map"]}]}))
    code, out, _ = run(capsys, "score", "roll-into-town", str(f), "--json")
    assert code == 0 and json.loads(out)["winners"] == ["Ann", "Bo"]


def test_score_bad_files(tmp_path, capsys):
    cases = [
        ({"map": ["x"]}, "map: expected 9 rows"),
        ({"map": SHEET["map"][:8] + ["r:EW zz . . . . . . ."]}, "map[8][1]: unknown cell 'zz'"),
        ({"map": [r.replace("LB", ".") for r in SHEET["map"]]}, "lighthouse"),
        ({"map": [r.replace("TH", ".") for r in SHEET["map"]]}, "town hall"),
        ({"map": SHEET["map"], "colour": 1}, "colour: unknown key"),
        ({"map": SHEET["map"], "options": {"ocean_sides_rule": "x"}}, "options:"),
        ({"map": [r.replace("c:NW", "c:NESW") for r in SHEET["map"]]}, "1, 2 or 3 sides"),
    ]
    for data, msg in cases:
        f = tmp_path / "bad.json"
        f.write_text(json.dumps(data))
        code, _, err = run(capsys, "score", "roll-into-town", str(f))
        assert code == 2 and msg in err and err.count("\n") == 1, (msg, err)
    f.write_text("{not json")
    code, _, err = run(capsys, "score", "roll-into-town", str(f))
    assert code == 2 and "not valid JSON" in err


def test_simulate_shows_solo_ranks(capsys):
    code, out, _ = run(capsys, "simulate", "roll-into-town", "--games", "3", "--players",
                       "random", "--no-progress")
    assert code == 0 and "ranks:" in out and "failed mayor" in out
