"""Adding a game = copying one folder and adding one registry line (docs/developing.md).

The template game ``examples/new_game/tiny_town`` is copied into a copy of the package with one
line added to the registry, and nothing else changed; the new game then works everywhere a
shipped game does — the protocol checks, bots, records, the score calculator, the CLI, the
web server's API and page panels — and passes the layering checks of tests/test_layers.py.
"""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "examples" / "new_game" / "tiny_town"
REGISTRY_LINE = '    "tiny-town": "citybuilders.games.tiny_town.game:TinyTownGame",\n'

sys.path.insert(0, str(ROOT / "tests"))
from test_layers import (  # noqa: E402
    ROOMS, find_cycle, import_graph, rule_violations)


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """A copy of ``src/`` with Tiny Town added the documented way."""
    root = tmp_path_factory.mktemp("newgame") / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(ROOT / "src", root, ignore=ignore)
    shutil.copytree(TEMPLATE, root / "citybuilders" / "games" / "tiny_town", ignore=ignore)
    registry = root / "citybuilders" / "core" / "registry.py"
    text = registry.read_text()
    anchor = "_GAMES: dict[str, str] = {\n"
    assert anchor in text
    registry.write_text(text.replace(anchor, anchor + REGISTRY_LINE, 1))
    return root


def test_only_the_folder_and_one_registry_line_are_new(tree):
    def walk(a: Path, b: Path) -> list[str]:
        cmp = filecmp.dircmp(a, b, ignore=["__pycache__"])
        out = [str((b / n).relative_to(tree)) for n in cmp.right_only + cmp.diff_files]
        out += [f"missing {(a / n).relative_to(ROOT)}" for n in cmp.left_only
                if not n.endswith(".egg-info")]
        for sub in cmp.common_dirs:
            out += walk(a / sub, b / sub)
        return out

    assert sorted(walk(ROOT / "src", tree)) == ["citybuilders/core/registry.py",
                                                "citybuilders/games/tiny_town"]
    old = (ROOT / "src/citybuilders/core/registry.py").read_text().splitlines(keepends=True)
    new = (tree / "citybuilders/core/registry.py").read_text().splitlines(keepends=True)
    added = [line for line in new if line not in old]
    assert added == [REGISTRY_LINE] and len(new) == len(old) + 1


def test_the_new_folder_has_the_one_shape_and_keeps_the_layers(tree):
    folder = tree / "citybuilders" / "games" / "tiny_town"
    entries = {p.name for p in folder.iterdir() if p.name != "__pycache__"}
    assert entries == ROOMS | {"rules.py"}
    graph = import_graph(tree / "citybuilders", tree)
    ours = {m: d for m, d in graph.items() if ".tiny_town" in m}
    assert find_cycle(ours) is None
    assert [v for v in rule_violations(graph) if ".tiny_town" in v] == []


SCRIPT = r'''
import json, random, sys, xml.dom.minidom
sys.path.insert(0, sys.argv[1])                      # tests/core: the protocol checks
import citybuilders
from citybuilders.bots import make_bot
from citybuilders.core.runner import play_out
from test_protocol import check_copies, check_position, check_views, random_step

assert "tiny-town" in citybuilders.registered_games()
game = citybuilders.load_game("tiny-town", turns=8)
for seed in range(5):
    state, rng = game.new_initial_state(3, seed), random.Random(seed)
    while True:
        check_position(state, rng, True)
        check_copies(state, rng)
        check_views(state, rng)
        if state.is_terminal():
            break
        random_step(state, rng)
state = game.new_initial_state(2, 7)
play_out(state, [make_bot("greedy", 1), make_bot("ismcts", 2)], random.Random(7))
assert citybuilders.replay(citybuilders.record_of(state).to_json()) == state
xml.dom.minidom.parseString(state.render_svg(0))
from citybuilders.server.display import display_panels
panels = display_panels(game, state.observation(0), ["Ana", "Bo"], 0, True)
from fastapi.testclient import TestClient
from citybuilders.server.app import create_app
with TestClient(create_app("sqlite:///" + sys.argv[2])) as client:
    r = client.post("/api/games", json={"game": "tiny-town", "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    view = client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": token})
    assert view.status_code == 200, view.text
    page = client.get(f"/play/{gid}?t={token}")
    assert page.status_code == 200 and "Tiny Town" in page.text, page.status_code
    assert client.get("/").text.count("Tiny Town") >= 1
print(json.dumps({"totals": [s.total for s in state.scores()], "panels": panels,
                  "view_keys": sorted(view.json())}))
'''


def run(tree: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(tree))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          timeout=300, **kw)


def test_the_new_game_plays_everywhere(tree, tmp_path):
    done = run(tree, "-c", SCRIPT, str(ROOT / "tests" / "core"), str(tmp_path / "g.db"),
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["panels"][0]["title"] in ("Your card", "Buildings")
    assert {"svg", "legal"} <= set(out["view_keys"]) or "svg" in out["view_keys"]


def test_the_cli_knows_the_new_game(tree, tmp_path):
    f = tmp_path / "final.json"
    f.write_text(json.dumps({"players": [{"built": [3, 3, 1], "sixes": 2},
                                         {"built": [2], "sixes": 0}]}))
    done = run(tree, "-m", "citybuilders", "score", "tiny-town", str(f), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"] == [
        {"total": 9, "parts": {"buildings": 7, "dice": 2}},
        {"total": 2, "parts": {"buildings": 2, "dice": 0}}]
    f.write_text(json.dumps({"players": [{"built": [4]}, {}]}))
    done = run(tree, "-m", "citybuilders", "score", "tiny-town", str(f))
    assert done.returncode == 2
    assert done.stderr.strip() == "error: players[0].built[0]: expected one of 1, 2, 3, got 4"
    done = run(tree, "-m", "citybuilders", "simulate", "tiny-town", "--games", "20",
               "--players", "greedy,random")
    assert done.returncode == 0, done.stderr
