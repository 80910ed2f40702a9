"""The small statistics module against reference values (R's prop.test/binom.test/pchisq)."""

from __future__ import annotations

import pytest

from citybuilders.sim.stats import (benjamini_hochberg, binom_test, chi2_sf, chi_square_gof, holm,
                                    mean_diff_test, normal_sf, two_proportion_test, wilson)


def test_wilson() -> None:
    assert wilson(5, 10) == pytest.approx((0.2365931, 0.7634069), abs=1e-7)
    assert wilson(80, 100) == pytest.approx((0.7111708, 0.8666331), abs=1e-7)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775328), abs=1e-7)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_binomial() -> None:
    assert binom_test(9, 10) == pytest.approx(0.02148438, rel=1e-6)
    assert binom_test(80, 100) == pytest.approx(1.115909e-09, rel=1e-5)
    assert binom_test(3, 10, 0.2) == pytest.approx(0.4295746, rel=1e-6)
    assert binom_test(5, 10) == pytest.approx(1.0)
    # normal approximation beyond 20 000 trials
    assert binom_test(10_100, 20_001) == pytest.approx(0.1615024, rel=1e-6)
    with pytest.raises(ValueError):
        binom_test(3, 2)


def test_chi_square() -> None:
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(10, 4) == pytest.approx(0.04042768, rel=1e-6)
    assert chi2_sf(36, 1) == pytest.approx(2 * normal_sf(6), rel=1e-9)
    assert chi_square_gof([80, 20], [50, 50]) == pytest.approx((36.0, 1, 1.973175e-09), rel=1e-6)
    assert chi_square_gof([5], [5]) == (0.0, 0, 1.0)


def test_two_sample_tests() -> None:
    assert two_proportion_test(30, 100, 50, 100) == pytest.approx(0.003892417, rel=1e-6)
    assert two_proportion_test(10, 10, 5, 5) == 1.0
    # [1, 2, 3] against [4, 5, 6]: z = 3 / sqrt(2/3)
    assert mean_diff_test(3, 6, 14, 3, 15, 77) == pytest.approx(0.0002385635, rel=1e-6)
    assert mean_diff_test(1, 1, 1, 5, 5, 5) == 1.0


def test_multiple_comparisons() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert benjamini_hochberg([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.04, 0.04])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []
