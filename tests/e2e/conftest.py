"""Real-browser end-to-end fixtures: a live server on a loopback port and headless Chromium.

The server runs in a thread of the test process (uvicorn) with the test games registered; the
browser is Debian's Chromium at /usr/bin/chromium driven by Playwright (never downloaded).
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).parent == here:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"Chromium not installed at {CHROMIUM} (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright (Python) not installed")
    import uvicorn
    from helpers import register_test_games, unregister_test_games

    from citybuilders.server import create_app

    register_test_games()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"
    app = create_app(f"sqlite:///{db}")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", ws="websockets-sansio"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started and time.time() < deadline:
        time.sleep(0.05)
    assert server.started, "server did not start"
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    unregister_test_games()


@pytest.fixture(scope="session")
def browser(live_server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"])
        # the pages' strict Content-Security-Policy forbids eval, which Playwright uses to poll
        # a wait_for_function given as an expression string: test contexts bypass the policy
        # unless they ask not to (test_hostile_text.py checks it in contexts that enforce it)
        plain_context = b.new_context
        b.new_context = lambda **kw: plain_context(**{"bypass_csp": True, **kw})
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    p = ctx.new_page()
    errors: list[str] = []
    console: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    # console errors include failed loads (a 404 favicon showed up on every page)
    p.on("console", lambda m: console.append(f"{m.text} {m.location.get('url', '')}")
         if m.type == "error" else None)
    p.js_errors = errors  # type: ignore[attr-defined]
    p.console_errors = console  # type: ignore[attr-defined]
    yield p
    ctx.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
