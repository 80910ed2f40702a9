"""Roll into Town benchmark: random and greedy solo games per second, µs per call.

Run: ``python benchmarks/bench_roll_into_town.py [games]``. Prints figures; not a test.
"""

from __future__ import annotations

import argparse
import random
import time

from citybuilders.bots import make_bot
from citybuilders.core.registry import load_game
from citybuilders.core.runner import play_out


def bench_games(bot: str, games: int) -> tuple[float, float, int]:
    g = load_game("roll-into-town")
    t = time.perf_counter()
    total = steps = 0
    for seed in range(games):
        s = g.new_initial_state(1, seed)
        play_out(s, [make_bot(bot, seed)], random.Random(seed))
        total += s.scores()[0].total
        steps += len(s.history())
    dt = time.perf_counter() - t
    return dt, total / games, steps


def bench_calls(n: int = 2000) -> dict[str, float]:
    g = load_game("roll-into-town")
    s = g.new_initial_state(1, 0)
    rng = random.Random(0)
    for _ in range(5):
        s.apply_legal(s.sample_chance(rng))
    sheet = s.sheets[0]

    def cold() -> list[int]:
        sheet._blk.clear()  # drop the empty-cell block cache first
        return s.legal_actions(0)

    out = {}
    for name, fn in (("legal_actions (discover, 5 dice)", lambda: s.legal_actions(0)),
                     ("same, cold block cache", cold),
                     ("clone", s.clone),
                     ("scores", s.scores)):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        out[name] = (time.perf_counter() - t) / n * 1e6
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=200,
                        help="random games (greedy: games/10, at least 10)")
    games = parser.parse_args().games
    for bot, n in (("random", games), ("greedy", max(10, games // 10))):
        dt, mean, steps = bench_games(bot, n)
        print(f"{bot:>6} solo: {n / dt:8.1f} games/s  {dt / n * 1000:7.2f} ms/game  "
              f"mean score {mean:5.1f}  {steps / n:5.0f} actions/game")
    for name, us in bench_calls().items():
        print(f"{name:>34}: {us:8.1f} µs/call")


if __name__ == "__main__":
    main()
