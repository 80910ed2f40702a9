"""HTML report of simulation rows (``citybuilders report ROWS --out report.html``).

The rows (``simulate --out``: .jsonl, .csv or .parquet) are read one at a time into
:class:`ReportData` (counters and sums only), so the report of a million games needs little
memory. The page is one self-contained HTML file (Jinja2 with autoescape; matplotlib plots as
inline SVG, no script, no external resource) with:

* score distributions per seat and bot;
* win share by turn position (position 1 = the start player; Kingdom Builder's start player is
  read from ``setup``, other games start with seat 1) with Wilson intervals, a chi-square test
  of "every position wins equally often" and a binomial test of the start player's share;
* per Kingdom Builder card, board section (the setup) and Crossroads task, Sprawlopolis
  condition and Roll Builder sheet: games, mean score and a rate (target reached when rows have
  ``won``; else the win share of the first seat's bot when bots differ; else the start player's
  win share), each tested against the games without that level (Welch z for the mean,
  two-proportion z for the rate); the same for each pair of cards/conditions, with heat maps
  of both (significant cells starred);
* solo rank histogram; game length (mean, percentiles, distribution);
* every comparison in one table (claim, games on each side, p, Holm p, mark).

Every comparison's p-value is adjusted with Holm's method over all comparisons of the report
and marked significant when the adjusted value is below ``ALPHA``; each line shows the number of
games it rests on.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

from .stats import Z95, binom_test, chi_square_gof, holm, mean_diff_test, two_proportion_test, wilson
from ..core.i18n import N_

__all__ = ["ReportError", "ReportData", "read_rows", "write_report", "build_report", "ALPHA"]

ALPHA = 0.05
"""Family-wise error rate for the significance marks (Holm over every comparison)."""
MAX_LINE = 1_000_000
"""Longest row line accepted (characters)."""


class ReportError(Exception):
    """Unreadable or malformed rows (one line naming the file, line and field)."""


# ---------------------------------------------------------------------- reading rows
def _num(text: str, where: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise ReportError(N_("{where}: expected a number, got {text!r}",
                             where=where, text=text[:40])) from None
    if not math.isfinite(v):
        raise ReportError(N_("{where}: expected a finite number", where=where))
    return int(v) if v.is_integer() else v


def _csv_list(text: str, where: str) -> list[Any]:
    text = text.strip()
    if not text:
        return []
    if text.startswith("["):
        try:
            return list(json.loads(text))
        except (ValueError, TypeError):
            raise ReportError(N_("{where}: not a list", where=where)) from None
    return [_num(x, where) for x in text.split(";")]


def _normalize(row: Any, where: str) -> dict[str, Any]:
    """Check the fields the report uses; returns the row with typed values."""
    if not isinstance(row, dict):
        raise ReportError(N_("{where}: a row must be an object", where=where))
    scores = row.get("scores")
    if not isinstance(scores, list) or not scores or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
            for x in scores):
        raise ReportError(N_("{where}: field 'scores' must be a non-empty list of numbers",
                             where=where))
    winners = row.get("winners", [])
    if not isinstance(winners, list) or not all(
            isinstance(w, int) and not isinstance(w, bool) and 0 <= w < len(scores)
            for w in winners):
        raise ReportError(N_("{where}: field 'winners' must list seat numbers 0..{count}",
                             where=where, count=len(scores) - 1))
    length = row.get("length", 0)
    if not isinstance(length, (int, float)) or isinstance(length, bool) or length < 0:
        raise ReportError(N_("{where}: field 'length' must be a number >= 0", where=where))
    bots = row.get("bots")
    if bots is not None and (not isinstance(bots, list) or len(bots) != len(scores)):
        raise ReportError(N_("{where}: field 'bots' must name one bot per seat", where=where))
    for key in ("setup", "conditions", "sheet", "rank"):
        if key in row and not isinstance(row[key], (str, int, float)):
            raise ReportError(N_("{where}: field {key!r} must be text", where=where, key=key))
    return row


def _read_jsonl(path: Path, fh: Any) -> Iterator[dict[str, Any]]:
    for n, line in enumerate(fh, 1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            raise ReportError(N_("{path}: line {n}: longer than {MAX_LINE} characters",
                                 path=path, n=n, MAX_LINE=MAX_LINE))
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            raise ReportError(N_("{path}: line {n}: not valid JSON", path=path, n=n)) from None
        yield _normalize(row, f"{path}: line {n}")


def _read_csv(path: Path, fh: Any) -> Iterator[dict[str, Any]]:
    csv.field_size_limit(MAX_LINE)
    reader = csv.DictReader(fh)
    if not reader.fieldnames or "scores" not in reader.fieldnames:
        raise ReportError(N_("{path}: not a rows file (no 'scores' column in the header)",
                             path=path))
    for n, raw in enumerate(reader, 2):
        where = f"{path}: line {n}"
        row: dict[str, Any] = {k: v for k, v in raw.items() if k is not None}
        row["scores"] = _csv_list(row.get("scores") or "", f"{where}: scores")
        row["winners"] = [int(x) if isinstance(x, (int, float)) else x
                          for x in _csv_list(row.get("winners") or "", f"{where}: winners")]
        row["length"] = _num(row.get("length") or "0", f"{where}: length")
        if "bots" in row:
            row["bots"] = [b for b in (row["bots"] or "").split(";")] if row["bots"] else None
            if row["bots"] is None:
                del row["bots"]
        if "won" in row:
            row["won"] = row["won"] == "True"
        if "parts" in row and row["parts"]:
            try:
                row["parts"] = json.loads(row["parts"])
            except ValueError:
                raise ReportError(N_("{where}: field 'parts' is not JSON", where=where)) from None
        yield _normalize(row, where)


def _read_parquet(path: Path) -> Iterator[dict[str, Any]]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ReportError(N_("{path}: reading .parquet needs pyarrow: pip install "
                             "'citybuilders[parquet]'", path=path)) from None
    try:
        pf = pq.ParquetFile(str(path))
    except Exception as exc:  # pyarrow raises its own error types
        raise ReportError(N_("{path}: not a Parquet file ({name__})",
                             path=path, name__=type(exc).__name__)) from None
    n = 0
    for batch in pf.iter_batches(batch_size=2000):
        for raw in batch.to_pylist():
            n += 1
            row = dict(raw)
            for k in ("scores", "winners", "parts", "returns", "bots"):
                if isinstance(row.get(k), str):
                    try:
                        row[k] = json.loads(row[k])
                    except ValueError:
                        raise ReportError(N_("{path}: row {n}: field {k!r} is not JSON",
                                             path=path, n=n, k=k)) from None
            yield _normalize(row, f"{path}: row {n}")


def read_rows(path: Path) -> Iterator[dict[str, Any]]:
    """Rows of ``path`` one at a time (.jsonl, .csv, .parquet); raises ReportError on bad input."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".jsonl", ".csv", ".parquet"):
        raise ReportError(N_("{path}: use a .jsonl, .csv or .parquet rows file", path=path))
    if not path.is_file():
        raise ReportError(N_("{path}: no such file", path=path))
    if suffix == ".parquet":
        yield from _read_parquet(path)
        return
    try:
        with path.open("r", encoding="utf-8-sig", newline="") as fh:
            if suffix == ".jsonl":
                yield from _read_jsonl(path, fh)
            else:
                yield from _read_csv(path, fh)
    except UnicodeDecodeError:
        raise ReportError(N_("{path}: not a UTF-8 text file", path=path)) from None
    except csv.Error as exc:
        raise ReportError(N_("{path}: not valid CSV ({exc})", path=path, exc=exc)) from None


