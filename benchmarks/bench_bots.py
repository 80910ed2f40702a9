"""Bot strength: head-to-head win rates and solo scores, each with its 95 % interval.

Run: ``python benchmarks/bench_bots.py [--games N] [--jobs J] [--only NAME ...]``. Prints a line
per figure with the command that reproduces it; not a test. Head-to-head games alternate the
seats (the measured bot is P1 in even games, P2 in odd ones); a tie counts half. Win rates use
the Wilson score interval, means a normal interval (mean ± 1.96 sd/√n).

Figures (see docs/bots.md for the targets):
* ``kb-LEVEL-vs-greedy``: Kingdom Builder 2p, the level's win rate against greedy;
* ``kbx-LEVEL-vs-greedy``: the same with Crossroads;
* ``LEVEL-vs-below``: each level against the level below it in Kingdom Builder 2p;
* ``sprawl-LEVEL``: Sprawlopolis solo, share of deals that reach the target;
* ``rit-LEVEL``: Roll into Town solo mean score, rank histogram, how often a tavern, the
  cathedral and a river joining opposite edges score, the slowest move;
* ``rb-SHEET-LEVEL``: Roll Builder solo mean score.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from citybuilders.bots import make_bot
from citybuilders.core.registry import load_game
from citybuilders.core.runner import play_out


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (``successes`` may be fractional for ties)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    h = 1.96 * sd / math.sqrt(n) if n else 0.0
    return m, m - h, m + h


class _CPUTimed:
    """Wraps a bot: the CPU seconds (``time.process_time``) of each of its moves that had a
    choice (more than one legal action; forced moves are not counted)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.cpu: list[float] = []

    def step(self, state: Any, player: int) -> int:
        forced = len(state.legal_actions(player)) == 1
        t = time.process_time()
        a = self.bot.step(state, player)
        if not forced:
            self.cpu.append(time.process_time() - t)
        return a


def _duel(args: tuple[str, dict[str, Any], str, str, int]) -> tuple[float, float, float, float,
                                                                     int, float]:
    """One seeded duel: (result of the measured bot, wall seconds, its CPU seconds over its
    moves with a choice, its slowest such move in CPU seconds, how many such moves, its final
    score margin over the other player)."""
    game, options, bot, other, i = args
    seed = 10_000 + i
    me = i % 2
    agents: list[Any] = [None, None]
    timed = _CPUTimed(make_bot(bot, seed))
    agents[me] = timed
    agents[1 - me] = make_bot(other, seed + 1)
    state = load_game(game, **options).new_initial_state(2, seed)
    t = time.perf_counter()
    play_out(state, agents, random.Random(seed))
    sc = [s.total for s in state.scores()]
    return (state.returns()[me], time.perf_counter() - t, sum(timed.cpu),
            max(timed.cpu, default=0.0), len(timed.cpu), float(sc[me] - sc[1 - me]))


def _solo(args: tuple[str, dict[str, Any], str, int]) -> tuple[float, float]:
    game, options, bot, i = args
    seed = 20_000 + i
    state = load_game(game, **options).new_initial_state(1, seed)
    play_out(state, [make_bot(bot, seed)], random.Random(seed))
    won = state.scores()[0].extra.get("won")
    return float(state.scores()[0].total), float(won) if won is not None else math.nan


PROGRESS = False
"""``--progress``: a running line per finished game on stderr (long runs that may be cut)."""


def _map(fn, items, jobs, label="", summary=None):
    out = []

    def done(r):
        out.append(r)
        if PROGRESS and summary is not None:  # solo games: their own running figure
            print(f"  {label} {len(out)}/{len(items)}: {summary(out)}", file=sys.stderr,
                  flush=True)
        elif PROGRESS:
            got = sum(x[0] for x in out)
            lo, hi = wilson(got, len(out))
            print(f"  {label} {len(out)}/{len(items)}: {got / len(out):.3f} "
                  f"(95 % CI {lo:.3f}-{hi:.3f})", file=sys.stderr, flush=True)

    if jobs <= 1:
        for x in items:
            done(fn(x))
        return out
    with ProcessPoolExecutor(jobs) as pool:
        for r in pool.map(fn, items, chunksize=1):
            done(r)
    return out


SEARCHED_MOVES = {"": 37, "crossroads": 42}
"""Moves a Kingdom Builder 2p player searches per game (the rest are forced), base and with
Crossroads: measured over greedy self-play games (for the time estimate)."""

