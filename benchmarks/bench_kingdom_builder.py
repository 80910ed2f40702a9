"""Kingdom Builder speed figures (issue §8). Run: ``python benchmarks/bench_kingdom_builder.py``.

Prints, on one core: random 2- and 4-player games per second, µs per ``legal_actions()`` and per
``clone()`` on mid-game positions, greedy games per second. Times are CPU time of this process
(``time.process_time``) so that other load on the machine disturbs them less; wall-clock figures
are printed alongside.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, Callable

import citybuilders
from citybuilders.bots.greedy import GreedyBot
from citybuilders.bots.random_bot import RandomBot
from citybuilders.core.game import CHANCE
from citybuilders.core.runner import play_out


def timed_random_games(g: Any, n_players: int, games: int) -> tuple[float, float, int]:
    """Random games of ``g`` for seeds ``0..games-1``: (CPU s, wall s, total actions)."""
    steps = 0
    c0, w0 = time.process_time(), time.perf_counter()
    for seed in range(games):
        s = g.new_initial_state(n_players, seed)
        play_out(s, [RandomBot(seed * 10 + i) for i in range(n_players)], random.Random(seed))
        steps += len(s.history())
    return time.process_time() - c0, time.perf_counter() - w0, steps


def random_games(n_players: int, games: int) -> tuple[float, float, float]:
    """(games/s CPU, games/s wall, mean actions per game)."""
    g = citybuilders.load_game("kingdom-builder")
    c, w, steps = timed_random_games(g, n_players, games)
    return games / c, games / w, steps / games


def midgame_positions(count: int, g: Any = None) -> list:
    """Decision points of random 4-player games of ``g`` (default: the base game) after 10 to 25
    turns."""
    if g is None:
        g = citybuilders.load_game("kingdom-builder")
    out = []
    seed = 0
    while len(out) < count:
        s = g.new_initial_state(4, 1000 + seed)
        rng = random.Random(seed)
        seed += 1
        target = rng.randint(10, 25)
        while not s.is_terminal() and s.turn < target:
            if s.current_player() == CHANCE:
                s.apply_legal(s.sample_chance(rng))
            else:
                legal = s.legal_actions()
                s.apply_legal(legal[rng.randrange(len(legal))])
        while s.current_player() == CHANCE:
            s.apply_legal(s.sample_chance(rng))
        if not s.is_terminal():
            out.append(s)
    return out


def per_call(positions: list, fn: Callable[[Any], Any], reps: int) -> float:
    """CPU µs per ``fn(position)`` call."""
    c0 = time.process_time()
    for _ in range(reps):
        for s in positions:
            fn(s)
    return (time.process_time() - c0) / (reps * len(positions)) * 1e6


def greedy_games(n_players: int, games: int, g: Any = None) -> float:
    """Greedy-bot games per CPU second (``g`` default: the base game)."""
    if g is None:
        g = citybuilders.load_game("kingdom-builder")
    c0 = time.process_time()
    for seed in range(games):
        s = g.new_initial_state(n_players, seed)
        play_out(s, [GreedyBot(seed * 10 + i) for i in range(n_players)], random.Random(seed))
    return games / (time.process_time() - c0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="random games per player count")
    ap.add_argument("--greedy-games", type=int, default=6)
    args = ap.parse_args()
    for n in (2, 4):
        cpu, wall, steps = random_games(n, args.games)
        print(f"random {n}p: {cpu:7.1f} games/s (CPU), {wall:7.1f} games/s (wall), "
              f"{steps:.0f} actions/game")
    pos = midgame_positions(200)
    la = per_call(pos, lambda s: s.legal_actions(), 20)
    cl = per_call(pos, lambda s: s.clone(), 50)
    sizes = sorted(len(s.legal_actions()) for s in pos)
    print(f"legal_actions(): {la:6.1f} µs per call on {len(pos)} mid-game positions "
          f"(median {sizes[len(sizes) // 2]} actions)")
    print(f"clone():         {cl:6.1f} µs per call")
    print(f"greedy 2p: {greedy_games(2, args.greedy_games):6.2f} games/s (CPU)")
    print(f"greedy 4p: {greedy_games(4, args.greedy_games):6.2f} games/s (CPU)")


if __name__ == "__main__":
    main()
