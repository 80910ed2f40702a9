"""Tournament: ratings of a rigged matchup, Bradley-Terry on known matrices, determinism."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from citybuilders.sim.tournament import ELO, bradley_terry, run_tournament, seatings


def test_seat_orders_cover_every_permutation() -> None:
    assert seatings(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "a"), ("b", "c"),
                                            ("c", "a"), ("c", "b")]
    assert len(seatings(["a", "b", "c"], 3)) == 6


def test_bradley_terry_known_matrix() -> None:
    # two players, 6-2 with half a virtual win each way: strengths 6.5 : 2.5
    theta, se = bradley_terry([[0, 6], [2, 0]])
    assert theta[0] - theta[1] == pytest.approx(math.log(6.5 / 2.5), abs=1e-9)
    assert sum(theta) == pytest.approx(0.0, abs=1e-12)
    p = [math.exp(t) for t in theta]
    v = 9 * p[0] * p[1] / (p[0] + p[1]) ** 2
    assert se == pytest.approx([math.sqrt(1 / (4 * v))] * 2, rel=1e-9)
    # a cycle a > b > c with a stronger than c: order a, b, c
    theta, _ = bradley_terry([[0, 8, 9], [2, 0, 7], [1, 3, 0]])
    assert sorted(range(3), key=lambda i: -theta[i]) == [0, 1, 2]


def test_rigged_matchup_and_determinism(tmp_path: Path, cli) -> None:
    res = run_tournament("kingdom-builder", ["random", "greedy"], 6, seed=3)
    assert res["games"] == 12 and res["seatings"] == [["random", "greedy"], ["greedy", "random"]]
    assert [r["bot"] for r in res["ratings"]] == ["greedy", "random"]
    top, bottom = res["ratings"]
    assert top["wins"] == 12 and bottom["wins"] == 0 and top["games"] == 12
    # 12-0 plus half a virtual win each way: strengths 12.5 : 0.5
    assert top["rating"] == pytest.approx(ELO * math.log(25) / 2, abs=1e-6)
    assert bottom["rating"] == pytest.approx(-top["rating"], abs=1e-9)
    v = 13 * 25 / (25 + 1) ** 2
    assert top["se"] == pytest.approx(ELO * math.sqrt(1 / (4 * v)), rel=1e-6)
    assert top["ci"][0] > 0 > bottom["ci"][1]
    assert top["win_ci"] == pytest.approx([0.7575059, 1.0], abs=1e-6)
    again = run_tournament("kingdom-builder", ["random", "greedy"], 6, seed=3, jobs=2)
    assert again == res
    out = tmp_path / "t.json"
    code, stdout, err = cli("tournament", "kingdom-builder", "-p", "random,greedy", "-n", "6",
                            "--seed", "3", "--json", str(out))
    assert code == 0, err
    assert json.loads(out.read_text()) == json.loads(json.dumps(res))
    assert "greedy" in stdout and "Bradley-Terry" in stdout


def test_bad_tournaments(cli) -> None:
    code, _, err = cli("tournament", "kingdom-builder", "-p", "greedy")
    assert code == 2 and "at least 2 different bots" in err
    code, _, err = cli("tournament", "kingdom-builder", "-p", "greedy,greedy")
    assert code == 2 and "each bot may appear once" in err
    code, _, err = cli("tournament", "kingdom-builder", "-p", "greedy,wizard")
    assert code == 2 and "unknown seat 'wizard'" in err
    code, _, err = cli("tournament", "kingdom-builder", "-p", "greedy,random", "--seats", "3")
    assert code == 2 and "--seats 3: more seats than bots" in err
