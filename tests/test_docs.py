"""The documentation stays in step with the code."""

from __future__ import annotations

import re
from pathlib import Path

from citybuilders.cli import main
from citybuilders.core.registry import registered_games

ROOT = Path(__file__).resolve().parent.parent


def test_rules_options_doc_is_generated_from_the_code(capsys):
    assert main(["options", "--markdown"]) == 0
    generated = capsys.readouterr().out
    current = (ROOT / "docs" / "rules-options.md").read_text(encoding="utf-8")
    assert current == generated, "run: citybuilders options --markdown > docs/rules-options.md"


def test_every_game_is_documented():
    formats = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    assert "(written with the game)" not in formats
    for name in registered_games():
        assert f"<!-- BEGIN {name} -->" in formats
        assert (ROOT / "docs" / "games" / f"{name}.md").exists()


def test_readme_quick_start_has_exactly_two_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", quick, re.S)
    commands = [line for b in blocks for line in b.splitlines() if line.strip()]
    assert len(commands) == 2
    assert "citybuilders serve" in commands[0]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1].strip() in ci or "scripts/test.sh" in ci and commands[1] == "bash scripts/test.sh"


def test_all_four_games_are_registered():
    assert {"kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder"} <= set(
        registered_games()
    )
