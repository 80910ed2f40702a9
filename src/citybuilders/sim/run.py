"""Streaming, resumable, shardable batch runs (the engine of ``citybuilders simulate``).

* :func:`iter_rows` yields the rows of games ``start .. stop - 1`` in index order whatever the
  executor: it first plays a few games in the driver to measure the time of one game (those rows
  are the first output), then sends batches sized to ``TARGET_BATCH_SECONDS`` of work to the
  executor and reorders what comes back.
* :func:`run_to_file` writes rows to ``--out`` (.csv, .jsonl, or .parquet with pyarrow) as they
  arrive and keeps a :class:`~citybuilders.sim.summary.StreamSummary`; nothing holds all rows.
  Beside the output it keeps ``OUT.progress.json``: the run's fingerprint, the completed index
  range, the byte length of the output covering it and the summary so far, written atomically
  (temp file + fsync + rename) after the rows are flushed and fsynced. ``resume=True`` truncates
  the output to the recorded length (dropping partial trailing rows of a killed run) and goes on
  from the next index; a different command (game, options, players, seed, games, shard, format)
  is refused.
* :func:`shard_range` gives shard ``I/N`` (1-based) as one contiguous index range; the shards'
  outputs concatenated (CSV: only shard 1 writes the header) equal the unsharded output.
"""

from __future__ import annotations

import csv
import io
import json
import os
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from .batch import BatchSpec, csv_cells, play_one
from ..core.errors import short
from .executor import Executor
from .summary import StreamSummary
from ..core.i18n import N_

__all__ = ["RunError", "iter_rows", "shard_range", "parse_shard", "run_to_file", "progress_path",
           "batch_ranges", "check_group_field", "group_fields", "TARGET_BATCH_SECONDS",
           "OUT_SUFFIXES"]

TARGET_BATCH_SECONDS = 0.5
"""Work per task (seconds of play, from the driver's measurement): far above Ray's ~1 ms cost."""
MEASURE_SECONDS = 0.2
"""The driver plays games itself for about this long to measure the time of one game."""
MAX_WARM_SECONDS = 60.0
"""The driver plays games itself until a worker is up (Ray starts a job's workers on demand),
at most this long."""
MAX_BATCH = 2000
"""Largest batch (bounds the rows of one finished batch held before writing)."""
CHECKPOINT_SECONDS = 1.0
"""At most this long between two checkpoints (flush + fsync + progress file)."""
OUT_SUFFIXES = (".csv", ".jsonl", ".parquet")
ROW_FORMAT = 1
"""Version of the row columns (part of a run's fingerprint)."""


class RunError(Exception):
    """A run cannot start or resume (one-line message naming the problem)."""


def progress_path(out: Path) -> Path:
    """``OUT.progress.json`` beside the output file."""
    return out.with_name(out.name + ".progress.json")


def parse_shard(text: str) -> tuple[int, int]:
    """``"I/N"`` (1 <= I <= N) -> ``(I, N)``; raises RunError otherwise."""
    a, sep, b = text.partition("/")
    if not sep or not a.strip().isdigit() or not b.strip().isdigit():
        raise RunError(N_("--shard {text!r}: expected I/N, e.g. 1/4", text=text))
    i, n = int(a), int(b)
    if not 1 <= i <= n:
        raise RunError(N_("--shard {text!r}: need 1 <= I <= N", text=text))
    return i, n


def shard_range(games: int, shard: tuple[int, int] | None) -> tuple[int, int]:
    """Index range ``[start, stop)`` of shard ``(I, N)`` of ``games`` games (all when None)."""
    if shard is None:
        return 0, games
    i, n = shard
    return games * (i - 1) // n, games * i // n


def batch_ranges(start: int, stop: int, size: int) -> Iterator[tuple[int, int]]:
    """Contiguous ``[a, b)`` ranges of at most ``size`` covering ``[start, stop)``."""
    for a in range(start, stop, size):
        yield a, min(stop, a + size)