GREEDY_SECONDS = {"": 1.3, "crossroads": 4.7}
"""CPU seconds greedy spends per Kingdom Builder 2p game on an idle machine (the estimate)."""


def estimate_seconds(bot: str, other: str, options: dict[str, Any], games: int,
                     jobs: int) -> float:
    """Rough wall seconds of ``games`` Kingdom Builder 2p games between ``bot`` and ``other``
    on ``jobs`` processes of an idle machine: a search level's seconds a move times the
    searched moves; greedy's time for any other bot."""
    from citybuilders.bots.levels import level_seconds

    key = "crossroads" if options.get("expansions") else ""
    per_game = sum(SEARCHED_MOVES[key] * level_seconds(b) or GREEDY_SECONDS[key]
                   for b in (bot, other))
    return games * per_game / max(1, jobs)


def _load_done(out: str | None, name: str) -> dict[int, tuple[float, ...]]:
    """Games of figure ``name`` already in the JSON-lines file ``out``: index -> (result, wall
    s, CPU s, slowest move CPU s, moves, margin) as :func:`_duel` returns (rows written before the
    CPU fields existed read 0 / NaN there)."""
    return {i: (float(row["result"]), float(row["seconds"]), float(row.get("cpu", 0.0)),
                float(row.get("cpu_max", 0.0)), int(row.get("moves", 0)),
                float(row.get("margin", math.nan)))
            for i, row in _saved_rows(out, name).items() if "result" in row}


def _saved_rows(out: str | None, name: str) -> dict[int, dict[str, Any]]:
    """The rows of figure ``name`` in the JSON-lines file ``out`` (none when ``out`` is None or
    missing), by game index; a line cut by a kill is skipped, so that game is played again."""
    rows: dict[int, dict[str, Any]] = {}
    if out is None:
        return rows
    try:
        with open(out, encoding="utf-8") as f:
            for line in f:
                try:
                    row = json.loads(line)
                except ValueError:
                    continue
                if isinstance(row, dict) and row.get("figure") == name:
                    rows[int(row["game"])] = row
    except FileNotFoundError:
        pass
    return rows


def _play_all(fn, items: list[tuple[Any, ...]], jobs: int, record) -> None:
    """``record(item[-1], fn(item))`` for every item (its last element is the game's index), in
    the order games finish, on ``jobs`` processes."""
    if jobs <= 1:
        for item in items:
            record(item[-1], fn(item))
        return
    with ProcessPoolExecutor(jobs) as pool:
        futures = {pool.submit(fn, item): item[-1] for item in items}
        for fut in as_completed(futures):
            record(futures[fut], fut.result())


def duel(name: str, game: str, options: dict[str, Any], bot: str, other: str, games: int,
         jobs: int, out: str | None = None) -> None:
    """Head-to-head figure ``name``: ``games`` seeded games (game ``i``: seed 10_000 + i, the
    measured bot in seat ``i % 2``), on ``jobs`` processes. With ``out`` (a JSON-lines file)
    each finished game is appended as it ends and a rerun skips the games already there, so a
    cut run resumes; ``--progress`` prints the running figure and the time left."""
    t = time.perf_counter()
    done = _load_done(out, name)
    todo = [i for i in range(games) if i not in done]
    opt = "".join(f" -o {k}={v}" for k, v in options.items())
    if game == "kingdom-builder":
        est = estimate_seconds(bot, other, options, len(todo), jobs)
        span = f"{est / 3600:.1f} h" if est >= 3600 else f"{est / 60:.0f} min"
        print(f"  {name}: {len(done)} games already done, {len(todo)} to play; rough estimate "
              f"{span} on {jobs} process(es) of an idle machine", file=sys.stderr, flush=True)
    res = {i: r for i, r in done.items() if i < games}
    sink = open(out, "a", encoding="utf-8") if out is not None else None

    def record(i: int, r: tuple[float, ...]) -> None:
        res[i] = r
        if sink is not None:
            sink.write(json.dumps({"figure": name, "game": i, "result": r[0],
                                   "seconds": round(r[1], 2), "cpu": round(r[2], 4),
                                   "cpu_max": round(r[3], 4), "moves": r[4], "margin": r[5],
                                   "bot": bot, "other": other}) + "\n")
            sink.flush()
        if PROGRESS:
            got = sum(x[0] for x in res.values())
            lo, hi = wilson(got, len(res))
            spent = time.perf_counter() - t
            played = len(res) - len(done)
            left = spent / played * (games - len(res)) if played else 0.0
            print(f"  {name} {len(res)}/{games}: {got / len(res):.3f} (95 % CI {lo:.3f}-{hi:.3f})"
                  f", about {left / 60:.0f} min left", file=sys.stderr, flush=True)

    try:
        _play_all(_duel, [(game, options, bot, other, i) for i in todo], jobs, record)
    finally:
        if sink is not None:
            sink.close()
    wins = sum(r[0] for r in res.values())
    n = len(res)
    lo, hi = wilson(wins, n)
    print(f"{name}: {bot} vs {other} win rate {wins / max(1, n):.3f} (95 % CI {lo:.3f}-{hi:.3f}) "
          f"over {n} games, {time.perf_counter() - t:.0f} s{cpu_summary(list(res.values()))}   "
          f"[{game}{opt}]", flush=True)


