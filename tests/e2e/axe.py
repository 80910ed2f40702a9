"""axe-core (the npm package, installed under tests/e2e/node_modules by scripts/test.sh or on
first use) injected into a Playwright page: the serious and critical violations."""

from __future__ import annotations

import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"


def axe_source() -> str:
    """The text of axe.min.js (``npm install`` in tests/e2e first if it is missing)."""
    if not AXE.exists():
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent"], cwd=HERE,
                       check=True, timeout=300)
    return AXE.read_text(encoding="utf-8")


def serious_violations(page) -> list[str]:
    """Run axe on ``page``; one line per serious or critical violation (rule, nodes)."""
    page.add_script_tag(content=axe_source())
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"])
                        for n in v["nodes"][:5])
            for v in result["violations"] if v["impact"] in ("serious", "critical")]
