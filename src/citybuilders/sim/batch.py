"""Batch simulation: many bot games in parallel processes, deterministic per seed.

Game ``i`` of a batch with base seed ``S`` uses seed ``derive_seed(S, i)`` for its public setup,
``make_rng(seed_i, "chance")`` for chance and ``derive_seed(seed_i, "bot", p)`` for seat ``p``'s
bot, so a batch gives the same rows whatever the number of processes.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import signal
import statistics
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from ..bots import make_bot
from ..core.registry import load_game
from ..core.rng import derive_seed, make_rng
from ..core.runner import play_out

__all__ = ["BatchSpec", "play_one", "play_range", "warm_up", "run_batch", "summarize", "iter_csv_rows",
           "csv_cells"]


@dataclass(frozen=True)
class BatchSpec:
    """What to simulate: a game id, its options and one bot name per seat."""

    game: str
    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)


def die_with_parent() -> None:
    """Pool-worker initializer: end this worker when the driver that forked it dies.

    A driver killed with ``kill -9`` cannot shut its pool down, and a forked worker blocked on
    the task queue never sees end-of-file (its sibling holds the queue open), so without this
    the workers outlive the run. On Linux the kernel sends SIGKILL when the parent dies
    (``prctl(PR_SET_PDEATHSIG)``); elsewhere, and as a back-up, a daemon thread checks the
    parent's pid once a second and exits the worker when it changed."""
    parent = os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    if os.getppid() != parent:  # pragma: no cover - the parent died before prctl
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


def play_one(spec: BatchSpec, index: int, base_seed: int, game: Any = None) -> dict[str, Any]:
    """Play game ``index`` of a batch; returns its row (seed, setup, scores, winners, length,
    the game's ``result_info()`` columns, then ``bots``: the bot name of each seat).

    ``game`` is the loaded game of ``spec`` (loaded here when None).
    """
    if game is None:
        game = load_game(spec.game, **spec.options)
    seed = derive_seed(base_seed, index)
    state = game.new_initial_state(len(spec.players), seed)
    bots = [make_bot(name, derive_seed(seed, "bot", p)) for p, name in enumerate(spec.players)]
    play_out(state, bots, make_rng(seed, "chance"))
    scores = state.scores()
    length = sum(1 for actor, _ in state.history() if actor >= 0)
    row: dict[str, Any] = {
        "index": index,
        "seed": seed,
        "setup": game.describe_setup(state),
        "scores": [s.total for s in scores],
        "parts": [dict(s.parts) for s in scores],
        "winners": state.winners(),
        "returns": state.returns(),
        "length": length,
    }
    row.update(state.result_info())
    row["bots"] = list(spec.players)
    return row


def play_range(spec: BatchSpec, base_seed: int, start: int, stop: int) -> list[dict[str, Any]]:
    """Rows of games ``start .. stop - 1`` (one task of an executor; the game is loaded once)."""
    game = load_game(spec.game, **spec.options)
    return [play_one(spec, i, base_seed, game) for i in range(start, stop)]


def warm_up(spec: BatchSpec) -> int:
    """Load ``spec``'s game and bots in a fresh worker process (an executor's start-up task,
    run while the driver plays the first games itself). Returns the process id."""
    import os

    load_game(spec.game, **spec.options)
    for name in set(spec.players):
        make_bot(name)
    return os.getpid()


def _worker(args: tuple[BatchSpec, int, int]) -> dict[str, Any]:
    return play_one(*args)


def run_batch(
    spec: BatchSpec,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """Play ``games`` games (``jobs`` processes); rows sorted by index.

    ``progress(k)`` is called after each finished game with the number done so far.
    Raises the game's OptionError before starting if the options are bad.
    """
    load_game(spec.game, **spec.options).check_num_players(len(spec.players))
    for name in set(spec.players):
        make_bot(name)
    tasks = [(spec, i, seed) for i in range(games)]
    rows: list[dict[str, Any]] = []
    it: Iterable[dict[str, Any]]
    if jobs <= 1 or games <= 1:
        it = (play_one(*t) for t in tasks)
        for k, row in enumerate(it, 1):
            rows.append(row)
            if progress:
                progress(k)
    else:
        ctx = mp.get_context()
        with ctx.Pool(jobs, initializer=die_with_parent) as pool:
            for k, row in enumerate(pool.imap_unordered(_worker, tasks, chunksize=4), 1):
                rows.append(row)
                if progress:
                    progress(k)
    rows.sort(key=lambda r: r["index"])
    return rows


def _stats(values: list[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "median": 0.0, "stdev": 0.0, "min": 0.0, "max": 0.0}
    return {
        "mean": statistics.fmean(values),
        "median": float(statistics.median(values)),
        "stdev": statistics.pstdev(values) if len(values) > 1 else 0.0,
        "min": float(min(values)),
        "max": float(max(values)),
    }


def summarize(rows: list[dict[str, Any]], players: Iterable[str], by: str | None = None) -> dict:
    """Summary of a batch.

    Returns ``{"games", "seats": [{"seat", "bot", mean, median, stdev, min, max, "win_rate"}],
    "mean_length", "won_rate" (if rows have "won"), "ranks" (Counter, if rows have "rank"),
    "groups" (per value of ``by``: games, mean score, won rate)}``. A shared win counts as
    1/k for each of the k tied winners.
    """
    players = list(players)
    n = len(rows)
    seats = []
    for p, bot in enumerate(players):
        vals = [r["scores"][p] for r in rows]
        wins = sum(1 / len(r["winners"]) for r in rows if p in r["winners"])
        seats.append({"seat": p, "bot": bot, **_stats(vals), "win_rate": wins / n if n else 0.0})
    out: dict[str, Any] = {
        "games": n,
        "seats": seats,
        "mean_length": statistics.fmean([r["length"] for r in rows]) if rows else 0.0,
    }
    if rows and "won" in rows[0]:
        out["won_rate"] = sum(1 for r in rows if r["won"]) / n
    if rows and "rank" in rows[0]:
        out["ranks"] = dict(Counter(r["rank"] for r in rows))
    if by:
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            groups[str(r.get(by, r.get("setup", "")))].append(r)
        out["groups"] = {
            key: {
                "games": len(g),
                "mean_score": statistics.fmean([statistics.fmean(r["scores"]) for r in g]),
                **(
                    {"won_rate": sum(1 for r in g if r["won"]) / len(g)}
                    if "won" in g[0]
                    else {}
                ),
            }
            for key, g in sorted(groups.items())
        }
    return out


def iter_csv_rows(rows: list[dict[str, Any]]) -> Iterator[list[str]]:
    """CSV rows: a header then one line per game (lists of numbers joined with ';', nested
    values such as the per-player score breakdowns as JSON)."""
    keys: list[str] = []
    for r in rows:
        for k in r:
            if k not in keys:
                keys.append(k)
    yield keys
    for r in rows:
        yield csv_cells(r, keys)


def csv_cells(row: dict[str, Any], keys: list[str]) -> list[str]:
    """One CSV line of ``row`` over the columns ``keys`` (missing values are empty)."""
    line = []
    for k in keys:
        v = row.get(k, "")
        if isinstance(v, list) and all(isinstance(x, (int, float, str)) for x in v):
            v = ";".join(str(x) for x in v)
        elif isinstance(v, (list, dict)):
            v = json.dumps(v)
        line.append(str(v))
    return line
