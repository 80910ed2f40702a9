"""A real local Ray head for the tests: started with this interpreter, stopped by process tree.

``python -m ray.scripts.scripts start`` (not the ``ray`` script, whose shebang may name another
environment) makes the head start its workers with this interpreter, so they import this
checkout's code. Stopping walks ``/proc`` for the head's descendants (Ray workers run in
sessions of their own) and kills exactly those: never ``ray stop``, which would stop every Ray
on the machine.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["LOOPBACK_ENV", "free_port", "start_head", "stop_head", "descendants", "cmdline"]

LOOPBACK_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
"""Makes Ray use 127.0.0.1 as this node's address (it binds its servers there)."""
HEAD_ENV = {**LOOPBACK_ENV, "RAY_agent_register_timeout_ms": "300000"}
"""The head's environment: on a busy machine Ray's dashboard agent (a Python process) may take
longer than the default 30 s to start, and the raylet then aborts."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _parents() -> dict[int, int]:
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            out[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    return out


def descendants(pid: int) -> list[int]:
    """Every living descendant of ``pid`` (from /proc)."""
    parents = _parents()
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parents.items() if pp == p]
        found += kids
        todo += kids
    return found


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


def start_head(temp: Path, cpus: int = 2) -> tuple[subprocess.Popen, str]:
    """Start a head bound to 127.0.0.1; return it and its ``host:port`` once a driver can
    connect (a throwaway driver connects first, so a timed run does not pay for the head's
    own start-up)."""
    port = free_port()
    env = dict(os.environ, **HEAD_ENV)
    proc = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--num-cpus",
         str(cpus), "--port", str(port), "--node-ip-address", "127.0.0.1",
         "--include-dashboard=false", "--temp-dir", str(temp), "--object-store-memory",
         "100000000", "--disable-usage-stats", "--block"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env)
    address = f"127.0.0.1:{port}"
    deadline = time.time() + 120
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                stop_head(proc)
                raise RuntimeError("Ray head did not come up")
            time.sleep(0.2)
    if not _probe(proc, address, env):
        stop_head(proc)
        raise RuntimeError("cannot connect a driver to the Ray head (it exited or did not answer)")
    return proc, address


def _probe(proc: subprocess.Popen, address: str, env: dict[str, str]) -> bool:
    """Connect a throwaway driver (up to 3 tries, 5 minutes); False if the head exits first."""
    code = ("import ray, sys; ray.init(address=sys.argv[1], logging_level='ERROR', "
            "log_to_driver=False); ray.shutdown()")
    for _ in range(3):
        probe = subprocess.Popen([sys.executable, "-c", code, address], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 300
        while probe.poll() is None and proc.poll() is None and time.time() < deadline:
            time.sleep(0.2)
        if probe.poll() is None:
            probe.kill()
            probe.wait()
        if probe.returncode == 0:
            return True
        if proc.poll() is not None:
            return False
    return False


def stop_head(proc: subprocess.Popen) -> None:
    """Stop the head and every process it started."""
    family = descendants(proc.pid)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        pass
    for p in set(family + descendants(proc.pid)):
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(10)
