"""Fit the weights of Roll Builder's fitted value (games/roll_builder/strategy.py, ``fitted_value``).

Plays ``--games`` solo games per sheet with a bot (seeds ``--seed0`` + i; the default 30000 is
outside ``bench_bots.py``'s 20000-20xxx), records at every turn boundary (before the turn's roll)
the sheet's :func:`value_features` and the points the bot went on to make, and fits
``points to come ~ sum_k f_k * (w0_k + w1_k * r + w2_k * r**2)`` (``r`` the turns left) by ridge least squares.
Writes the game's ``data/value_weights.json``. Needs numpy (offline only; the game does not).

    python benchmarks/fit_roll_builder_value.py --games 400 --bot normal
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from citybuilders.bots import make_bot
from citybuilders.core.registry import load_game
from citybuilders.games.roll_builder import strategy as V

SHEETS = ("rivermouth", "highcrag", "goldplain")
OUT = Path(V.__file__).with_name("data") / "value_weights.json"


def play(sheet: str, bot: str, games: int, seed0: int) -> list[list[tuple[int, int]]]:
    """The histories (``(actor, action)`` pairs) of ``games`` solo games of ``bot``."""
    out = []
    for i in range(games):
        seed = seed0 + i
        state = load_game("roll-builder", sheet=sheet).new_initial_state(1, seed)
        agent = make_bot(bot, seed)
        dice = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(dice))
            else:
                state.apply_action(agent.step(state, 0))
        out.append(state.history())
    return out


def samples(sheet: str, histories: list[list[tuple[int, int]]]) -> tuple[list[list[float]],
                                                                          list[float]]:
    """(rows, targets) of replayed games: one row per turn boundary (before the turn's roll):
    the features, then the features x r and x r**2; the target is the points made from there to the end."""
    rows: list[list[float]] = []
    ys: list[float] = []
    game = load_game("roll-builder", sheet=sheet)
    for hist in histories:
        state = game.new_initial_state(1, 0)
        marks: list[tuple[list[float], int, float]] = []
        for actor, action in hist:
            if actor < 0 and not state.dice:
                f = V.value_features(state, 0)
                marks.append((f, V.turns_left(state), float(state.scores()[0].total)))
            state.apply_action(action)
        final = float(state.scores()[0].total)
        for f, r, now in marks:
            rows.append(f + [x * r for x in f] + [x * r * r for x in f])
            ys.append(final - now)
    return rows, ys


def fit(rows: list[list[float]], ys: list[float], ridge: float) -> list[float]:
    import numpy as np

    x = np.asarray(rows)
    y = np.asarray(ys)
    scale = np.maximum(np.abs(x).max(axis=0), 1e-9)
    xs = x / scale
    a = xs.T @ xs + ridge * np.eye(xs.shape[1])
    w = np.linalg.solve(a, xs.T @ y) / scale
    resid = y - x @ w
    print(f"  {len(ys)} samples, residual sd {resid.std():.2f} (target sd {y.std():.2f})")
    return [float(v) for v in w]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--bot", default="normal")
    ap.add_argument("--seed0", type=int, default=30000)
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--sheets", default=",".join(SHEETS))
    ap.add_argument("--pool", default="",
                    help="folder of sample files (SHEET-*.json): this run's samples are saved there "
                         "and the fit uses all of them (earlier bots' games too)")
    ap.add_argument("--out", default=str(OUT),
                    help="weights file written (default: the game's data/value_weights.json)")
    ap.add_argument("--no-fit", action="store_true",
                    help="only play and pool the games (with --pool); value_weights.py unchanged")
    a = ap.parse_args()
    weights = dict(V.value_weights())
    used: list[str] = []
    for sheet in a.sheets.split(","):
        print(sheet)
        hist = play(sheet, a.bot, a.games, a.seed0) if a.games else []
        if a.pool:
            import json

            pool = Path(a.pool)
            pool.mkdir(parents=True, exist_ok=True)
            if hist:
                tag = f"{sheet}-{a.bot}-{a.seed0}-{a.games}"
                (pool / f"{tag}.json").write_text(json.dumps(hist))
            hist = []
            for f in sorted(pool.glob(f"{sheet}-*.json")):
                hist += json.loads(f.read_text())
                used.append(f.stem)
        if a.no_fit:
            continue
        rows, ys = samples(sheet, hist)
        w = fit(rows, ys, a.ridge)
        n = len(w) // 3
        weights[sheet] = tuple(tuple(round(v, 6) for v in w[j * n:(j + 1) * n]) for j in range(3))
    if a.no_fit:
        return
    import json

    note = ("Weights of the Roll Builder fitted value (strategy.fitted_value), written by "
            "benchmarks/fit_roll_builder_value.py: do not edit by hand.\n\nGames "
            "(sheet-bot-first seed-count): "
            + (", ".join(used) if used else f"{a.sheets}-{a.bot}-{a.seed0}-{a.games}")
            + f"; ridge {a.ridge}.")
    doc = {"note": note, "weights": {k: [list(r) for r in w] for k, w in sorted(weights.items())}}
    Path(a.out).write_text(json.dumps(doc, indent=0) + "\n")
    print("wrote", a.out)


if __name__ == "__main__":
    main()
