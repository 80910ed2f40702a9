from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from helpers import BACKENDS, register_test_games, unregister_test_games  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def _test_games():
    register_test_games()
    yield
    unregister_test_games()


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path):
    """A new empty database: an SQLite file, or a PostgreSQL database (tests marked
    ``postgres``)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return request.getfixturevalue("pg_cluster").create_database()


@pytest.fixture
def app(db_url):
    from citybuilders.server import create_app

    app = create_app(db_url)
    yield app
    app.state.store.close()  # (the lifespan closed it already if a client ran the app)


@pytest.fixture
def client(app):
    from fastapi.testclient import TestClient

    with TestClient(app) as c:
        yield c