# ---------------------------------------------------------------------- accumulating
_COND = re.compile(r"^(\d+) (.+)$")


def _factors(row: dict[str, Any]) -> tuple[dict[str, list[str]], int]:
    """Per family, the levels of this game (e.g. ``{"card": [...], "section": [...]}``) and the
    start player's seat."""
    out: dict[str, list[str]] = {}
    start = 0
    setup = str(row.get("setup", ""))
    if "conditions" in row:
        names = {}
        for part in (row.get("parts") or [{}])[:1]:
            if isinstance(part, dict):
                for key in part:
                    m = _COND.match(str(key))
                    if m:
                        names[m.group(1)] = key
        nums = [x for x in str(row["conditions"]).split("-") if x]
        out["condition"] = [str(names.get(x, f"condition {x}")) for x in nums]
    elif "sheet" in row:
        out["sheet"] = [str(row["sheet"])]
    elif " | " in setup and "start P" in setup:
        pieces = setup.split(" | ")
        out["section"] = [s.rsplit(":", 1)[0] for s in pieces[0].split()]
        out["card"] = pieces[1].split()
        for piece in pieces[2:]:
            if piece.startswith("start P") and piece[7:].isdigit():
                start = int(piece[7:]) - 1
            elif piece.startswith("tasks "):
                out["task"] = piece.split()[1:]
    return out, start


