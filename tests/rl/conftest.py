"""RL adapter tests: marked ``rl``; each module skips cleanly when its extra is absent."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/rl/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.rl)
