"""Kingdom Builder + Crossroads speed figures. Run: ``python benchmarks/bench_crossroads.py``.

Prints, on one core: random 4-player games per second with two Crossroads sections in play
(and all four), next to the base game on the same run, their ratio (target: Crossroads game time
within 1.5x of the base game's), µs per ``legal_actions()``, ``clone()`` and ``scores()`` on
Crossroads mid-game positions, and greedy games per second. Times are CPU time of this process
(``time.process_time``).
"""

from __future__ import annotations

import argparse

import citybuilders

# the sibling script (benchmarks/ is on sys.path when this file is run as a script)
from bench_kingdom_builder import greedy_games as kb_greedy_games
from bench_kingdom_builder import midgame_positions as kb_midgame_positions
from bench_kingdom_builder import per_call, timed_random_games

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
    c, _, steps = timed_random_games(load(sections), n_players, games)
    return games / c, steps / games


def midgame_positions(count: int) -> list:
    """Decision points of random 4-player games with two Crossroads sections (``TWO``)."""
    return kb_midgame_positions(count, load(TWO))


def greedy_games(games: int) -> float:
    """Greedy 4-player games per CPU second with two Crossroads sections (``TWO``)."""
    return kb_greedy_games(4, games, load(TWO))


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
