from __future__ import annotations

import os
import sys

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
