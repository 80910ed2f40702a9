"""axe-core injected into a Playwright page: the serious and critical violations.

The one axe-core of the browser tests: ``axe.min.js`` as shipped inside the PyPI package
``axe-playwright-python`` (a ``[test]`` extra), so no npm is needed; every test file uses
:func:`axe_source` / :func:`serious_violations` / :func:`violations`."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def axe_source() -> str:
    """The text of axe.min.js (from the installed axe-playwright-python package)."""
    return (resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


def violations(page) -> list[dict]:
    """Run axe on ``page``: its serious and critical violations (axe's result objects)."""
    page.add_script_tag(content=axe_source())
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


def serious_violations(page) -> list[str]:
    """Run axe on ``page``; one line per serious or critical violation (rule, nodes)."""
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"])
                        for n in v["nodes"][:5])
            for v in violations(page)]
