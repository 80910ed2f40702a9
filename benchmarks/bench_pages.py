"""Play-page benchmark in a real browser: page weight and time from "Start" to the first
highlighted move, per game.

Starts ``citybuilders.server`` with uvicorn in a subprocess on 127.0.0.1 (fresh SQLite file) and
headless Chromium (/usr/bin/chromium, Playwright). For each game, ``--runs`` times (default 5):

* "Start": the game is created with the same JSON request the home page's start sends
  (``POST /api/games``, the human in seat 0 against a greedy bot, or solo) and its play page
  is opened; the clock runs from that request to the moment the first highlighted target
  (``#board .cb-target`` or a choice button) is on the page: create + HTML + scripts + the
  first view (SVG, legal moves) + drawing it;
* page weight: the bytes the browser received for that page load (HTML, CSS, JS, the view
  over the WebSocket and the favicon), from the transfer sizes of the resources plus the
  WebSocket frames.

Printed: median and max of the time, the median weight in KB, and the budget (Kingdom Builder:
page ≤ 150 KB, first move ≤ 0.5 s) side by side. The machine's load average is printed too:
on a shared machine the times are upper bounds.

Usage: ``python benchmarks/bench_pages.py [--runs 5] [--games kingdom-builder,sprawlopolis]``.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx

SEATS = {
    "kingdom-builder": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
    "sprawlopolis": [{"kind": "human"}],
    "roll-into-town": [{"kind": "human"}],
    "roll-builder": [{"kind": "human"}],
}
BUDGET = {"kingdom-builder": (150.0, 0.5)}
READY = ("document.querySelector('#board [data-key].cb-target, #choices button.cb-choice')")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, db: str) -> subprocess.Popen:
    code = f"from citybuilders.server import run; run('127.0.0.1', {port}, 'sqlite:///' + {db!r})"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL)
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=0.5)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


def one_run(browser, base: str, game: str, seed: int) -> tuple[float, float]:
    """(seconds from Start to the first highlighted move, KB received)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = ctx.new_page()
    ws_bytes = [0]
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda f: ws_bytes.__setitem__(0, ws_bytes[0] + len(f if isinstance(f, (bytes, str)) else f.get("payload", "")))))
    t0 = time.perf_counter()
    r = httpx.post(base + "/api/games", json={"game": game, "seats": SEATS[game], "seed": seed})
    r.raise_for_status()
    page.goto(base + r.json()["play_url"])
    page.wait_for_function(READY, polling="raf", timeout=30000)
    elapsed = time.perf_counter() - t0
    size = page.evaluate("""() => performance.getEntriesByType('navigation').concat(
        performance.getEntriesByType('resource')).reduce((n, e) => n + (e.transferSize || e.encodedBodySize || 0), 0)""")
    ctx.close()
    return elapsed, (size + ws_bytes[0]) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games", default=",".join(SEATS))
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(port, os.path.join(tmp, "bench.sqlite3"))
        base = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                             args=["--no-sandbox", "--disable-gpu"])
                one_run(browser, base, "sprawlopolis", 0)  # warm up (imports, caches)
                print(f"command: python benchmarks/bench_pages.py --runs {args.runs} "
                      f"--games {args.games}")
                print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
                print(f"{'game':<18}{'Start→move med':>16}{'max':>8}{'weight KB':>11}"
                      f"{'budget':>18}")
                for game in args.games.split(","):
                    runs = [one_run(browser, base, game, 100 + k) for k in range(args.runs)]
                    times = [t for t, _ in runs]
                    kb = statistics.median(w for _, w in runs)
                    budget = BUDGET.get(game)
                    note = f"≤{budget[0]:.0f} KB, ≤{budget[1]} s" if budget else "-"
                    print(f"{game:<18}{statistics.median(times):>14.3f} s{max(times):>7.2f}s"
                          f"{kb:>10.1f}{note:>18}")
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