def cpu_summary(rows: list[tuple[float, ...]]) -> str:
    """``"; CPU s/move mean M, max X over K moves; mean margin D"`` over the duel rows that hold
    CPU times (empty when none does)."""
    moves = sum(int(r[4]) for r in rows)
    if not moves:
        return ""
    margins = [r[5] for r in rows if not math.isnan(r[5])]
    tail = f"; mean margin {sum(margins) / len(margins):+.1f}" if margins else ""
    return (f"; CPU s/move of the measured bot mean "
            f"{sum(r[2] for r in rows) / moves:.3f}, max {max(r[3] for r in rows):.3f} "
            f"over {moves} moves{tail}")


def _solo_summary(target: bool):
    """The running figure of solo games for ``--progress``: the share of deals that reach the
    target (with its Wilson interval) or the mean score (normal interval)."""
    def summary(out: list[tuple[float, float]]) -> str:
        if target:
            won = sum(w for _, w in out)
            lo, hi = wilson(won, len(out))
            return f"{won / len(out):.3f} reach the target (95 % CI {lo:.3f}-{hi:.3f})"
        m, lo, hi = mean_interval([s for s, _ in out])
        return f"mean score {m:.1f} (95 % CI {lo:.1f}-{hi:.1f})"
    return summary


def solo(name: str, game: str, options: dict[str, Any], bot: str, games: int, jobs: int,
         target: bool = False) -> None:
    res = _map(_solo, [(game, options, bot, i) for i in range(games)], jobs, name,
               summary=_solo_summary(target))
    if target:
        won = sum(w for _, w in res)
        lo, hi = wilson(won, games)
        print(f"{name}: {bot} reaches the target in {won / games:.3f} of deals "
              f"(95 % CI {lo:.3f}-{hi:.3f}) over {games} games", flush=True)
    else:
        m, lo, hi = mean_interval([s for s, _ in res])
        print(f"{name}: {bot} mean score {m:.1f} (95 % CI {lo:.1f}-{hi:.1f}) over {games} games"
              + "".join(f" [{k}={v}]" for k, v in options.items()), flush=True)


def _rit_game(args: tuple[str, int]) -> tuple[float, str, bool, bool, bool, float, float]:
    """One Roll into Town solo game: (total, solo rank, a tavern scored, the cathedral scored,
    the river joins opposite edges, the slowest move in wall seconds, the slowest move in CPU
    seconds)."""
    bot, i = args
    seed = 20_000 + i
    state = load_game("roll-into-town").new_initial_state(1, seed)
    agent = make_bot(bot, seed)
    slowest = [0.0, 0.0]

    class _Timed:
        def step(self, st: Any, cp: int) -> int:
            t, c = time.perf_counter(), time.process_time()
            a = agent.step(st, cp)
            slowest[0] = max(slowest[0], time.perf_counter() - t)
            slowest[1] = max(slowest[1], time.process_time() - c)
            return a

    play_out(state, [_Timed()], random.Random(seed))
    sc = state.scores()[0]
    river = state.sheets[0].river_connects(state.game.options["river_connect_rule"])
    return (float(sc.total), sc.extra["rank"], sc.parts["taverns"] > 0,
            sc.parts["cathedral"] > 0, river, slowest[0], slowest[1])


def rit_solo(name: str, bot: str, games: int, jobs: int, out: str | None = None) -> None:
    """Roll into Town solo: mean with its 95 % interval, the rank histogram, how often a
    tavern, the cathedral and a river joining opposite edges score, the slowest move. With
    ``out`` (a JSON-lines file) each finished game is appended as it ends (``{"figure",
    "game", "row"}``) and a rerun skips the games already there, as :func:`duel` does."""
    t = time.perf_counter()
    done = {i: tuple(row["row"]) for i, row in _saved_rows(out, name).items() if "row" in row}

    def running(out: list[tuple[float, str, bool, bool, bool, float, float]]) -> str:
        m, lo, hi = mean_interval([r[0] for r in out])
        return (f"mean {m:.1f} (95 % CI {lo:.1f}-{hi:.1f}); tavern {sum(r[2] for r in out)}, "
                f"cathedral {sum(r[3] for r in out)}, river {sum(r[4] for r in out)}; "
                f"slowest move {max(r[5] for r in out):.2f} s "
                f"({max(r[6] for r in out):.2f} s CPU)")

    kept = {i: r for i, r in done.items() if i < games}
    sink = open(out, "a", encoding="utf-8") if out is not None else None

    def record(i: int, r: tuple[Any, ...]) -> None:
        kept[i] = r
        if sink is not None:
            sink.write(json.dumps({"figure": name, "game": i, "row": list(r)}) + "\n")
            sink.flush()
        if PROGRESS:
            print(f"  {name} {len(kept)}/{games}: {running(list(kept.values()))}",
                  file=sys.stderr, flush=True)

    if done:
        print(f"  {name}: {len(kept)} games already done, {games - len(kept)} to play",
              file=sys.stderr, flush=True)
    try:
        _play_all(_rit_game, [(bot, i) for i in range(games) if i not in kept], jobs, record)
    finally:
        if sink is not None:
            sink.close()
    res = [kept[i] for i in sorted(kept)]
    games = len(res)
    m, lo, hi = mean_interval([r[0] for r in res])
    ranks = ("failed mayor", "ordinary mayor", "good mayor", "great mayor", "legendary mayor")
    hist = " / ".join(str(sum(1 for r in res if r[1] == k)) for k in ranks)
    tav, cat, riv = (sum(1 for r in res if r[k]) for k in (2, 3, 4))
    print(f"{name}: {bot} mean score {m:.1f} (95 % CI {lo:.1f}-{hi:.1f}) over {games} games; "
          f"ranks <51/51-60/61-70/71-80/81+ {hist}; tavern scored {tav}, cathedral {cat}, "
          f"river joins edges {riv} of {games}; slowest move {max(r[5] for r in res):.2f} s "
          f"({max(r[6] for r in res):.2f} s CPU), "
          f"{time.perf_counter() - t:.0f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per figure")
    ap.add_argument("--jobs", type=int, default=2, help="parallel processes")
    ap.add_argument("--levels", default="normal,hard,expert",
                    help="levels measured (comma-separated)")
    ap.add_argument("--progress", action="store_true",
                    help="print a running figure after every game (stderr)")
    ap.add_argument("--out", default=None, metavar="FILE.jsonl",
                    help="Kingdom Builder duels and Roll into Town: append each finished game "
                         "to this JSON-lines file; a rerun with the same file skips the games it "
                         "holds (resume)")
    ap.add_argument("--only", nargs="*", default=None,
                    help="figure groups: kb kbx ladder sprawl rit rb")
    a = ap.parse_args(argv)
    global PROGRESS
    PROGRESS = a.progress
    groups = set(a.only or ["kb", "kbx", "ladder", "sprawl", "rit", "rb"])
    levels = [x for x in a.levels.split(",") if x]
    print("command: python benchmarks/bench_bots.py " + " ".join(sys.argv[1:]), flush=True)
    for lv in levels:
        if "kb" in groups and lv != "normal":
            duel(f"kb-{lv}-vs-greedy", "kingdom-builder", {}, lv, "greedy", a.games, a.jobs,
                 a.out)
        if "kbx" in groups and lv != "normal":
            duel(f"kbx-{lv}-vs-greedy", "kingdom-builder", {"expansions": ["crossroads"]}, lv,
                 "greedy", a.games, a.jobs, a.out)
    if "ladder" in groups:
        ladder = ["easy", "normal", "hard", "expert"]
        for below, lv in zip(ladder, ladder[1:]):
            if lv in levels:
                duel(f"{lv}-vs-below", "kingdom-builder", {}, lv, below, a.games, a.jobs,
                     a.out)
    for lv in levels:
        if "sprawl" in groups:
            solo(f"sprawl-{lv}", "sprawlopolis", {}, lv, a.games, a.jobs, target=True)
        if "rit" in groups:
            rit_solo(f"rit-{lv}", lv, a.games, a.jobs, a.out)
        if "rb" in groups:
            for sheet in ("rivermouth", "highcrag", "goldplain"):
                solo(f"rb-{sheet}-{lv}", "roll-builder", {"sheet": sheet}, lv, a.games, a.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
