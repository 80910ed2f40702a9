"""Roll Builder benchmark: random and greedy solo games per second per sheet, µs per engine call,
and the greedy score distribution per sheet.

Usage: python benchmarks/bench_roll_builder.py [--random N] [--greedy N] [--repeat R]

Other processes share the cores: every random-game figure is the best of ``--repeat`` runs (the
least disturbed one), wall and CPU time are both printed, and the load average is shown.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from citybuilders.bots.base import make_bot
from citybuilders.core.game import CHANCE
from citybuilders.core.registry import load_game

SHEETS = ("rivermouth", "highcrag", "goldplain")


def random_games(sheet: str, n: int, repeat: int = 1) -> tuple[float, float, float, float]:
    """(ms per game, CPU ms per game, µs per step incl. legal_actions, mean score); best of
    ``repeat`` runs of the same ``n`` games."""
    best = (float("inf"), float("inf"), 0.0, 0.0)
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        steps, mean = _random_run(sheet, n)
        dt, dc = time.perf_counter() - t, time.process_time() - c
        if dt / n * 1e3 < best[0]:
            best = (dt / n * 1e3, dc / n * 1e3, dt / steps * 1e6, mean)
    return best


def _random_run(sheet: str, n: int) -> tuple[int, float]:
    g = load_game("roll-builder", sheet=sheet)
    rng = random.Random(1)
    steps = 0
    totals = []
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
    return steps, statistics.mean(totals)


def greedy_games(sheet: str, n: int) -> tuple[float, float, list[int], dict[str, float]]:
    """(ms per game, CPU ms per game, totals, mean parts) of ``n`` greedy solo games."""
    g = load_game("roll-builder", sheet=sheet)
    rng = random.Random(2)
    bot = make_bot("greedy", 7)
    totals: list[int] = []
    parts: dict[str, float] = {}
    t, c = time.perf_counter(), time.process_time()
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
    return ((time.perf_counter() - t) / n * 1e3, (time.process_time() - c) / n * 1e3, totals,
            parts)


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
    n = 2000
    la = cl = float("inf")
    for _ in range(5):  # best of 5
        t = time.perf_counter()
        for _ in range(n):
            s.legal_actions(0)
        la = min(la, (time.perf_counter() - t) / n * 1e6)
        t = time.perf_counter()
        for _ in range(n):
            s.clone()
        cl = min(cl, (time.perf_counter() - t) / n * 1e6)
    return la, cl


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--random", type=int, default=300)
    ap.add_argument("--greedy", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5, help="random games: best of R runs")
    a = ap.parse_args()
    print("load average %.2f %.2f %.2f" % os.getloadavg())
    print(f"random solo, {a.random} games per sheet, best of {a.repeat} runs")
    print(f"{'sheet':<11} {'ms/game':>8} {'cpu ms':>7} {'games/s':>8} {'µs/step':>8} "
          f"{'rand mean':>9} {'µs legal':>9} {'µs clone':>9}")
    for sh in SHEETS:
        ms, cpu, us, mean = random_games(sh, a.random, a.repeat)
        la, cl = micro(sh)
        print(f"{sh:<11} {ms:>8.2f} {cpu:>7.2f} {1000 / ms:>8.0f} {us:>8.1f} {mean:>9.1f} "
              f"{la:>9.1f} {cl:>9.1f}")
    print()
    print(f"greedy solo, {a.greedy} games per sheet (one run)")
    for sh in SHEETS:
        ms, cpu, totals, parts = greedy_games(sh, a.greedy)
        sd = statistics.pstdev(totals)
        print(f"{sh:<11} {ms:>7.0f} ms/game (cpu {cpu:.0f}; {1000 / ms:.1f} games/s)  mean "
              f"{statistics.mean(totals):.1f} sd {sd:.1f} min {min(totals)} max {max(totals)}  "
              + " ".join(f"{k} {v:.1f}" for k, v in parts.items()))
    print("load average %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
