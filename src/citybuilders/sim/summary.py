"""Streaming summary of a simulation: the tables of ``citybuilders simulate`` in bounded memory.

:class:`StreamSummary` takes rows one at a time and keeps only counters (a histogram of each
seat's scores, sums, win shares, rank and group counts), so a million games need no more memory
than ten. Its state is JSON-able (``to_json``/``from_json``) and is saved in the run's
progress file, so a resumed run still summarizes every game. ``result()`` has the shape of
:func:`citybuilders.sim.batch.summarize`.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Iterable

__all__ = ["StreamSummary"]


def _hist_stats(hist: Counter) -> dict[str, float]:
    n = sum(hist.values())
    if not n:
        return {"mean": 0.0, "median": 0.0, "stdev": 0.0, "min": 0.0, "max": 0.0}
    mean = math.fsum(v * c for v, c in hist.items()) / n
    var = math.fsum(c * (v - mean) ** 2 for v, c in hist.items()) / n
    values = sorted(hist)
    # median as statistics.median: middle value, or the mean of the two middle ones
    lo_pos, hi_pos = (n - 1) // 2, n // 2
    seen = 0
    lo = hi = None
    for v in values:
        seen += hist[v]
        if lo is None and seen > lo_pos:
            lo = v
        if seen > hi_pos:
            hi = v
            break
    return {"mean": mean, "median": float((lo + hi) / 2), "stdev": math.sqrt(var),
            "min": float(values[0]), "max": float(values[-1])}


class StreamSummary:
    """Incremental summary of rows of one batch run (``players``: one bot name per seat).

    ``by``: a row field to group by (as ``simulate --by``), or None.
    """

    def __init__(self, players: Iterable[str], by: str | None = None) -> None:
        self.players = list(players)
        self.by = by
        self.games = 0
        self.hist: list[Counter] = [Counter() for _ in self.players]
        self.wins = [0.0 for _ in self.players]
        self.length_sum = 0
        self.won: int | None = None
        self.ranks: Counter | None = None
        self.groups: dict[str, list[float]] = {}  # key -> [games, sum of mean scores, won]

    def add(self, row: dict[str, Any]) -> None:
        """Count one game row (as produced by :func:`citybuilders.sim.batch.play_one`)."""
        self.games += 1
        scores = row["scores"]
        for p, h in enumerate(self.hist):
            h[scores[p]] += 1
        winners = row["winners"]
        for p in winners:
            self.wins[p] += 1 / len(winners)
        self.length_sum += row["length"]
        if "won" in row:
            self.won = (self.won or 0) + (1 if row["won"] else 0)
        if "rank" in row:
            if self.ranks is None:
                self.ranks = Counter()
            self.ranks[row["rank"]] += 1
        if self.by:
            key = str(row.get(self.by, row.get("setup", "")))
            g = self.groups.setdefault(key, [0, 0.0, 0])
            g[0] += 1
            g[1] += sum(scores) / len(scores)
            if "won" in row:
                g[2] += 1 if row["won"] else 0

    def result(self) -> dict[str, Any]:
        """The summary dict (``games``, ``seats``, ``mean_length``, optional ``won_rate``,
        ``ranks``, ``groups``), as :func:`citybuilders.sim.batch.summarize`."""
        n = self.games
        seats = [{"seat": p, "bot": bot, **_hist_stats(self.hist[p]),
                  "win_rate": self.wins[p] / n if n else 0.0}
                 for p, bot in enumerate(self.players)]
        out: dict[str, Any] = {"games": n, "seats": seats,
                               "mean_length": self.length_sum / n if n else 0.0}
        if self.won is not None and n:
            out["won_rate"] = self.won / n
        if self.ranks is not None:
            out["ranks"] = dict(self.ranks)
        if self.by:
            out["groups"] = {
                key: {"games": int(g[0]), "mean_score": g[1] / g[0],
                      **({"won_rate": g[2] / g[0]} if self.won is not None else {})}
                for key, g in sorted(self.groups.items())
            }
        return out

    def score_histograms(self) -> list[dict[float, int]]:
        """Per seat, ``{score: games}`` (for plots)."""
        return [dict(h) for h in self.hist]

    # ------------------------------------------------------------------ persistence
    def to_json(self) -> dict[str, Any]:
        """JSON-able state (score histograms as ``[[score, count], ...]``)."""
        return {
            "players": self.players, "by": self.by, "games": self.games,
            "hist": [sorted(h.items()) for h in self.hist], "wins": self.wins,
            "length_sum": self.length_sum, "won": self.won,
            "ranks": sorted(self.ranks.items()) if self.ranks is not None else None,
            "groups": self.groups,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "StreamSummary":
        """Inverse of :meth:`to_json`; raises KeyError/TypeError/ValueError on a malformed dict."""
        s = cls(data["players"], data["by"])
        s.games = int(data["games"])
        s.hist = [Counter({v: int(c) for v, c in h}) for h in data["hist"]]
        s.wins = [float(w) for w in data["wins"]]
        s.length_sum = int(data["length_sum"])
        s.won = data["won"]
        s.ranks = Counter({k: int(c) for k, c in data["ranks"]}) if data["ranks"] is not None else None
        s.groups = {k: list(v) for k, v in data["groups"].items()}
        if len(s.hist) != len(s.players) or len(s.wins) != len(s.players):
            raise ValueError("summary: one histogram and one win count per seat")
        return s
