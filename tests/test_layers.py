"""Layering of ``src/citybuilders`` checked on the source (issue 10 of the project).

Every ``import`` / ``from ... import`` statement is read from the AST of every module —
module-level or inside functions; statements under ``if TYPE_CHECKING:`` are types only and
are ignored. Two rules:

* the rules of a game (``rules``/``rules.*``, ``actions``, ``loader``, ``scoring``,
  ``scorefile``) never import that game's ``render``, ``strategy``, ``texts`` or ``game``;
* there is no import cycle anywhere in the package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "citybuilders"
RULE_ROOMS = ("rules", "actions", "loader", "scoring", "scorefile")
UPPER_ROOMS = ("render", "strategy", "texts", "game")


def module_name(path: Path, root: Path = SRC) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(path: Path, modules: set[str], root: Path = SRC) -> set[str]:
    """Modules of ``modules`` that ``path`` imports (``from pkg import mod`` counts ``pkg.mod``)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def resolve(level: int, mod: str | None) -> str:
        if level == 0:
            return mod or ""
        base = package.split(".")
        if level > 1:
            base = base[: len(base) - (level - 1)]
        return ".".join(base + ([mod] if mod else []))

    def add(target: str) -> None:
        # the deepest prefix of ``target`` that is one of our modules
        parts = target.split(".")
        for i in range(len(parts), 0, -1):
            cand = ".".join(parts[:i])
            if cand in modules:
                if cand != name:
                    found.add(cand)
                return

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:
                    visit_stmt(other)
                continue
            visit_stmt(child)

    def visit_stmt(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = resolve(node.level, node.module)
            for alias in node.names:
                full = f"{base}.{alias.name}" if base else alias.name
                if full in modules:
                    add(full)
                else:
                    add(base)
        visit(node)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    return found


def import_graph(pkg: Path = PKG, root: Path = SRC) -> dict[str, set[str]]:
    files = sorted(pkg.rglob("*.py"))
    modules = {module_name(f, root) for f in files}
    return {module_name(f, root): imports_of(f, modules, root) for f in files}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first repeated at the end), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = dfs(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = dfs(node)
            if found:
                return found
    return None


def room_of(module: str, game: str) -> str | None:
    prefix = f"citybuilders.games.{game}."
    if not module.startswith(prefix):
        return None
    return module[len(prefix):].split(".")[0]


def rule_violations(graph: dict[str, set[str]]) -> list[str]:
    out = []
    games = sorted({m.split(".")[2] for m in graph
                    if m.startswith("citybuilders.games.") and m.count(".") >= 3})
    for game in games:
        for mod, deps in sorted(graph.items()):
            if room_of(mod, game) not in RULE_ROOMS:
                continue
            for dep in sorted(deps):
                if room_of(dep, game) in UPPER_ROOMS:
                    out.append(f"{mod} imports {dep}")
    return out


# ------------------------------------------------------------------ the checker itself
def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tmp_path


def test_checker_finds_a_lazy_cycle_and_ignores_type_checking(tmp_path):
    root = _tree(tmp_path, {
        "citybuilders/__init__.py": "",
        "citybuilders/games/__init__.py": "",
        "citybuilders/games/g/__init__.py": "",
        "citybuilders/games/g/rules.py": "def f():\n    from .render import draw\n",
        "citybuilders/games/g/render.py": "from . import rules\n",
        "citybuilders/games/g/scoring.py":
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import G\n",
        "citybuilders/games/g/game.py": "from .scoring import x\n",
    })
    graph = import_graph(root / "citybuilders", root)
    assert graph["citybuilders.games.g.rules"] == {"citybuilders.games.g.render"}
    assert graph["citybuilders.games.g.scoring"] == set()
    assert find_cycle(graph) == ["citybuilders.games.g.render", "citybuilders.games.g.rules",
                                 "citybuilders.games.g.render"]
    assert rule_violations(graph) == [
        "citybuilders.games.g.rules imports citybuilders.games.g.render"]


def test_checker_passes_a_clean_tree(tmp_path):
    root = _tree(tmp_path, {
        "citybuilders/__init__.py": "",
        "citybuilders/core/__init__.py": "",
        "citybuilders/core/game.py": "",
        "citybuilders/games/__init__.py": "",
        "citybuilders/games/g/__init__.py": "",
        "citybuilders/games/g/rules/__init__.py": "",
        "citybuilders/games/g/rules/state.py": "from ....core import game\nfrom .. import actions\n",
        "citybuilders/games/g/actions.py": "from citybuilders.core.game import X\n",
        "citybuilders/games/g/render.py": "from .rules.state import S\n",
        "citybuilders/games/g/game.py": "from . import render, rules\n",
    })
    graph = import_graph(root / "citybuilders", root)
    assert graph["citybuilders.games.g.rules.state"] == {"citybuilders.core.game",
                                                        "citybuilders.games.g.actions"}
    assert find_cycle(graph) is None
    assert rule_violations(graph) == []


# ------------------------------------------------------------------ the package
ROOMS = {"__init__.py", "game.py", "actions.py", "loader.py", "scoring.py", "scorefile.py",
         "render.py", "strategy.py", "texts.py", "data"}
"""Top-level entries of every game folder, besides ``rules.py`` or a ``rules/`` package."""
OPTIONAL_ROOMS = {"locale"}
"""Entries a game folder may have: ``locale/`` = the translations of ``texts.py`` (core/textcat)."""

def game_folders() -> list[Path]:
    return sorted(p for p in (PKG / "games").iterdir()
                  if p.is_dir() and (p / "__init__.py").exists())


@pytest.mark.parametrize("folder", game_folders(), ids=lambda p: p.name)
def test_game_folder_has_the_one_shape(folder):
    entries = {p.name for p in folder.iterdir() if p.name != "__pycache__"}
    rules = {"rules.py", "rules"} & entries
    assert len(rules) == 1, f"{folder.name}: needs rules.py or a rules/ package"
    assert entries - rules - OPTIONAL_ROOMS == ROOMS, (
        f"{folder.name}: missing {sorted(ROOMS - entries)}, "
        f"extra {sorted(entries - rules - ROOMS - OPTIONAL_ROOMS)}")
    init = ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))
    assert not [n for n in init.body if isinstance(n, (ast.Import, ast.ImportFrom))
                and not (isinstance(n, ast.ImportFrom) and n.module == "__future__")], (
        f"{folder.name}/__init__.py imports modules (it holds a docstring only)")


def test_no_import_cycle_in_the_package():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_rules_never_import_presentation_or_strategy():
    assert rule_violations(import_graph()) == []


def test_bot_registry_imports_no_bot():
    graph = import_graph()
    assert graph["citybuilders.bots.base"] <= {"citybuilders.core.errors",
                                               "citybuilders.core.game",
                                               "citybuilders.core.i18n"}
