from __future__ import annotations

import pytest
from toygame import ToyGame

from citybuilders.core.registry import register_game, unregister_game


@pytest.fixture(autouse=True, scope="module")
def toy_registered():
    """The toy game is registered only while the core tests run."""
    register_game(ToyGame)
    yield
    unregister_game(ToyGame.name)
