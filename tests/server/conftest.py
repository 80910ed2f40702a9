from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from helpers import register_test_games, unregister_test_games  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def _test_games():
    register_test_games()
    yield
    unregister_test_games()


@pytest.fixture
def app(tmp_path):
    from citybuilders.server import create_app

    return create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}")


@pytest.fixture
def client(app):
    from fastapi.testclient import TestClient

    with TestClient(app) as c:
        yield c
