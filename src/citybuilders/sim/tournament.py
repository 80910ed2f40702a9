"""Round-robin tournaments of bots with Bradley-Terry ratings (``citybuilders tournament``).

Every *seat order* is played: each ordered selection of ``seats`` bots out of the entrants
(``itertools.permutations``), so every pairing meets in every seat. Seat order ``k`` plays
``games`` games with base seed ``derive_seed(seed, "seating", k)`` (rows as ``simulate``), so a
tournament is deterministic per seed whatever ``jobs``.

Each game gives pairwise results: for every two seats, the one that won (``winners()``, with the
game's tie-breaks) beats the other; if neither or both won, the higher score wins, and equal
scores are a draw (half a win each). Bradley-Terry strengths are fitted by the MM algorithm
(Hunter 2004, "MM algorithms for generalized Bradley-Terry models") with half a virtual win each
way for every pair (keeps a 100 %-0 % matchup finite). Ratings are on an Elo scale
(``400 log10`` strength, mean 0); 95 % intervals come from the Fisher information (pseudo-inverse
under the mean-0 constraint). Win rates carry Wilson intervals.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from ..bots import make_bot
from ..core.registry import load_game
from ..core.rng import derive_seed
from .batch import BatchSpec
from .executor import LocalExecutor
from .run import iter_rows
from .stats import Z95, wilson
from ..core.i18n import N_

__all__ = ["TournamentError", "run_tournament", "bradley_terry", "seatings"]

ELO = 400 / math.log(10)
PRIOR = 0.5


class TournamentError(Exception):
    """Bad tournament settings (one-line message)."""


def seatings(players: list[str], seats: int) -> list[tuple[str, ...]]:
    """Every seat order: ordered selections of ``seats`` distinct entrants."""
    return list(itertools.permutations(players, seats))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gauss-Jordan solve of a small dense system (partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        d = m[c][c]
        for k in range(c, n + 1):
            m[c][k] /= d
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] for i in range(n)]


def bradley_terry(wins: list[list[float]], prior: float = PRIOR,
                  max_iter: int = 100_000, tol: float = 1e-12) -> tuple[list[float], list[float]]:
    """Fit strengths from ``wins[i][j]`` (i beat j, draws as halves); returns ``(theta, se)``.

    ``theta`` are natural-log strengths with mean 0; ``se`` their standard errors from the
    Fisher information. ``prior`` virtual wins are added each way for every pair.
    """
    m = len(wins)
    w = [[wins[i][j] + (prior if i != j else 0.0) for j in range(m)] for i in range(m)]
    n = [[w[i][j] + w[j][i] for j in range(m)] for i in range(m)]
    total = [sum(w[i]) for i in range(m)]
    p = [1.0] * m
    for _ in range(max_iter):
        new = []
        for i in range(m):
            den = sum(n[i][j] / (p[i] + p[j]) for j in range(m) if j != i)
            new.append(total[i] / den if den else p[i])
        g = math.exp(sum(math.log(x) for x in new) / m)
        new = [x / g for x in new]
        done = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, p)) < tol
        p = new
        if done:
            break
    theta = [math.log(x) for x in p]
    info = [[0.0] * m for _ in range(m)]
    for i in range(m):
        for j in range(m):
            if i != j:
                v = n[i][j] * p[i] * p[j] / (p[i] + p[j]) ** 2
                info[i][j] -= v
                info[i][i] += v
    # pseudo-inverse of a Laplacian-like matrix: (I + J/m)^-1 - J/m
    shifted = [[info[i][j] + 1.0 / m for j in range(m)] for i in range(m)]
    se = []
    for i in range(m):
        e = [1.0 if k == i else 0.0 for k in range(m)]
        col = _solve(shifted, e)
        se.append(math.sqrt(max(0.0, col[i] - 1.0 / m)))
    return theta, se


def _pair_result(row: dict[str, Any], i: int, j: int) -> float:
    """1.0 if seat i beat seat j in ``row``, 0.0 if it lost, 0.5 for a draw."""
    wi, wj = i in row["winners"], j in row["winners"]
    if wi != wj:
        return 1.0 if wi else 0.0
    si, sj = row["scores"][i], row["scores"][j]
    return 1.0 if si > sj else 0.0 if si < sj else 0.5


def run_tournament(game: str, players: list[str], games: int, seats: int | None = None,
                   seed: int = 0, jobs: int = 1,
                   options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play the round robin; returns a JSON-able dict.

    Keys: ``games`` (total), ``seatings`` (list of seat orders), ``ratings`` (sorted best first:
    ``bot, rating, ci, se, games, wins, win_rate, win_ci``), ``pairwise`` (``{a: {b: wins}}``),
    ``by_seat`` (per seat index: games won share). Raises TournamentError for fewer than 2
    entrants, a repeated entrant, or a seat count the game does not allow.
    """
    options = dict(options or {})
    if len(players) < 2:
        raise TournamentError(N_("--players: a tournament needs at least 2 different bots"))
    if len(set(players)) != len(players):
        raise TournamentError(N_("--players: each bot may appear once"))
    for name in players:
        make_bot(name)
    g = load_game(game, **options)
    if seats is None:
        seats = 2
        try:
            g.check_num_players(2)
        except Exception:
            seats = len(players)
    if seats > len(players):
        raise TournamentError(N_("--seats {seats}: more seats than bots ({count})",
                                 seats=seats, count=len(players)))
    if seats < 2:
        raise TournamentError(N_("--seats: a tournament needs at least 2 seats"))
    try:
        g.check_num_players(seats)
    except Exception as exc:
        raise TournamentError(N_("--seats {seats}: {exc}", seats=seats, exc=exc)) from None
    idx = {name: k for k, name in enumerate(players)}
    m = len(players)
    wins = [[0.0] * m for _ in range(m)]
    played = [0] * m
    won = [0.0] * m
    seat_wins = [0.0] * seats
    orders = seatings(players, seats)
    total = 0
    ex = LocalExecutor(jobs)
    try:
        for k, order in enumerate(orders):
            spec = BatchSpec(g.name, order, options)
            for row in iter_rows(spec, derive_seed(seed, "seating", k), 0, games, ex):
                total += 1
                for s, name in enumerate(order):
                    played[idx[name]] += 1
                    if s in row["winners"]:
                        won[idx[name]] += 1 / len(row["winners"])
                        seat_wins[s] += 1 / len(row["winners"])
                for i in range(seats):
                    for j in range(i + 1, seats):
                        r = _pair_result(row, i, j)
                        a, b = idx[order[i]], idx[order[j]]
                        wins[a][b] += r
                        wins[b][a] += 1 - r
    finally:
        ex.close()
    theta, se = bradley_terry(wins)
    ratings = []
    for k, name in enumerate(players):
        rating, err = theta[k] * ELO, se[k] * ELO
        ratings.append({
            "bot": name, "rating": rating, "se": err,
            "ci": [rating - Z95 * err, rating + Z95 * err],
            "games": played[k], "wins": won[k],
            "win_rate": won[k] / played[k] if played[k] else 0.0,
            "win_ci": list(wilson(won[k], played[k])),
        })
    ratings.sort(key=lambda r: (-r["rating"], r["bot"]))
    return {
        "game": g.name, "games": total, "games_per_seating": games, "seed": seed,
        "seatings": [list(o) for o in orders], "ratings": ratings,
        "pairwise": {a: {b: wins[idx[a]][idx[b]] for b in players if b != a} for a in players},
        "by_seat": [x / total if total else 0.0 for x in seat_wins],
    }
