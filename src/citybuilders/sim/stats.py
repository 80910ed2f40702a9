"""Small statistics for simulation reports (pure Python, no numpy/scipy).

Every function takes plain counts or sums so it can run on streaming accumulators:

* :func:`wilson` — Wilson score interval of a proportion (95 % by default).
* :func:`binom_test` — two-sided binomial test (exact up to ``n = 20 000``, normal approximation
  with continuity correction beyond).
* :func:`chi2_sf` / :func:`chi_square_gof` — chi-square survival function (regularized upper
  incomplete gamma) and the goodness-of-fit test.
* :func:`two_proportion_test`, :func:`mean_diff_test` — two-sided z tests (pooled proportions;
  Welch's unequal-variance z for means, large-sample normal approximation).
* :func:`holm`, :func:`benjamini_hochberg` — adjusted p-values for multiple comparisons.

Sources: Wilson (1927); Holm (1979); Benjamini & Hochberg (1995); Numerical Recipes §6.2 for the
incomplete gamma function.
"""

from __future__ import annotations

import math
from typing import Sequence

__all__ = [
    "Z95", "wilson", "normal_sf", "binom_test", "chi2_sf", "chi_square_gof",
    "two_proportion_test", "mean_diff_test", "holm", "benjamini_hochberg",
]

Z95 = 1.959963984540054
"""The two-sided 95 % standard normal quantile."""

EXACT_BINOMIAL_MAX_N = 20_000
"""Largest ``n`` for which :func:`binom_test` sums exact probabilities."""


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval ``(low, high)`` of ``k`` successes in ``n`` trials.

    ``k`` may be fractional (a shared win counts 1/k). ``n == 0`` gives ``(0.0, 1.0)``.
    Raises ValueError if ``k < 0`` or ``k > n``.
    """
    if n <= 0:
        return (0.0, 1.0)
    if k < 0 or k > n:
        raise ValueError(f"wilson: need 0 <= k <= n, got k={k}, n={n}")
    p = k / n
    z2 = z * z
    den = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def _log_binom_pmf(k: int, n: int, p: float) -> float:
    if p == 0.0:
        return 0.0 if k == 0 else -math.inf
    if p == 1.0:
        return 0.0 if k == n else -math.inf
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def binom_test(k: int, n: int, p: float = 0.5) -> float:
    """Two-sided p-value of ``k`` successes in ``n`` trials under success probability ``p``.

    Exact (sum of the probabilities of outcomes no more likely than ``k``, as R's binom.test)
    for ``n <= 20 000``; beyond, the normal approximation with continuity correction.
    Raises ValueError for ``k`` outside ``0..n`` or ``p`` outside [0, 1].
    """
    if not 0 <= k <= n:
        raise ValueError(f"binom_test: need 0 <= k <= n, got k={k}, n={n}")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"binom_test: p must be in [0, 1], got {p}")
    if n == 0:
        return 1.0
    if n > EXACT_BINOMIAL_MAX_N:
        sd = math.sqrt(n * p * (1 - p))
        if sd == 0:
            return 1.0 if k == round(n * p) else 0.0
        z = max(0.0, abs(k - n * p) - 0.5) / sd
        return min(1.0, 2 * normal_sf(z))
    lk = _log_binom_pmf(k, n, p)
    tol = 1e-7
    total = 0.0
    for i in range(n + 1):
        li = _log_binom_pmf(i, n, p)
        if li <= lk + tol:
            total += math.exp(li)
    return min(1.0, total)


def _gamma_q(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) (Numerical Recipes gser/gcf)."""
    if x <= 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1:
        ap, s, d = a, 1.0 / a, 1.0 / a
        for _ in range(10_000):
            ap += 1
            d *= x / ap
            s += d
            if abs(d) < abs(s) * 1e-15:
                break
        return max(0.0, 1.0 - s * math.exp(-x + a * math.log(x) - gln))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - gln) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for a chi-square variable with ``df`` degrees of freedom (``df >= 1``)."""
    if df < 1:
        raise ValueError(f"chi2_sf: df must be >= 1, got {df}")
    return _gamma_q(df / 2.0, x / 2.0)


def chi_square_gof(observed: Sequence[float], expected: Sequence[float]) -> tuple[float, int, float]:
    """Pearson goodness of fit: ``(statistic, df, p)``; ``expected`` are counts (same total).

    Cells with zero expected count are skipped. Fewer than 2 usable cells give ``(0.0, 0, 1.0)``.
    """
    cells = [(o, e) for o, e in zip(observed, expected) if e > 0]
    if len(cells) < 2:
        return (0.0, 0, 1.0)
    stat = sum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    return (stat, df, chi2_sf(stat, df))


def two_proportion_test(k1: float, n1: float, k2: float, n2: float) -> float:
    """Two-sided p-value of the pooled two-proportion z test (``k1/n1`` vs ``k2/n2``).

    Returns 1.0 when either group is empty or the pooled proportion is 0 or 1.
    """
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (k1 + k2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var <= 0:
        return 1.0
    z = abs(k1 / n1 - k2 / n2) / math.sqrt(var)
    return min(1.0, 2 * normal_sf(z))


def mean_diff_test(n1: float, sum1: float, sumsq1: float,
                   n2: float, sum2: float, sumsq2: float) -> float:
    """Two-sided p-value that two means differ (Welch z, normal approximation).

    Each group is given as (count, sum, sum of squares). Groups with fewer than 2 values, or zero
    variance in both, give 1.0 (no evidence either way).
    """
    if n1 < 2 or n2 < 2:
        return 1.0
    m1, m2 = sum1 / n1, sum2 / n2
    v1 = max(0.0, (sumsq1 - n1 * m1 * m1) / (n1 - 1))
    v2 = max(0.0, (sumsq2 - n2 * m2 * m2) / (n2 - 1))
    se2 = v1 / n1 + v2 / n2
    if se2 <= 0:
        return 1.0
    return min(1.0, 2 * normal_sf(abs(m1 - m2) / math.sqrt(se2)))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values (same order as given; each in [0, 1])."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (false discovery rate; same order as given)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i], reverse=True)
    adjusted = [0.0] * m
    running = 1.0
    for pos, i in enumerate(order):
        rank = m - pos
        running = min(running, pvalues[i] * m / rank)
        adjusted[i] = min(1.0, running)
    return adjusted
