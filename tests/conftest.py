from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "core"))


def pytest_collection_modifyitems(session, config, items):
    """Run the real-browser tests last: Playwright's sync API keeps an asyncio event loop
    running in the main thread until the session ends, which would break later tests that
    call ``asyncio.run``."""
    def key(item):
        browser = item.get_closest_marker("browser") is not None
        # browser tests with a Playwright of their own run before tests/e2e, whose session-wide
        # Playwright keeps its loop running to the end (a second sync Playwright would refuse)
        return (browser, browser and "e2e" in item.path.parts)

    items.sort(key=key)


@pytest.fixture(scope="session")
def pg_cluster():
    """A throw-away PostgreSQL cluster (``tests/pgcluster.py``) for the whole session: started
    on first use, stopped at the end. Skipped, with the reason, only when the server binaries
    or psycopg are missing (``scripts/test.sh`` installs both)."""
    from pgcluster import MISSING, Cluster, find_bindir

    if find_bindir() is None:
        pytest.skip(MISSING)
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg 3 is not installed (pip install -e '.[postgres]')")
    cluster = Cluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_cluster):
    """The SQLAlchemy URL of a new, empty database in the session's cluster."""
    return pg_cluster.create_database()
