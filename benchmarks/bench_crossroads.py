"""Kingdom Builder + Crossroads speed figures. Run: ``python benchmarks/bench_crossroads.py``.

Prints, on one core: random 4-player games per second with two Crossroads sections in play
(and all four), next to the base game on the same run, their ratio (target: Crossroads game time
within 1.5x of the base game's), µs per ``legal_actions()``, ``clone()`` and ``scores()`` on
Crossroads mid-game positions, and greedy games per second. Times are CPU time of this process
(``time.process_time``).
"""

from __future__ import annotations

import argparse
import random
import time

import citybuilders
from citybuilders.bots.greedy import GreedyBot
from citybuilders.bots.random_bot import RandomBot
from citybuilders.core.game import CHANCE
from citybuilders.core.runner import play_out

TWO = ["tavern", "barracks_crossroads", "city_hall_fort", "farm"]
"""Two base and two Crossroads sections (rotations drawn from each seed)."""
FOUR = ["lighthouse_foresters_lodge", "barracks_crossroads", "city_hall_fort", "monastery_wagon"]


def load(sections: list[str] | None) -> citybuilders.core.game.Game:
    if sections is None:
        return citybuilders.load_game("kingdom-builder", sections=["tavern", "paddock", "oasis",
                                                                    "farm"])
    return citybuilders.load_game("kingdom-builder", expansions=["crossroads"], sections=sections)


def random_games(sections: list[str] | None, games: int, n_players: int = 4) -> tuple[float, float]:
    """(games/s CPU, mean actions per game)."""
    g = load(sections)
    steps = 0
    c0 = time.process_time()
    for seed in range(games):
        s = g.new_initial_state(n_players, seed)
        play_out(s, [RandomBot(seed * 10 + i) for i in range(n_players)], random.Random(seed))
        steps += len(s.history())
    return games / (time.process_time() - c0), steps / games


def midgame_positions(count: int) -> list:
    g = load(TWO)
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


def per_call(positions: list, fn, reps: int) -> float:
    c0 = time.process_time()
    for _ in range(reps):
        for s in positions:
            fn(s)
    return (time.process_time() - c0) / (reps * len(positions)) * 1e6


def greedy_games(games: int) -> float:
    g = load(TWO)
    c0 = time.process_time()
    for seed in range(games):
        s = g.new_initial_state(4, seed)
        play_out(s, [GreedyBot(seed * 10 + i) for i in range(4)], random.Random(seed))
    return games / (time.process_time() - c0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="random games per setup")
    ap.add_argument("--greedy-games", type=int, default=3)
    args = ap.parse_args()
    base, base_len = random_games(None, args.games)
    two, two_len = random_games(TWO, args.games)
    four, four_len = random_games(FOUR, args.games)
    print(f"base game, 4 players, random: {base:8.1f} games/s ({1000 / base:.2f} ms/game, "
          f"{base_len:.0f} actions)")
    print(f"2 Crossroads sections, 4p:    {two:8.1f} games/s ({1000 / two:.2f} ms/game, "
          f"{two_len:.0f} actions)")
    print(f"4 Crossroads sections, 4p:    {four:8.1f} games/s ({1000 / four:.2f} ms/game, "
          f"{four_len:.0f} actions)")
    print(f"time ratio Crossroads(2)/base: {base / two:.2f}x (target <= 1.5x)")
    pos = midgame_positions(40)
    print(f"legal_actions(): {per_call(pos, lambda s: s.legal_actions(), 50):7.1f} µs")
    print(f"clone():         {per_call(pos, lambda s: s.clone(), 200):7.1f} µs")
    print(f"scores():        {per_call(pos, lambda s: s.scores(), 20):7.1f} µs")
    print(f"greedy 4p games: {greedy_games(args.greedy_games):7.2f} games/s")


if __name__ == "__main__":
    main()
