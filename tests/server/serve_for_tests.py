"""Run the web server with the test games registered: ``python serve_for_tests.py PORT DB_URL``.

Used by the restart-persistence test (a real process that is killed with SIGKILL).
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "core"))

from helpers import register_test_games  # noqa: E402

register_test_games()

from citybuilders.server import run  # noqa: E402

if __name__ == "__main__":
    run("127.0.0.1", int(sys.argv[1]), sys.argv[2])
