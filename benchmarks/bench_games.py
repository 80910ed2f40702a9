"""Whole games of one game with one bot in every seat, for before/after timings of the engine.

Run: ``python benchmarks/bench_games.py GAME GAMES PLAYERS BOT`` (e.g. ``kingdom-builder 300 4
random``); prints games/s of the games alone (imports and start-up not counted); ``--cpu``
divides by the process's CPU time instead of wall time, and ``--parallel`` runs each round's old
and new at the same time instead of one after the other (steadier while other work shares the
machine).

``--against OLD/src`` compares two checkouts in one run: the same command runs ``--rounds``
times in each tree (``PYTHONPATH``), alternating old, new, old, new ... (pairing keeps the ratio
fair while the machine's speed drifts), and prints both medians and the median of the pairwise
ratios new/old. Make the old tree with ``git worktree add /tmp/before COMMIT``. Not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path


def _games_per_second(game: str, games: int, players: int, bot: str, cpu: bool = False) -> float:
    import citybuilders
    from citybuilders.bots import make_bot
    from citybuilders.core.runner import play_out

    g = citybuilders.load_game(game)
    clock = time.process_time if cpu else time.perf_counter
    t = clock()
    for seed in range(games):
        s = g.new_initial_state(players, seed)
        play_out(s, [make_bot(bot, seed + i) for i in range(players)], random.Random(seed))
    return games / (clock() - t)


def _start_in(src: str, args: list[str]) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=src)
    return subprocess.Popen([sys.executable, __file__, *args], env=env,
                            stdout=subprocess.PIPE, text=True)


def _rate_of(proc: subprocess.Popen[str]) -> float:
    out, _ = proc.communicate()
    if proc.returncode:
        raise SystemExit(f"a benchmark run failed (exit {proc.returncode})")
    return float(out.split(":")[1].split()[0])


def _run_in(src: str, args: list[str]) -> float:
    return _rate_of(_start_in(src, args))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("games", type=int)
    ap.add_argument("players", type=int)
    ap.add_argument("bot")
    ap.add_argument("--against", metavar="OLD_SRC", default=None,
                    help="the src folder of another checkout to compare with")
    ap.add_argument("--rounds", type=int, default=5, help="alternating runs per tree")
    ap.add_argument("--parallel", action="store_true",
                    help="with --against: run each round's old and new at the same time (both "
                         "share the machine's load of that moment; use with --cpu on 2+ cores)")
    ap.add_argument("--cpu", action="store_true",
                    help="games per second of the process's CPU time instead of wall time "
                         "(steadier on a loaded machine)")
    a = ap.parse_args(argv)
    if a.against is None:
        rate = _games_per_second(a.game, a.games, a.players, a.bot, a.cpu)
        print(f"{a.game} {a.players}p {a.bot}: {rate:.1f} games/s ({a.games} games"
              f"{', CPU time' if a.cpu else ''})")
        return 0
    new_src = str(Path(__file__).resolve().parent.parent / "src")
    args = [a.game, str(a.games), str(a.players), a.bot] + (["--cpu"] if a.cpu else [])
    old, new = [], []
    for _ in range(a.rounds):
        if a.parallel:
            procs = _start_in(a.against, args), _start_in(new_src, args)
            old.append(_rate_of(procs[0]))
            new.append(_rate_of(procs[1]))
        else:
            old.append(_run_in(a.against, args))
            new.append(_run_in(new_src, args))
    ratios = [n / o for n, o in zip(new, old)]
    print(f"command: {' '.join(['benchmarks/bench_games.py', *args, '--against', a.against])}"
          f" --rounds {a.rounds}{' --parallel' if a.parallel else ''}")
    print(f"{a.game} {a.players}p {a.bot}, {a.games} games x {a.rounds} rounds")
    print(f"  old {a.against}: median {statistics.median(old):.1f} games/s "
          f"(min {min(old):.1f}, max {max(old):.1f})")
    print(f"  new {new_src}: median {statistics.median(new):.1f} games/s "
          f"(min {min(new):.1f}, max {max(new):.1f})")
    print(f"  new/old: median {statistics.median(ratios):.2f}x "
          f"(pairs {', '.join(f'{r:.2f}' for r in ratios)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
