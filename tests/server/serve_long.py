"""Run the web server with the test games and ``long`` registered:
``python serve_long.py PORT DB_URL [CREATE_RATE]`` (used by the websocket back-pressure and
rate-limit tests: a real process)."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "core"))

from helpers import register_test_games  # noqa: E402
from longgame import LongGame  # noqa: E402

from citybuilders.core.registry import register_game  # noqa: E402

register_test_games()
register_game(LongGame)

from citybuilders.server import run  # noqa: E402

if __name__ == "__main__":
    extra = {"create_rate": int(sys.argv[3])} if len(sys.argv) > 3 else {}
    run("127.0.0.1", int(sys.argv[1]), sys.argv[2], **extra)
