"""Plots of a simulation batch (matplotlib, Agg backend): score distributions, win rate per seat
(the first-player edge when the start player is fixed), and per-group bars (card combos)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

__all__ = ["plot_summary"]


def plot_summary(
    rows: list[dict[str, Any]] | None,
    summary: dict[str, Any],
    players: Sequence[str],
    path: str | Path,
    title: str = "",
    histograms: Sequence[dict[float, int]] | None = None,
) -> Path:
    """Write a PNG/SVG/PDF (by suffix) with 2 or 3 panels; returns the path.

    Panels: score histogram per seat; win rate per seat; mean score per group (if grouped).
    The score panel uses ``rows`` or, when None, ``histograms`` (per seat ``{score: games}``,
    as :meth:`StreamSummary.score_histograms`). Raises ValueError for an unsupported suffix.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ValueError(f"--plot {path}: use a .png, .svg or .pdf file name")
    groups = summary.get("groups") or {}
    ncols = 3 if groups else 2
    fig, axes = plt.subplots(1, ncols, figsize=(5 * ncols, 4), constrained_layout=True)
    ax = axes[0]
    for p, bot in enumerate(players):
        if rows is not None:
            values, weights = [r["scores"][p] for r in rows], None
        else:
            hist = (histograms or [{}] * len(players))[p]
            values, weights = list(hist), list(hist.values())
        ax.hist(values, bins=20, weights=weights, alpha=0.5, label=f"seat {p + 1} ({bot})")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title("score distribution")
    ax.legend(fontsize="small")
    ax = axes[1]
    seats = summary["seats"]
    ax.bar([f"{s['seat'] + 1}\n{s['bot']}" for s in seats], [s["win_rate"] for s in seats])
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (shared wins split)")
    ax.set_title("win rate by seat")
    if groups:
        ax = axes[2]
        keys = list(groups)
        vals = [groups[k].get("won_rate", groups[k]["mean_score"]) for k in keys]
        ax.barh(keys, vals)
        ax.set_xlabel("target reached" if "won_rate" in groups[keys[0]] else "mean score")
        ax.set_title("by group")
        ax.tick_params(axis="y", labelsize="x-small")
    if title:
        fig.suptitle(title)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
