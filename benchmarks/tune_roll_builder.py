"""Paired tuning runs of a Roll Builder level (issue 16's planner work).

Plays solo games of ``--level`` (default ``expert``) on one sheet, seeds ``--seeds A B``
(game ``i`` has seed ``i``, dice from ``random.Random(seed)`` as in ``bench_bots.py``, whose
games are seeds 20000 + i), with module constants of ``games/roll_builder/strategy.py`` set by
``--set NAME=LITERAL`` (a Python literal, e.g. ``--set 'BUILDING_WEIGHT={"highcrag": 0.25}'``),
and writes ``OUT.json`` (per game: seed, score, score parts, CPU seconds, slowest move with a choice). Prints
the mean with its 95 % interval and the mean parts. ``--pair A.json B.json`` prints B - A over
the seeds both hold, with its 95 % interval (paired: the same dice in both runs).

    python benchmarks/tune_roll_builder.py base.json --sheet highcrag --seeds 1000 1080
    python benchmarks/tune_roll_builder.py new.json --seeds 1000 1080 --set ROLLOUT_SAMPLES=0
    python benchmarks/tune_roll_builder.py --pair base.json new.json
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench_bots import _CPUTimed, mean_interval


def _apply(sets: list[str]) -> None:
    from citybuilders.games.roll_builder import strategy

    for item in sets:
        name, _, text = item.partition("=")
        if not hasattr(strategy, name):
            raise SystemExit(f"--set: roll_builder.strategy has no constant {name!r}")
        setattr(strategy, name, ast.literal_eval(text))


def _one(args: tuple[str, int, list[str], str]) -> tuple[int, float, dict[str, float], float, float]:
    sheet, seed, sets, level = args
    _apply(sets)
    from citybuilders.bots import make_bot
    from citybuilders.core.registry import load_game
    from citybuilders.core.runner import play_out

    state = load_game("roll-builder", sheet=sheet).new_initial_state(1, seed)
    bot = _CPUTimed(make_bot(level, seed))
    start = time.process_time()
    play_out(state, [bot], random.Random(seed))
    parts = {k: float(v) for k, v in state.player_parts(0).items()}
    return (seed, float(state.scores()[0].total), parts, time.process_time() - start,
            max(bot.cpu, default=0.0))


def _scores(path: str) -> dict[int, float]:
    """Seed -> score of a file this script wrote; SystemExit naming the file when it cannot be
    read or is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            return {int(g[0]): float(g[1]) for g in json.load(f)["games"]}
    except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
        raise SystemExit(f"--pair: {path}: not a games file of this script ({e})") from None


def _pair(a_path: str, b_path: str) -> None:
    a, b = _scores(a_path), _scores(b_path)
    seeds = sorted(set(a) & set(b))
    if not seeds:
        raise SystemExit("--pair: the two files share no seed")
    m, _, hi = mean_interval([b[s] - a[s] for s in seeds])
    print(f"{b_path} - {a_path}: {m:+.2f} ± {hi - m:.2f} over {len(seeds)} games "
          f"({sum(a[s] for s in seeds) / len(seeds):.2f} -> {sum(b[s] for s in seeds) / len(seeds):.2f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", help="games written here (JSON)")
    ap.add_argument("--seeds", nargs=2, type=int, default=[1000, 1040], metavar=("FIRST", "END"))
    ap.add_argument("--sheet", default="highcrag")
    ap.add_argument("--level", default="expert")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=LITERAL")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--pair", nargs=2, metavar=("A.json", "B.json"))
    a = ap.parse_args()
    if a.pair:
        _pair(*a.pair)
        return
    if not a.out:
        ap.error("OUT.json is required (or --pair A B)")
    _apply(a.set)  # fail early on an unknown name
    items = [(a.sheet, s, a.set, a.level) for s in range(*a.seeds)]
    if a.jobs > 1:
        with ProcessPoolExecutor(a.jobs) as ex:
            games = list(ex.map(_one, items))
    else:
        games = [_one(x) for x in items]
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump({"sheet": a.sheet, "level": a.level, "sets": a.set, "games": games}, f)
    m, _, hi = mean_interval([g[1] for g in games])
    h = hi - m
    parts: dict[str, Any] = {}
    for g in games:
        for k, v in g[2].items():
            parts[k] = parts.get(k, 0.0) + v / len(games)
    print(f"{a.out}: mean {m:.2f} ± {h:.2f} over {len(games)} games; CPU {sum(g[3] for g in games) / len(games):.1f} s a game, "
          f"slowest move {max(g[4] for g in games):.2f} s; " + " ".join(f"{k} {v:.2f}" for k, v in parts.items()))


if __name__ == "__main__":
    main()
