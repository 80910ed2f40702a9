"""Helpers for the simulation tests: run the CLI in-process or as a subprocess."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from citybuilders.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def cli_process(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    """``python -m citybuilders ARGS`` in its own session (so the test can signal it alone),
    with Ctrl-C's default handling: a pytest-xdist worker ignores SIGINT, and an ignored signal
    is inherited, so the child would never see the test's Ctrl-C (it ran to the end, exit 0)."""
    return subprocess.Popen([sys.executable, "-m", "citybuilders", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=dict(os.environ, **(env or {})),
                            preexec_fn=_default_sigint)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def cli(capsys):
    return lambda *args: run_cli(capsys, *args)
