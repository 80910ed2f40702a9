"""Executable examples: the doctests of the core modules and the README's Python API block."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import citybuilders.core.game
import citybuilders.core.records

ROOT = Path(__file__).resolve().parents[1]
DOCTEST_MODULES = [citybuilders.core.game, citybuilders.core.records]


@pytest.mark.parametrize("module", DOCTEST_MODULES, ids=lambda m: m.__name__)
def test_doctests(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.attempted >= 5, "the examples went missing"
    assert result.failed == 0


def python_blocks(path: Path, heading: str) -> list[str]:
    """The ```python blocks under the Markdown ``heading`` of ``path`` (up to the next one)."""
    text = path.read_text(encoding="utf-8")
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_readme_python_api_block_runs():
    blocks = python_blocks(ROOT / "README.md", "Python API")
    assert blocks, "README has no Python API example"
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})
