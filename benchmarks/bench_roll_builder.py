"""Roll Builder benchmark: random and greedy solo games per second per sheet, µs per engine call,
and the greedy score distribution per sheet.

Usage: python benchmarks/bench_roll_builder.py [--random N] [--greedy N]
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from citybuilders.bots.base import make_bot
from citybuilders.core.game import CHANCE
from citybuilders.core.registry import load_game

SHEETS = ("rivermouth", "highcrag", "goldplain")


def random_games(sheet: str, n: int) -> tuple[float, float, float]:
    """(ms per game, µs per step incl. legal_actions, mean score)."""
    g = load_game("roll-builder", sheet=sheet)
    rng = random.Random(1)
    steps = 0
    totals = []
    t = time.perf_counter()
    for k in range(n):
        s = g.new_initial_state(1, k)
        while not s.is_terminal():
            cp = s.current_player()
            if cp == CHANCE:
                s.apply_legal(s.sample_chance(rng))
            else:
                la = s.legal_actions(cp)
                s.apply_legal(la[rng.randrange(len(la))], cp)
            steps += 1
        totals.append(s.scores()[0].total)
    dt = time.perf_counter() - t
    return dt / n * 1e3, dt / steps * 1e6, statistics.mean(totals)


def greedy_games(sheet: str, n: int) -> tuple[float, list[int], dict[str, float]]:
    g = load_game("roll-builder", sheet=sheet)
    rng = random.Random(2)
    bot = make_bot("greedy", 7)
    totals: list[int] = []
    parts: dict[str, float] = {}
    t = time.perf_counter()
    for k in range(n):
        s = g.new_initial_state(1, 1000 + k)
        while not s.is_terminal():
            cp = s.current_player()
            if cp == CHANCE:
                s.apply_legal(s.sample_chance(rng))
            else:
                s.apply_legal(bot.step(s, cp), cp)
        sc = s.scores()[0]
        totals.append(sc.total)
        for key, v in sc.parts.items():
            parts[key] = parts.get(key, 0.0) + v / n
    return (time.perf_counter() - t) / n * 1e3, totals, parts


def micro(sheet: str) -> tuple[float, float]:
    """µs per legal_actions and per clone on a mid-game position."""
    g = load_game("roll-builder", sheet=sheet)
    s = g.new_initial_state(1, 0)
    rng = random.Random(3)
    bot = make_bot("greedy", 1)
    while s.turn < 8:
        cp = s.current_player()
        s.apply_legal(s.sample_chance(rng) if cp == CHANCE else bot.step(s, cp),
                      None if cp == CHANCE else cp)
    while s.current_player() == CHANCE:
        s.apply_legal(s.sample_chance(rng))
    n = 5000
    t = time.perf_counter()
    for _ in range(n):
        s.legal_actions(0)
    la = (time.perf_counter() - t) / n * 1e6
    t = time.perf_counter()
    for _ in range(n):
        s.clone()
    return la, (time.perf_counter() - t) / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--random", type=int, default=300)
    ap.add_argument("--greedy", type=int, default=20)
    a = ap.parse_args()
    print(f"{'sheet':<11} {'random ms/game':>14} {'games/s':>8} {'µs/step':>8} {'rand mean':>9} "
          f"{'µs legal':>9} {'µs clone':>9}")
    for sh in SHEETS:
        ms, us, mean = random_games(sh, a.random)
        la, cl = micro(sh)
        print(f"{sh:<11} {ms:>14.2f} {1000 / ms:>8.0f} {us:>8.1f} {mean:>9.1f} {la:>9.1f} "
              f"{cl:>9.1f}")
    print()
    print(f"greedy solo, {a.greedy} games per sheet")
    for sh in SHEETS:
        ms, totals, parts = greedy_games(sh, a.greedy)
        sd = statistics.pstdev(totals)
        print(f"{sh:<11} {ms:>7.0f} ms/game ({1000 / ms:.1f} games/s)  mean "
              f"{statistics.mean(totals):.1f} sd {sd:.1f} min {min(totals)} max {max(totals)}  "
              + " ".join(f"{k} {v:.1f}" for k, v in parts.items()))


if __name__ == "__main__":
    main()
