"""ISMCTS iterations per second on every game, for before/after timings of the engine and search.

Run: ``python benchmarks/bench_search.py [--against OLD/src] [--rounds R]``. For each game, a
greedy self-play game is stopped at a few fixed points and ISMCTS searches each position twice:
``plain`` (``ISMCTSBot(iterations=150)``: random rollouts to the end of the game) and ``level``
(the ``hard``/``expert`` search settings of bots/levels.py for 0.3 s a move). Prints iterations/s
summed over the positions. With ``--against`` the same measurement runs in the other checkout's
``src`` and in this one, alternately, ``--rounds`` times, and prints the medians and the median
pairwise ratio new/old (the machine is shared and noisy: pairing keeps the ratio fair; ``--cpu``
divides by the process's CPU time instead of wall time, ``--parallel`` runs each round's old and
new at the same time). ``--check-moves --against OLD/src`` checks instead that both checkouts'
searches pick the same moves for the seeds. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

GAMES = [("kingdom-builder", {}, 2), ("kingdom-builder", {"expansions": ["crossroads"]}, 2),
         ("sprawlopolis", {}, 1), ("roll-into-town", {}, 1), ("roll-builder", {}, 1)]
STOPS = (7, 23, 41)


def _label(name: str, options: dict) -> str:
    return name + ("+crossroads" if options else "")


def _positions(name: str, options: dict, players: int):
    from citybuilders.bots import make_bot
    from citybuilders.core.game import CHANCE, TERMINAL
    from citybuilders.core.registry import load_game

    s = load_game(name, **options).new_initial_state(players, 5)
    rng = random.Random(5)
    bots = [make_bot("greedy", 5 + p) for p in range(players)]
    moves = 0
    out = []
    while s.current_player() != TERMINAL and len(out) < len(STOPS):
        if s.current_player() == CHANCE:
            s.apply_legal(s.sample_chance(rng))
            continue
        p = s.active_players()[0]
        if moves in STOPS and len(s.legal_actions(p)) > 1:
            out.append((s.clone(), p))
        s.apply_legal(bots[p].step(s, p), p)
        moves += 1
    return out


def measure(cpu: bool = False) -> dict[str, float]:
    """``{"GAME plain": it/s, "GAME level": it/s}`` (per second of CPU time with ``cpu``)."""
    from citybuilders.bots import ISMCTSBot
    from citybuilders.bots.levels import search_settings

    clock = time.process_time if cpu else time.perf_counter
    out = {}
    for name, options, players in GAMES:
        positions = _positions(name, options, players)
        for kind in ("plain", "level"):
            its = 0
            secs = 0.0
            for state, p in positions:
                if kind == "plain":
                    bot = ISMCTSBot(1, iterations=150, max_seconds=60.0)
                else:
                    bot = ISMCTSBot(1, **search_settings(0.3))
                t = clock()
                bot.step(state, p)
                secs += clock() - t
                its += bot.last_iterations
            out[f"{_label(name, options)} {kind}"] = its / secs
    return out


def moves() -> list[list[float]]:
    """``[move, next rng draw]`` of an iteration-bounded search (no clock) per position and
    setting: plain 60 iterations, the level settings with 60 iterations, 40 iterations cut at 3
    plies with margin backups. Equal lists in two checkouts = the same moves for the seeds."""
    from citybuilders.bots import ISMCTSBot
    from citybuilders.bots.levels import search_settings

    settings = (dict(iterations=60, max_seconds=600.0),
                dict(search_settings(600.0), iterations=60),
                dict(iterations=40, max_seconds=600.0, rollout_depth=3, backup="margin"))
    out = []
    for name, options, players in GAMES:
        for state, p in _positions(name, options, players):
            for kw in settings:
                bot = ISMCTSBot(3, **kw)
                out.append([bot.step(state.clone(), p), bot.rng.random()])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", metavar="OLD_SRC", default=None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cpu", action="store_true",
                    help="iterations per second of the process's CPU time instead of wall time "
                         "(steadier on a loaded machine; the level search's budget stays 0.3 s "
                         "of wall time)")
    ap.add_argument("--parallel", action="store_true",
                    help="with --against: run each round's old and new at the same time (both "
                         "share the machine's load of that moment; use with --cpu on 2+ cores)")
    ap.add_argument("--check-moves", action="store_true",
                    help="with --against: check that both checkouts' searches choose the same "
                         "moves and leave the same rng state (iteration budgets, no clock)")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json-moves", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.json:
        print(json.dumps(measure(a.cpu)))
        return 0
    if a.json_moves:
        print(json.dumps(moves()))
        return 0
    if a.check_moves:
        if a.against is None:
            ap.error("--check-moves needs --against OLD_SRC")
        new_src = str(Path(__file__).resolve().parent.parent / "src")
        got = []
        for src in (a.against, new_src):
            env = dict(os.environ, PYTHONPATH=src)
            got.append(json.loads(subprocess.run([sys.executable, __file__, "--json-moves"],
                                                 env=env, check=True, capture_output=True,
                                                 text=True).stdout))
        differ = [i for i, (x, y) in enumerate(zip(*got)) if x != y]
        print(f"{len(got[1])} searches: " + ("the same moves and rng states in both checkouts"
                                            if not differ and len(got[0]) == len(got[1])
                                            else f"different at {differ}"))
        return 0 if not differ else 1
    print("command: python benchmarks/bench_search.py " + " ".join(sys.argv[1:]), flush=True)
    if a.against is None:
        for k, v in measure(a.cpu).items():
            print(f"  {k}: {v:.0f} iterations/s")
        return 0
    new_src = str(Path(__file__).resolve().parent.parent / "src")
    runs: dict[str, list[list[float]]] = {}
    cmd = [sys.executable, __file__, "--json"] + (["--cpu"] if a.cpu else [])

    def start(src: str) -> subprocess.Popen[str]:
        return subprocess.Popen(cmd, env=dict(os.environ, PYTHONPATH=src),
                                stdout=subprocess.PIPE, text=True)

    def result(proc: subprocess.Popen[str]) -> dict[str, float]:
        out, _ = proc.communicate()
        if proc.returncode:
            raise SystemExit(f"a benchmark run failed (exit {proc.returncode})")
        return json.loads(out)

    for _ in range(a.rounds):
        if a.parallel:
            procs = start(a.against), start(new_src)
            pair = result(procs[0]), result(procs[1])
        else:
            first = result(start(a.against))
            pair = first, result(start(new_src))
        for which, res in enumerate(pair):
            for k, v in res.items():
                runs.setdefault(k, [[], []])[which].append(v)
    for k, (old, new) in runs.items():
        ratios = [n / o for n, o in zip(new, old)]
        print(f"  {k}: old {statistics.median(old):.0f}, new {statistics.median(new):.0f} "
              f"iterations/s; new/old median {statistics.median(ratios):.2f}x "
              f"({', '.join(f'{r:.2f}' for r in ratios)})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
