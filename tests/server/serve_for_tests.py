"""Run the web server with the test games registered: ``python serve_for_tests.py PORT DB_URL``.

Used by the tests that need real processes (killed with SIGKILL, several on one database).
``CB_TEST_SLOW_BOT_DELAY`` (seconds) sets how long the ``slow`` test bot thinks.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "core"))

from helpers import SlowBot, register_test_games  # noqa: E402

register_test_games()
if os.environ.get("CB_TEST_SLOW_BOT_DELAY"):
    SlowBot.delay = float(os.environ["CB_TEST_SLOW_BOT_DELAY"])

from citybuilders.server import run  # noqa: E402

if __name__ == "__main__":
    run("127.0.0.1", int(sys.argv[1]), sys.argv[2])