PAIR_FAMILIES = ("card", "condition")
"""Families whose pairs get a heat map."""


class _Acc:
    """n, sum, sum of squares of a value and a count of 'successes' (the rate)."""

    __slots__ = ("n", "s", "ss", "k")

    def __init__(self) -> None:
        self.n = 0
        self.s = 0.0
        self.ss = 0.0
        self.k = 0.0

    def add(self, value: float, success: float) -> None:
        self.n += 1
        self.s += value
        self.ss += value * value
        self.k += success


class ReportData:
    """Everything the report shows, accumulated row by row (memory independent of the games)."""

    def __init__(self) -> None:
        self.games = 0
        self.seats = 0
        self.scores: dict[tuple[int, str], Counter] = {}
        self.position_wins: list[float] = []
        self.position_games = 0
        self.levels: dict[str, dict[str, _Acc]] = {}
        self.pairs: dict[str, dict[tuple[str, str], _Acc]] = {}
        self.total = _Acc()
        self.ranks: Counter = Counter()
        self.lengths: Counter = Counter()
        self.rate_label = ""
        self.rate_bot: str | None = None
        self.mixed_seats = False

    def add(self, row: dict[str, Any]) -> None:
        """Count one normalized row (all rows must have the same number of seats)."""
        scores = row["scores"]
        n = len(scores)
        if not self.games:
            self.seats = n
            self.position_wins = [0.0] * n
            bots = row.get("bots") or [f"seat {p + 1}" for p in range(n)]
            if "won" in row:
                self.rate_label = "target reached"
            elif len(set(bots)) > 1:
                self.rate_bot = bots[0]
                self.rate_label = f"win share of {bots[0]}"
            elif n > 1:
                self.rate_label = "start player's win share"
            else:
                self.rate_label = "win share"
        elif n != self.seats:
            self.mixed_seats = True
            return
        self.games += 1
        bots = row.get("bots") or [f"seat {p + 1}" for p in range(n)]
        for p in range(n):
            self.scores.setdefault((p, str(bots[p])), Counter())[scores[p]] += 1
        winners = row["winners"]
        share = [0.0] * n
        for w in winners:
            share[w] = 1 / len(winners)
        factors, start = _factors(row)
        if n > 1:
            self.position_games += 1
            for p in range(n):
                self.position_wins[(p - start) % n] += share[p]
        mean = sum(scores) / n
        if "won" in row:
            success = 1.0 if row["won"] else 0.0
        elif self.rate_bot is not None:
            seats = [p for p in range(n) if str(bots[p]) == self.rate_bot]
            success = sum(share[p] for p in seats) / max(1, len(seats))
        else:
            success = share[start % n]
        self.total.add(mean, success)
        for fam, levels in factors.items():
            accs = self.levels.setdefault(fam, {})
            for lv in set(levels):
                accs.setdefault(lv, _Acc()).add(mean, success)
            if fam in PAIR_FAMILIES:
                paccs = self.pairs.setdefault(fam, {})
                for a, b in itertools.combinations(sorted(set(levels)), 2):
                    paccs.setdefault((a, b), _Acc()).add(mean, success)
        if "rank" in row:
            self.ranks[str(row["rank"])] += 1
        self.lengths[int(row["length"])] += 1


# ---------------------------------------------------------------------- statistics
MIN_TESTED = 20
"""Fewest games on each side of a comparison for it to be tested: the z tests are large-sample
approximations, far too eager on a handful of games. Smaller groups are shown, not tested."""


