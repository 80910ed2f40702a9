"""The HTML report on a known synthetic row set: intervals, tests, marks, escaping, Chromium."""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

import pytest

from citybuilders.sim.report import ReportData, build_report, read_rows, write_report

HOSTILE = "<script>alert(1)</script>"


def _synthetic_rows() -> list[dict]:
    """100 Kingdom Builder-shaped games: 80 with lords+farmers+knights started by seat 1 (mean
    score 15 or 17), 20 with fishermen+miners+knights started by seat 2 (mean 5 or 7); seat 1
    (greedy) wins every game."""
    rows = []
    for i in range(100):
        a = i < 80
        cards = "lords knights farmers" if a else "fishermen knights miners"
        high = i % 2
        scores = [20 + 2 * high, 10 + 2 * high] if a else [6 + 2 * high, 4 + 2 * high]
        rows.append({
            "index": i, "seed": i, "scores": scores, "winners": [0], "returns": [1.0, 0.0],
            "setup": f"tavern:0 barn:180 oasis:0 farm:0 | {cards} | start P{1 if a else 2}",
            "parts": [{}, {}], "length": 100 + i % 3, "turns": 20, "supply": [0, 1],
            "bots": ["greedy", "random"],
        })
    return rows


def test_report_numbers_on_synthetic_rows(tmp_path: Path) -> None:
    data = ReportData()
    for row in _synthetic_rows():
        data.add(row)
    rep = build_report(data)
    assert rep["games"] == 100 and rep["rate_label"] == "win share of greedy"
    pos = rep["positions"]
    assert [r["wins"] for r in pos["rows"]] == [80, 20]
    assert pos["rows"][0]["ci"] == pytest.approx([0.7111708, 0.8666331], abs=1e-7)
    assert pos["rows"][1]["ci"] == pytest.approx([0.1333669, 0.2888292], abs=1e-7)
    assert pos["chi2"] == 36.0 and pos["df"] == 1
    assert pos["p_chi2"] == pytest.approx(1.973175e-09, rel=1e-6)
    assert pos["p_binom"] == pytest.approx(1.115909e-09, rel=1e-5)
    assert pos["sig_chi2"] and pos["sig_binom"]
    cards = {c["level"]: c for c in rep["families"]["card"]}
    assert sorted(cards) == ["farmers", "fishermen", "knights", "lords", "miners"]
    lords = cards["lords"]
    assert lords["games"] == 80 and lords["rest_games"] == 20
    assert lords["mean"] == 16.0 and lords["rest_mean"] == 6.0
    half = 1.959963984540054 * math.sqrt(80 / 79) / math.sqrt(80)
    assert lords["mean_ci"] == pytest.approx([16 - half, 16 + half], rel=1e-12)
    assert lords["sig_mean"] is True
    # greedy wins everywhere: a rate of 1 against 1 is no evidence
    assert lords["rate"] == 1.0 and lords["p_rate"] == 1.0 and lords["sig_rate"] is False
    assert lords["rate_ci"] == pytest.approx([0.9541821, 1.0], abs=1e-6)
    assert cards["knights"]["rest_games"] == 0 and cards["knights"]["sig_mean"] is False
    # comparisons: 2 position tests + 2 per card with other games (4 cards) + 2 per card pair
    # (6 pairs: mean score and rate)
    assert len(rep["tests"]) == 2 + 8 + 12
    assert sum(t["significant"] for t in rep["tests"]) == 2 + 4 + 6
    pairs = {c["level"]: c for c in rep["pairs"]["card"]}
    assert pairs["farmers + lords"]["games"] == 80 and pairs["fishermen + miners"]["mean"] == 6.0
    fl = pairs["farmers + lords"]
    assert fl["sig_mean"] is True and fl["rate"] == 1.0 and fl["sig_rate"] is False
    assert fl["p_rate_holm"] == 1.0 and fl["rate_ci"] == pytest.approx([0.9541821, 1.0], abs=1e-6)
    by_claim = {t["claim"]: t for t in rep["tests"]}
    t = by_claim["cards farmers + lords: mean score differs from the other games"]
    assert (t["level_games"], t["rest_games"], t["significant"]) == (80, 20, True)
    assert "cards farmers + lords: win share of greedy differs from the other games" in by_claim
    assert rep["length"] == {"games": 100, "mean": 100.99, "min": 100, "p5": 100, "median": 101,
                             "p95": 102, "max": 102}
    sections = rep["families"]["section"]
    assert [s["level"] for s in sections] == ["barn", "farm", "oasis", "tavern"]
    assert rep["lengths"] == [(100, 34), (101, 33), (102, 33)]
    seats = rep["seats"]
    assert [(s["seat"], s["bot"], s["mean"]) for s in seats] == [(1, "greedy", 18.2),
                                                               (2, "random", 9.8)]


def _write(path: Path, rows: list[dict]) -> None:
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    else:
        from citybuilders.sim.batch import iter_csv_rows
        import csv
        with path.open("w", newline="") as fh:
            csv.writer(fh).writerows(iter_csv_rows(rows))


def test_csv_and_jsonl_give_the_same_report(tmp_path: Path) -> None:
    rows = _synthetic_rows()
    reps = []
    for suffix in (".jsonl", ".csv"):
        f = tmp_path / f"rows{suffix}"
        _write(f, rows)
        data = ReportData()
        for r in read_rows(f):
            data.add(r)
        reps.append(build_report(data))
    assert reps[0] == reps[1]


