"""Sprawlopolis benchmarks: full scoring of a 15-card city, random and greedy solo games per second.

Run: ``python benchmarks/bench_sprawlopolis.py [--games N]``. Prints the figures; not a test.
"""

from __future__ import annotations

import argparse
import random
import time

from citybuilders.bots import make_bot
from citybuilders.core.registry import load_game
from citybuilders.core.rng import make_rng
from citybuilders.core.runner import play_out
from citybuilders.games.sprawlopolis.scoring import Rules, score_city, total_of


def finished_city(seed: int, conditions: list[int]):
    state = load_game("sprawlopolis", conditions=conditions).new_initial_state(1, seed)
    play_out(state, [make_bot("random", seed)], make_rng(seed, "chance"))
    return state


def bench_scoring(repeat: int) -> tuple[float, float]:
    """µs per full score (breakdown) and per total-only score, 15-card cities, 3 conditions."""
    rng = random.Random(0)
    cities = []
    for k in range(20):
        conds = rng.sample(range(1, 19), 3)
        s = finished_city(k, conds)
        cities.append((s.city.cells, s.city.occ, tuple(conds)))
    rules = Rules()
    t = time.perf_counter()
    for _ in range(repeat):
        for cells, occ, conds in cities:
            score_city(cells, occ, conds, rules)
    full = (time.perf_counter() - t) / (repeat * len(cities)) * 1e6
    t = time.perf_counter()
    for _ in range(repeat):
        for cells, occ, conds in cities:
            total_of(cells, occ, conds, rules)
    quick = (time.perf_counter() - t) / (repeat * len(cities)) * 1e6
    return full, quick


def bench_all_conditions(repeat: int) -> float:
    """µs to score one 15-card city with all 18 conditions (6 breakdowns of 3 conditions)."""
    s = finished_city(1, [1, 2, 3])
    rules = Rules()
    groups = [tuple(range(k, k + 3)) for k in range(1, 19, 3)]
    t = time.perf_counter()
    for _ in range(repeat):
        for g in groups:
            score_city(s.city.cells, s.city.occ, g, rules)
    return (time.perf_counter() - t) / (repeat * len(groups)) * 1e6


def bench_games(bot: str, games: int, players: int = 1) -> float:
    """Games per second of ``bot`` in every seat (solo by default), chance sampled."""
    game = load_game("sprawlopolis")
    t = time.perf_counter()
    for k in range(games):
        state = game.new_initial_state(players, k)
        play_out(state, [make_bot(bot, k + p) for p in range(players)], make_rng(k, "chance"))
    return games / (time.perf_counter() - t)


def bench_legal_actions(repeat: int) -> float:
    """µs per legal_actions() call on a fresh state mid-game (no cache)."""
    s = load_game("sprawlopolis").new_initial_state(1, 3)
    rng = random.Random(1)
    while len(s.city.placements) < 8 or s.is_chance_node():
        s.apply_action(s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    t = time.perf_counter()
    for _ in range(repeat):
        s._legal = None
        s.legal_actions()
    return (time.perf_counter() - t) / repeat * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=2000, help="random games (greedy: games/100)")
    args = ap.parse_args()
    full, quick = bench_scoring(200)
    print(f"full scoring, 15-card city, 3 conditions: {full:8.1f} µs (total only: {quick:.1f} µs)")
    print(f"scoring, 15-card city, per 3 of all 18 conditions: {bench_all_conditions(100):8.1f} µs")
    print(f"legal_actions mid-game (3 cards in hand):  {bench_legal_actions(2000):8.1f} µs")
    rate = bench_games("random", args.games)
    print(f"random solo games: {rate:8.0f} games/s ({1000 / rate:.3f} ms per game)")
    n = max(5, args.games // 100)
    rate = bench_games("greedy", n)
    print(f"greedy solo games: {rate:8.2f} games/s ({1000 / rate:.0f} ms per game)")
    rate = bench_games("random", args.games // 2, players=4)
    print(f"random 4-player co-op games: {rate:8.0f} games/s")


if __name__ == "__main__":
    main()