def _compare(acc: _Acc, total: _Acc, rate: bool = True) -> dict[str, Any]:
    """A level against the games without it: mean score and rate, each with its p-value
    (``tested`` False and p-values 1.0 when either side has fewer than MIN_TESTED games)."""
    rest = _Acc()
    rest.n, rest.s, rest.ss, rest.k = (total.n - acc.n, total.s - acc.s, total.ss - acc.ss,
                                       total.k - acc.k)
    mean = acc.s / acc.n if acc.n else 0.0
    sd = math.sqrt(max(0.0, (acc.ss - acc.n * mean * mean) / (acc.n - 1))) if acc.n > 1 else 0.0
    out = {
        "games": acc.n, "rest_games": rest.n,
        "mean": mean, "mean_ci": [mean - Z95 * sd / math.sqrt(acc.n) if acc.n else 0.0,
                                  mean + Z95 * sd / math.sqrt(acc.n) if acc.n else 0.0],
        "rest_mean": rest.s / rest.n if rest.n else 0.0,
        "p_mean": mean_diff_test(acc.n, acc.s, acc.ss, rest.n, rest.s, rest.ss),
        "rate": acc.k / acc.n if acc.n else 0.0, "rate_ci": list(wilson(acc.k, acc.n)),
        "rest_rate": rest.k / rest.n if rest.n else 0.0,
        "p_rate": two_proportion_test(acc.k, acc.n, rest.k, rest.n) if rate else 1.0,
        "tested": min(acc.n, rest.n) >= MIN_TESTED,
    }
    if not out["tested"]:
        out["p_mean"] = out["p_rate"] = 1.0
    return out


def build_report(data: ReportData) -> dict[str, Any]:
    """The numbers of the report (JSON-able): ``games``, ``seats`` (per seat and bot: games,
    mean, stdev), ``positions`` (win share by turn position with Wilson CI, chi-square and
    binomial tests), ``families`` (per level comparisons), ``pairs``, ``ranks``, ``lengths``,
    and ``tests``: every comparison with its raw and Holm-adjusted p-value and significance."""
    rep: dict[str, Any] = {"games": data.games, "rate_label": data.rate_label, "alpha": ALPHA}
    seats = []
    for (p, bot), hist in sorted(data.scores.items()):
        n = sum(hist.values())
        mean = math.fsum(v * c for v, c in hist.items()) / n
        var = math.fsum(c * (v - mean) ** 2 for v, c in hist.items()) / n
        seats.append({"seat": p + 1, "bot": bot, "games": n, "mean": mean,
                      "stdev": math.sqrt(var)})
    rep["seats"] = seats
    tests: list[dict[str, Any]] = []
    if data.seats > 1 and data.position_games:
        g = data.position_games
        positions = [{"position": i + 1, "wins": w, "share": w / g, "ci": list(wilson(w, g))}
                     for i, w in enumerate(data.position_wins)]
        stat, df, p_chi = chi_square_gof(data.position_wins, [g / data.seats] * data.seats)
        k0 = round(data.position_wins[0])
        p_bin = binom_test(k0, g, 1 / data.seats)
        rep["positions"] = {"games": g, "rows": positions, "chi2": stat, "df": df, "p_chi2": p_chi,
                            "p_binom": p_bin}
        tests.append({"claim": "win share differs by turn position (chi-square)",
                      "games": g, "p": p_chi, "ref": ("positions", "chi2")})
        tests.append({"claim": f"start player wins more or less than 1/{data.seats} (binomial)",
                      "games": g, "p": p_bin, "ref": ("positions", "binom")})
    families = {}
    for fam, accs in sorted(data.levels.items()):
        rows = []
        for lv, acc in sorted(accs.items()):
            c = _compare(acc, data.total)
            c["level"] = lv
            rows.append(c)
            if c["tested"]:
                tests.append({"claim": f"{fam} {lv}: mean score differs from the other games",
                              "games": data.total.n, "p": c["p_mean"], "ref": (fam, lv, "mean")})
                tests.append({"claim": f"{fam} {lv}: {data.rate_label} differs from the other games",
                              "games": data.total.n, "p": c["p_rate"], "ref": (fam, lv, "rate")})
        families[fam] = rows
    rep["families"] = families
    pairs = {}
    for fam, accs in sorted(data.pairs.items()):
        rows = []
        for (a, b), acc in sorted(accs.items()):
            c = _compare(acc, data.total)
            c["level"] = f"{a} + {b}"
            c["pair"] = [a, b]
            rows.append(c)
            if c["tested"]:
                tests.append({"claim": f"{fam}s {a} + {b}: mean score differs from the other games",
                              "games": data.total.n, "p": c["p_mean"],
                              "ref": (fam + "-pair", c["level"], "mean")})
                tests.append({"claim": f"{fam}s {a} + {b}: {data.rate_label} differs from the "
                                       "other games",
                              "games": data.total.n, "p": c["p_rate"],
                              "ref": (fam + "-pair", c["level"], "rate")})
        pairs[fam] = rows
    rep["pairs"] = pairs
    adjusted = holm([t["p"] for t in tests])
    for t, adj in zip(tests, adjusted):
        t["p_holm"] = adj
        t["significant"] = adj < ALPHA
    marks = {t["ref"]: t for t in tests}
    for fam, rows in families.items():
        for c in rows:
            for what in ("mean", "rate"):
                t = marks.get((fam, c["level"], what))
                c[f"sig_{what}"] = bool(t and t["significant"])
                c[f"p_{what}_holm"] = t["p_holm"] if t else 1.0
    for fam, rows in pairs.items():
        for c in rows:
            for what in ("mean", "rate"):
                t = marks.get((fam + "-pair", c["level"], what))
                c[f"sig_{what}"] = bool(t and t["significant"])
                c[f"p_{what}_holm"] = t["p_holm"] if t else 1.0
    if "positions" in rep:
        rep["positions"]["p_chi2_holm"] = marks[("positions", "chi2")]["p_holm"]
        rep["positions"]["p_binom_holm"] = marks[("positions", "binom")]["p_holm"]
        rep["positions"]["sig_chi2"] = marks[("positions", "chi2")]["significant"]
        rep["positions"]["sig_binom"] = marks[("positions", "binom")]["significant"]
    for t in tests:
        t["ref"] = list(t["ref"])
        if t["ref"][0] in families or t["ref"][0].endswith("-pair"):
            fam = t["ref"][0].removesuffix("-pair")
            rows = families.get(fam, []) if not t["ref"][0].endswith("-pair") else pairs[fam]
            c = next(c for c in rows if c["level"] == t["ref"][1])
            t["level_games"], t["rest_games"] = c["games"], c["rest_games"]
    rep["tests"] = tests
    rep["ranks"] = sorted(data.ranks.items(), key=lambda kv: -kv[1])
    rep["lengths"] = sorted(data.lengths.items())
    rep["length"] = _length_stats(data.lengths)
    rep["mixed_seats"] = data.mixed_seats
    return rep


def _length_stats(lengths: Counter) -> dict[str, Any] | None:
    """Games, mean, min, 5th/50th/95th percentile and max of the game length (player actions;
    nearest-rank percentiles), or None without rows."""
    n = sum(lengths.values())
    if not n:
        return None
    items = sorted(lengths.items())

    def pct(q: float) -> int:
        rank, seen = max(1, math.ceil(q * n)), 0
        for v, c in items:
            seen += c
            if seen >= rank:
                return v
        return items[-1][0]  # pragma: no cover - rank <= n

    mean = math.fsum(v * c for v, c in items) / n
    return {"games": n, "mean": mean, "min": items[0][0], "p5": pct(0.05), "median": pct(0.5),
            "p95": pct(0.95), "max": items[-1][0]}