def test_bad_rows_are_one_line_errors(tmp_path: Path, cli) -> None:
    f = tmp_path / "bad.jsonl"
    f.write_text('{"scores": [1, 2], "winners": [0], "length": 3}\n{"scores": "x"}\n')
    code, _, err = cli("report", str(f), "--out", str(tmp_path / "r.html"))
    assert code == 2 and err == f"error: {f}: line 2: field 'scores' must be a non-empty list of numbers\n"
    f.write_text('{"scores": [1, 2], "winners": [5], "length": 3}\n')
    code, _, err = cli("report", str(f), "--out", str(tmp_path / "r.html"))
    assert code == 2 and "field 'winners' must list seat numbers 0..1" in err
    f.write_text("{nope\n")
    code, _, err = cli("report", str(f), "--out", str(tmp_path / "r.html"))
    assert code == 2 and "line 1: not valid JSON" in err
    code, _, err = cli("report", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "no such file" in err
    code, _, err = cli("report", str(f), "--out", str(tmp_path / "r.pdf"))
    assert code == 2 and "use an .html file name" in err


def test_report_escapes_hostile_text(tmp_path: Path) -> None:
    rows = _synthetic_rows()
    for r in rows:
        r["bots"] = [HOSTILE, "random"]
        r["setup"] = r["setup"].replace("lords", "lo<rds&")
    f = tmp_path / "rows.jsonl"
    _write(f, rows)
    out = tmp_path / "r.html"
    write_report(f, out)
    html = out.read_text()
    assert HOSTILE not in html and "<script" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "lo&lt;rds&amp;" in html


CHROMIUM = "/usr/bin/chromium"


@pytest.mark.browser
def test_report_opens_in_chromium(tmp_path: Path, cli) -> None:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"Chromium not installed at {CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    rows = tmp_path / "kb.jsonl"
    code, _, err = cli("simulate", "kingdom-builder", "-p", "random,random", "-n", "40", "-j", "2",
                       "--out", str(rows), "-q", "--report", str(tmp_path / "kb.html"))
    assert code == 0, err
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                                           "--disable-background-networking"])
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            requests: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            page.goto((tmp_path / "kb.html").as_uri())
            captions = page.locator("figure.plot figcaption").all_inner_texts()
            assert captions[:2] == ["Score distribution per seat and bot", "Win share by turn position"]
            assert "Mean score per card" in captions and "Mean score per pair of cards" in captions
            sizes = page.eval_on_selector_all(
                "figure.plot svg", "els => els.map(e => e.getBoundingClientRect().width)")
            assert len(sizes) == len(captions) >= 6 and min(sizes) > 100
            assert page.locator("table.family[data-family=card] tr").count() >= 6
            assert "Start player's win share per pair of cards" in captions
            assert "Game length" in captions
            assert page.locator("table.pairs[data-family=card] tr").count() >= 2
            assert page.locator("#game-length td").count() == 7
            page.locator("#all-tests summary").click()
            assert page.locator("#all-tests tr").count() >= 3  # the header, the 2 position tests
            # no cell wraps ("46 / 200", "46.14 (42.41 – 49.87)" on one line: new-user item 19)
            page.set_viewport_size({"width": 1400, "height": 1000})
            wrapped = page.eval_on_selector_all("td", """els => els.filter((td) => {
              const r = document.createRange(); r.selectNodeContents(td);
              return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1;
            }).map((td) => td.textContent)""")
            assert wrapped == [], wrapped[:5]
            artifacts = Path(__file__).resolve().parents[2] / "test-artifacts" / "sim"
            artifacts.mkdir(parents=True, exist_ok=True)
            page.set_viewport_size({"width": 1280, "height": 800})
            page.screenshot(path=str(artifacts / "report-desktop.png"), full_page=True)
            assert errors == []
            assert all(u.startswith("file://") for u in requests)  # self-contained
        finally:
            browser.close()


def test_parquet_rows_give_the_same_report(tmp_path: Path, cli) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow not installed (citybuilders[parquet])")
    reps = []
    for suffix in (".jsonl", ".parquet"):
        f = tmp_path / f"rows{suffix}"
        code, _, err = cli("simulate", "sprawlopolis", "-p", "random", "-n", "30", "--out", str(f), "-q")
        assert code == 0, err
        data = ReportData()
        for r in read_rows(f):
            data.add(r)
        reps.append(build_report(data))
    assert reps[0] == reps[1] and reps[0]["games"] == 30
    assert "condition" in reps[0]["families"] and reps[0]["rate_label"] == "target reached"
    code, _, err = cli("simulate", "sprawlopolis", "-p", "random", "-n", "3", "--resume", "--out",
                       str(tmp_path / "rows.parquet"))
    assert code == 2 and "--resume works with .csv and .jsonl outputs" in err


def test_a_level_seen_in_few_games_is_shown_but_not_tested(tmp_path: Path) -> None:
    rows = _synthetic_rows()
    for row in rows[:3]:  # 3 games with a card nobody else had, scoring far above the rest
        row["setup"] = row["setup"].replace("farmers", "hermits")
        row["scores"] = [90, 10]
    data = ReportData()
    for row in rows:
        data.add(row)
    rep = build_report(data)
    hermits = {c["level"]: c for c in rep["families"]["card"]}["hermits"]
    assert hermits["games"] == 3 and hermits["mean"] == 50.0  # both seats' scores
    assert hermits["tested"] is False and hermits["p_mean"] == 1.0
    assert hermits["sig_mean"] is False
    assert not [t for t in rep["tests"] if "hermits" in t["claim"]]
    f = tmp_path / "rows.jsonl"
    f.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = tmp_path / "r.html"
    write_report(f, out)
    assert "too few games" in out.read_text()
