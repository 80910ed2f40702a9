"""Whole games of one game with one bot in every seat, for before/after timings of the engine.

Run: ``python benchmarks/bench_games.py GAME GAMES PLAYERS BOT`` (e.g. ``kingdom-builder 150 4
random``); prints games/s. Time two checkouts against each other as whole processes, e.g.
``PYTHONPATH=OLD/src python benchmarks/bench_games.py ...`` against the same command on the new
tree, interleaved, and compare the medians. Not a test.
"""

from __future__ import annotations

import argparse
import random
import time

import citybuilders
from citybuilders.bots import make_bot
from citybuilders.core.runner import play_out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("games", type=int)
    ap.add_argument("players", type=int)
    ap.add_argument("bot")
    a = ap.parse_args(argv)
    g = citybuilders.load_game(a.game)
    t = time.perf_counter()
    for seed in range(a.games):
        s = g.new_initial_state(a.players, seed)
        play_out(s, [make_bot(a.bot, seed + i) for i in range(a.players)], random.Random(seed))
    dt = time.perf_counter() - t
    print(f"{a.game} {a.players}p {a.bot}: {a.games / dt:.1f} games/s ({a.games} games)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