def iter_rows(
    spec: BatchSpec,
    seed: int,
    start: int,
    stop: int,
    executor: Executor,
    batch_size: int | None = None,
) -> Iterator[dict[str, Any]]:
    """Rows of games ``start .. stop - 1`` in index order.

    With ``batch_size`` None the driver first plays games for ~MEASURE_SECONDS (yielding them),
    and on until the executor has a worker up (``executor.ready()``, at most MAX_WARM_SECONDS:
    Ray's start-up is spent playing, not waiting), and sizes batches to ~TARGET_BATCH_SECONDS, at
    most MAX_BATCH and small enough that every worker gets about 4 batches. Out-of-order batches wait in a buffer of at most
    ``2 * workers + 1`` batches.
    """
    nxt = start
    warm = getattr(executor, "warm", None)
    if warm is not None and stop > start:
        warm(spec)
    ready = getattr(executor, "ready", lambda: True)
    if batch_size is None:
        from ..core.registry import load_game

        game = load_game(spec.game, **spec.options)
        t0 = time.perf_counter()
        check = MEASURE_SECONDS
        while nxt < stop:
            elapsed = time.perf_counter() - t0
            if nxt - start >= 2 and elapsed >= check:
                if elapsed >= MAX_WARM_SECONDS or ready():
                    break
                check = elapsed + 0.05  # ask the executor at most 20 times a second
            yield play_one(spec, nxt, seed, game)
            nxt += 1
        per_game = (time.perf_counter() - t0) / max(1, nxt - start)
        remaining = stop - nxt
        size = max(1, min(MAX_BATCH, round(TARGET_BATCH_SECONDS / max(per_game, 1e-6))))
        size = max(1, min(size, -(-remaining // (4 * executor.workers))))
    else:
        size = max(1, batch_size)
    if nxt >= stop:
        return
    waiting: dict[int, list[dict[str, Any]]] = {}
    for first, rows in executor.run(spec, seed, batch_ranges(nxt, stop, size)):
        waiting[first] = rows
        while nxt in waiting:
            batch = waiting.pop(nxt)
            nxt += len(batch)
            yield from batch


# ---------------------------------------------------------------------- output sinks
class _Sink:
    """Appends rows to the output file; ``sync()`` flushes + fsyncs and returns its length."""

    def __init__(self, path: Path, offset: int, columns: list[str] | None, header: bool) -> None:
        self.path = path
        self.columns = columns
        self.header = header
        self.fh = path.open("r+b" if offset else "wb")
        self.fh.truncate(offset)
        self.fh.seek(offset)

    def write(self, row: dict[str, Any]) -> None:
        raise NotImplementedError

    def sync(self) -> int:
        self.fh.flush()
        os.fsync(self.fh.fileno())
        return self.fh.tell()

    def close(self) -> None:
        self.fh.close()


class _JsonlSink(_Sink):
    def write(self, row: dict[str, Any]) -> None:
        self.fh.write((json.dumps(row) + "\n").encode("utf-8"))


class _CsvSink(_Sink):
    def write(self, row: dict[str, Any]) -> None:
        buf = io.StringIO()
        w = csv.writer(buf)
        if self.columns is None:
            self.columns = list(row)
            if self.header:
                w.writerow(self.columns)
        w.writerow(csv_cells(row, self.columns))
        self.fh.write(buf.getvalue().encode("utf-8"))


class _ParquetSink:
    """Row groups of up to ``GROUP`` rows; nested values (lists, dicts) as JSON text."""

    GROUP = 5000

    def __init__(self, path: Path) -> None:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise RunError(N_("--out .parquet needs pyarrow: pip install 'citybuilders[parquet]'")) from None
        self.path = path
        self.rows: list[dict[str, Any]] = []
        self.writer: Any = None
        self.columns: list[str] | None = None

    def write(self, row: dict[str, Any]) -> None:
        if self.columns is None:
            self.columns = list(row)
        self.rows.append({k: json.dumps(v) if isinstance(v, (list, dict)) else v
                          for k, v in row.items()})
        if len(self.rows) >= self.GROUP:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self.rows:
            return
        if self.writer is None:
            table = pa.Table.from_pylist(self.rows)
            self.writer = pq.ParquetWriter(str(self.path), table.schema)
        else:
            table = pa.Table.from_pylist(self.rows, schema=self.writer.schema)
        self.writer.write_table(table)
        self.rows = []

    def sync(self) -> int:
        return 0

    def close(self) -> None:
        self._flush()
        if self.writer is not None:
            self.writer.close()


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(str(path), os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_atomic(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        json.dump(data, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def fingerprint(spec: BatchSpec, seed: int, games: int, shard: tuple[int, int] | None,
                out: Path) -> dict[str, Any]:
    """What identifies a run for ``--resume`` (executor, jobs and batch size are not part of it)."""
    return {
        "row_format": ROW_FORMAT,
        "game": spec.game,
        "players": list(spec.players),
        "options": json.loads(json.dumps(spec.options, sort_keys=True, default=str)),
        "seed": seed,
        "games": games,
        "shard": list(shard) if shard else None,
        "format": out.suffix.lower(),
    }


def _load_progress(path: Path, out: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        lo, hi = data["done"][0]
        int(data["bytes"])
        StreamSummary.from_json(data["summary"])
        if not isinstance(data["run"], dict) or not int(lo) <= int(hi):
            raise ValueError
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        raise RunError(N_("{path}: not a valid progress file; delete it and {out} to start over",
                          path=path, out=out)) from None
    return data


GROUP_FIELDS = ("setup", "length")
"""Row fields every game has that ``--by`` may group on (a game adds its ``result_info()``
columns: Sprawlopolis ``won``, Roll Builder ``sheet``...)."""


def group_fields(row: dict[str, Any]) -> list[str]:
    """The fields of ``row`` that results may be grouped by: one value per game (no lists,
    no objects), not the game's index or seed."""
    return sorted(k for k, v in row.items()
                  if k not in ("index", "seed") and not isinstance(v, (list, dict)))


def check_group_field(spec: BatchSpec, by: str | None, seed: int = 0) -> None:
    """Refuse a ``--by`` field the rows do not have (RunError listing the allowed ones), before
    the run: a game's own columns are learnt from one game played here (deterministic, nothing
    written)."""
    if by is None or by in GROUP_FIELDS:
        return
    fields = group_fields(play_one(spec, 0, seed))
    if by not in fields:
        raise RunError(N_("--by {by}: not a field of the rows; allowed: {allowed}",
                          by=short(by), allowed=", ".join(fields)))


def _unfinished(prog: Path, out: Path) -> dict[str, Any] | None:
    """The progress of an interrupted run that ``out`` holds (its progress file says it is
    not complete), or None (no progress file, or a complete run)."""
    if not out.exists() or not prog.exists():
        return None
    data = _load_progress(prog, out)
    return None if data.get("complete") else data


def run_to_file(
    spec: BatchSpec,
    games: int,
    seed: int,
    executor: Executor,
    out: Path | None,
    *,
    by: str | None = None,
    resume: bool = False,
    overwrite: bool = False,
    shard: tuple[int, int] | None = None,
    batch_size: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> StreamSummary:
    """Run (or resume) games of shard ``shard`` into ``out``; returns the summary of all of them.

    ``progress(done, total)`` is called as rows are written (``total`` = games of this shard;
    a resumed run starts at the games already done). Nothing saved is lost: without
    ``resume`` or ``overwrite``, an ``out`` whose progress file says its run is unfinished is
    refused (its rows would be overwritten). Raises RunError for that, a bad resume (changed
    command, corrupt progress file, output without progress file), more shards than games
    (``--shard 1/N`` with N > games would leave shards empty) or a missing pyarrow.
    """
    if shard is not None and shard[1] > games:
        raise RunError(N_("--shard {shard}/{shard2}: {games} games cannot be split into "
                          "{shard2} shards (some shards would get no game); allowed: N from 1 "
                          "to {games}", shard=shard[0], shard2=shard[1], games=games))
    start, stop = shard_range(games, shard)
    summary = StreamSummary(spec.players, by)
    sink: Any = None
    nxt = start
    columns: list[str] | None = None
    prog = progress_path(out) if out is not None else None
    fp = fingerprint(spec, seed, games, shard, out) if out is not None else None
    if resume and out is None:
        raise RunError(N_("--resume needs --out (the progress is kept beside the output)"))
    if out is not None and out.suffix.lower() == ".parquet":
        if resume:
            raise RunError(N_("--resume works with .csv and .jsonl outputs, not .parquet"))
        out.parent.mkdir(parents=True, exist_ok=True)
        sink = _ParquetSink(out)
    elif out is not None:
        assert prog is not None and fp is not None
        offset = 0
        if resume and prog.exists():
            data = _load_progress(prog, out)
            if data["run"] != fp:
                diff = [k for k in fp if data["run"].get(k) != fp[k]]
                raise RunError(N_("--resume: {out} was made by a different command ({allowed} "
                                  "differ); run the original command, or drop --resume to "
                                  "start over", out=out, allowed=', '.join(diff)))
            offset = int(data["bytes"])
            if not out.exists() or out.stat().st_size < offset:
                raise RunError(N_("--resume: {out} is shorter than its progress file records; "
                                  "drop --resume to start over", out=out))
            nxt = int(data["done"][0][1])
            columns = data.get("columns")
            summary = StreamSummary.from_json(data["summary"])
        elif resume and out.exists() and out.stat().st_size > 0:
            raise RunError(N_("--resume: {out} exists but has no progress file {name}; drop "
                              "--resume to overwrite it", out=out, name=prog.name))
        elif not resume and not overwrite:
            left = _unfinished(prog, out)
            if left is not None:
                done = int(left["done"][0][1]) - int(left["done"][0][0])
                raise RunError(N_("--out {out}: holds an interrupted run ({done} games done, "
                                  "{name}); add --resume to complete it, or --overwrite to "
                                  "start again", out=out, done=done, name=prog.name))
        out.parent.mkdir(parents=True, exist_ok=True)
        cls = _CsvSink if out.suffix.lower() == ".csv" else _JsonlSink
        sink = cls(out, offset, columns, header=start == 0)

    def checkpoint(complete: bool) -> None:
        if prog is None or isinstance(sink, _ParquetSink):
            return
        length = sink.sync()
        _write_atomic(prog, {"run": fp, "done": [[start, nxt]], "bytes": length,
                             "columns": getattr(sink, "columns", None),
                             "summary": summary.to_json(), "complete": complete})

    total = stop - start
    if progress:
        progress(nxt - start, total)
    last = time.monotonic()
    try:
        if sink is not None and nxt == start:
            checkpoint(False)
        for row in iter_rows(spec, seed, nxt, stop, executor, batch_size):
            if sink is not None:
                sink.write(row)
            summary.add(row)
            nxt += 1
            now = time.monotonic()
            if now - last >= CHECKPOINT_SECONDS:
                checkpoint(False)
                last = now
                if progress:
                    progress(nxt - start, total)
            elif progress and (nxt - start) % 16 == 0:
                progress(nxt - start, total)
        if progress:
            progress(nxt - start, total)
    finally:
        if sink is not None:
            try:
                checkpoint(nxt == stop)
            finally:
                sink.close()
    return summary