# ---------------------------------------------------------------------- plots
def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    import matplotlib.pyplot as plt

    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _plots(data: ReportData, rep: dict[str, Any]) -> list[tuple[str, str]]:
    """``(title, svg)`` for each plot; matplotlib escapes every label it writes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams["svg.hashsalt"] = "citybuilders-report"
    out: list[tuple[str, str]] = []
    fig, ax = plt.subplots(figsize=(7, 3.6), constrained_layout=True)
    for (p, bot), hist in sorted(data.scores.items()):
        ax.hist(list(hist), bins=20, weights=list(hist.values()), alpha=0.5,
                label=f"seat {p + 1} ({bot})")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.legend(fontsize="small")
    out.append(("Score distribution per seat and bot", _svg(fig)))
    if "positions" in rep:
        rows = rep["positions"]["rows"]
        fig, ax = plt.subplots(figsize=(5, 3.2), constrained_layout=True)
        xs = [r["position"] for r in rows]
        ys = [r["share"] for r in rows]
        err = [[r["share"] - r["ci"][0] for r in rows], [r["ci"][1] - r["share"] for r in rows]]
        ax.bar(xs, ys, yerr=err, capsize=4)
        ax.axhline(1 / data.seats, color="grey", linestyle="--", linewidth=1)
        ax.set_xticks(xs)
        ax.set_xlabel("turn position (1 = start player)")
        ax.set_ylabel("win share (95% Wilson)")
        out.append(("Win share by turn position", _svg(fig)))
    for fam, rows in rep["families"].items():
        if len(rows) < 2:
            continue
        fig, ax = plt.subplots(figsize=(7, 0.9 + 0.28 * len(rows)), constrained_layout=True)
        labels = [r["level"] for r in rows]
        means = [r["mean"] for r in rows]
        err = [[r["mean"] - r["mean_ci"][0] for r in rows], [r["mean_ci"][1] - r["mean"] for r in rows]]
        colors = ["tab:red" if r["sig_mean"] else "tab:blue" for r in rows]
        ax.barh(labels, means, xerr=err, color=colors, capsize=2)
        ax.invert_yaxis()
        ax.set_xlabel("mean score (95% CI; red: significant after Holm)")
        ax.tick_params(axis="y", labelsize="small")
        out.append((f"Mean score per {fam}", _svg(fig)))
    for fam, rows in rep["pairs"].items():
        levels = sorted({x for r in rows for x in r["pair"]})
        if len(levels) < 2:
            continue
        pos = {lv: i for i, lv in enumerate(levels)}
        for what, label, scale in (("mean", "mean score", 1), ("rate", rep["rate_label"], 100)):
            grid = [[math.nan] * len(levels) for _ in levels]
            for r in rows:
                a, b = pos[r["pair"][0]], pos[r["pair"][1]]
                grid[a][b] = grid[b][a] = r[what] * scale
            size = 2.5 + 0.35 * len(levels)
            fig, ax = plt.subplots(figsize=(size + 1.5, size), constrained_layout=True)
            im = ax.imshow(grid, cmap="viridis")
            for r in rows:
                if r[f"sig_{what}"]:
                    a, b = pos[r["pair"][0]], pos[r["pair"][1]]
                    for x, y in ((a, b), (b, a)):
                        ax.text(x, y, "*", ha="center", va="center", color="white",
                                fontsize="large", fontweight="bold")
            ax.set_xticks(range(len(levels)), levels, rotation=90, fontsize="small")
            ax.set_yticks(range(len(levels)), levels, fontsize="small")
            unit = " (%)" if scale == 100 else ""
            fig.colorbar(im, ax=ax, label=f"{label}{unit}; * significant after Holm")
            out.append((f"{label[0].upper()}{label[1:]} per pair of {fam}s", _svg(fig)))
    if rep["ranks"]:
        fig, ax = plt.subplots(figsize=(6, 0.9 + 0.3 * len(rep["ranks"])), constrained_layout=True)
        ax.barh([k for k, _ in rep["ranks"]], [v for _, v in rep["ranks"]])
        ax.invert_yaxis()
        ax.set_xlabel("games")
        out.append(("Solo ranks", _svg(fig)))
    if rep["lengths"]:
        fig, ax = plt.subplots(figsize=(6, 3), constrained_layout=True)
        ax.hist([k for k, _ in rep["lengths"]], bins=20, weights=[v for _, v in rep["lengths"]])
        ax.set_xlabel("game length (player actions)")
        ax.set_ylabel("games")
        out.append(("Game length", _svg(fig)))
    return out


_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{{ title }}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222}p{max-width:1100px}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}
td{white-space:nowrap}
th{background:#f3f3f3}td.l,th.l{text-align:left}.sig{color:#b00;font-weight:bold}.ns{color:#777}
figure{margin:1em 0}figure svg{max-width:100%;height:auto}
</style></head><body>
<h1>{{ title }}</h1>
<p>{{ rep.games }} games from <code>{{ source }}</code>. Intervals are 95 %. Every comparison is
marked <span class="sig">significant</span> or <span class="ns">n.s.</span> after Holm's correction
over all {{ rep.tests|length }} comparisons of this report (family-wise α = {{ rep.alpha }});
each shows the number of games it rests on.</p>
{% if rep.mixed_seats %}<p class="sig">Some rows had another number of seats and were skipped.</p>{% endif %}
<h2>Scores per seat and bot</h2>
<table><tr><th>seat</th><th class="l">bot</th><th>games</th><th>mean</th><th>stdev</th></tr>
{% for s in rep.seats %}<tr><td>{{ s.seat }}</td><td class="l">{{ s.bot }}</td><td>{{ s.games }}</td>
<td>{{ "%.2f"|format(s.mean) }}</td><td>{{ "%.2f"|format(s.stdev) }}</td></tr>{% endfor %}</table>
{% if rep.positions %}{% set P = rep.positions %}
<h2>Turn position (first-player advantage)</h2>
<table><tr><th>position</th><th>wins</th><th>win share</th><th>95 % Wilson</th></tr>
{% for r in P.rows %}<tr><td>{{ r.position }}</td><td>{{ "%g"|format(r.wins) }}</td>
<td>{{ "%.1f"|format(100 * r.share) }} %</td>
<td>{{ "%.1f"|format(100 * r.ci[0]) }} – {{ "%.1f"|format(100 * r.ci[1]) }} %</td></tr>{% endfor %}</table>
<p id="position-tests">Chi-square (equal shares): χ² = {{ "%.2f"|format(P.chi2) }}, df {{ P.df }},
p = {{ "%.3g"|format(P.p_chi2) }}, Holm p = {{ "%.3g"|format(P.p_chi2_holm) }}:
<span class="{{ 'sig' if P.sig_chi2 else 'ns' }}">{{ 'significant' if P.sig_chi2 else 'n.s.' }}</span>
({{ P.games }} games). Binomial (start player vs 1/{{ P.rows|length }}):
p = {{ "%.3g"|format(P.p_binom) }}, Holm p = {{ "%.3g"|format(P.p_binom_holm) }}:
<span class="{{ 'sig' if P.sig_binom else 'ns' }}">{{ 'significant' if P.sig_binom else 'n.s.' }}</span></p>
{% endif %}
{% macro cells(c) %}<td>{{ c.games }} / {{ c.games + c.rest_games }}</td>
<td>{{ "%.2f"|format(c.mean) }} ({{ "%.2f"|format(c.mean_ci[0]) }} – {{ "%.2f"|format(c.mean_ci[1]) }})</td>
<td>{{ "%.2f"|format(c.rest_mean) }}</td><td>{{ "%.3g"|format(c.p_mean_holm) if c.tested else "—" }}</td>
<td class="{{ 'sig' if c.sig_mean else 'ns' }}">{{ 'significant' if c.sig_mean else ('n.s.' if c.tested else 'too few games') }}</td>
<td>{{ "%.1f"|format(100 * c.rate) }} % ({{ "%.1f"|format(100 * c.rate_ci[0]) }} – {{ "%.1f"|format(100 * c.rate_ci[1]) }})</td>
<td>{{ "%.1f"|format(100 * c.rest_rate) }} %</td><td>{{ "%.3g"|format(c.p_rate_holm) if c.tested else "—" }}</td>
<td class="{{ 'sig' if c.sig_rate else 'ns' }}">{{ 'significant' if c.sig_rate else ('n.s.' if c.tested else 'too few games') }}</td>{% endmacro %}
{% for fam, rows in rep.families.items() %}
<h2>Per {{ fam }}</h2>
<table class="family" data-family="{{ fam }}"><tr><th class="l">{{ fam }}</th><th>games</th><th>mean score (95 % CI)</th>
<th>others</th><th>Holm p</th><th></th><th>{{ rep.rate_label }} (95 % Wilson)</th><th>others</th><th>Holm p</th><th></th></tr>
{% for c in rows %}<tr><td class="l">{{ c.level }}</td>{{ cells(c) }}</tr>{% endfor %}</table>
{% endfor %}
{% for fam, rows in rep.pairs.items() %}
<h2>Pairs of {{ fam }}s</h2>
<p>Each pair of {{ fam }}s in the same game against the games without that pair (heat maps under
Plots; a pair with fewer than {{ min_tested }} games on either side is shown, not tested).</p>
<table class="pairs" data-family="{{ fam }}"><tr><th class="l">pair</th><th>games</th><th>mean score (95 % CI)</th>
<th>others</th><th>Holm p</th><th></th><th>{{ rep.rate_label }} (95 % Wilson)</th><th>others</th><th>Holm p</th><th></th></tr>
{% for c in rows %}<tr><td class="l">{{ c.level }}</td>{{ cells(c) }}</tr>{% endfor %}</table>
{% endfor %}
{% if rep.ranks %}<h2>Solo ranks</h2><table><tr><th class="l">rank</th><th>games</th></tr>
{% for k, v in rep.ranks %}<tr><td class="l">{{ k }}</td><td>{{ v }}</td></tr>{% endfor %}</table>{% endif %}
{% if rep.length %}{% set L = rep.length %}<h2>Game length</h2>
<table id="game-length"><tr><th>games</th><th>mean</th><th>min</th><th>5 %</th><th>median</th><th>95 %</th><th>max</th></tr>
<tr><td>{{ L.games }}</td><td>{{ "%.1f"|format(L.mean) }}</td><td>{{ L.min }}</td><td>{{ L.p5 }}</td>
<td>{{ L.median }}</td><td>{{ L.p95 }}</td><td>{{ L.max }}</td></tr></table>
<p>Player actions per game (chance outcomes not counted); distribution under Plots.</p>{% endif %}
<h2>All comparisons</h2>
<details id="all-tests"><summary>{{ rep.tests|length }} comparisons, {{ rep.tests|selectattr("significant")|list|length }} significant after Holm (α = {{ rep.alpha }})</summary>
<table><tr><th class="l">claim</th><th>games (level / others)</th><th>p</th><th>Holm p</th><th></th></tr>
{% for t in rep.tests|sort(attribute="p_holm") %}<tr><td class="l">{{ t.claim }}</td>
<td>{% if t.level_games is defined %}{{ t.level_games }} / {{ t.rest_games }}{% else %}{{ t.games }}{% endif %}</td>
<td>{{ "%.3g"|format(t.p) }}</td><td>{{ "%.3g"|format(t.p_holm) }}</td>
<td class="{{ 'sig' if t.significant else 'ns' }}">{{ 'significant' if t.significant else 'n.s.' }}</td></tr>{% endfor %}</table></details>
<h2>Plots</h2>
{% for title, svg in plots %}<figure class="plot"><figcaption>{{ title }}</figcaption>{{ svg|safe }}</figure>
{% endfor %}
</body></html>
"""


def write_report(rows: Path, out: Path, title: str | None = None) -> dict[str, Any]:
    """Read ``rows``, write the HTML report to ``out``; returns the report numbers.

    Raises ReportError for a missing/malformed rows file, a file with no rows, or an unwritable
    output.
    """
    from jinja2 import Environment

    data = ReportData()
    for row in read_rows(Path(rows)):
        data.add(row)
    if not data.games:
        raise ReportError(N_("{rows}: no rows", rows=rows))
    rep = build_report(data)
    plots = _plots(data, rep)
    env = Environment(autoescape=True)
    html = env.from_string(_TEMPLATE).render(
        title=title or f"Simulation report: {Path(rows).name}", rep=rep, plots=plots,
        source=str(rows), min_tested=MIN_TESTED)
    out = Path(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(html, encoding="utf-8")
    except OSError as exc:
        raise ReportError(N_("{out}: cannot write ({strerror})", out=out, strerror=exc.strerror)) from None
    return rep
