"""A throw-away PostgreSQL cluster for the tests and benchmarks: ``initdb`` + ``pg_ctl`` in a
temporary directory, run as an unprivileged user, on a free port of 127.0.0.1 (and a Unix
socket in the same directory); stopped and deleted by ``stop()``.

PostgreSQL refuses to run as root: when the tests run as root, the cluster runs as ``nobody``
(``subprocess`` ``user=``/``group=``), its directory handed to that user.

``find_bindir()`` finds the server binaries: ``$CITYBUILDERS_PG_BINDIR``, else the newest
``/usr/lib/postgresql/<version>/bin`` (Debian's ``postgresql`` package), else ``initdb`` on
``PATH``; None if there is none (the tests marked ``postgres`` are then skipped with that
reason; ``scripts/test.sh`` installs the package when it is missing).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["Cluster", "find_bindir", "MISSING"]

MISSING = ("PostgreSQL server binaries not found (install Debian's 'postgresql' package, as "
           "scripts/test.sh does, or set CITYBUILDERS_PG_BINDIR)")


def find_bindir() -> str | None:
    """The directory holding ``initdb``, ``pg_ctl`` and ``postgres``, or None."""
    env = os.environ.get("CITYBUILDERS_PG_BINDIR")
    if env:
        return env if os.path.exists(os.path.join(env, "initdb")) else None
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if found:
        def version(p: str) -> float:
            try:
                return float(p.split("/")[4])
            except ValueError:
                return 0.0
        return os.path.dirname(max(found, key=version))
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """One PostgreSQL cluster. ``durable`` False (tests): ``fsync=off`` and no synchronous
    commit, since a test kills server processes, never the machine; True (benchmarks): the
    server's defaults, every commit flushed to disk."""

    def __init__(self, durable: bool = False, bindir: str | None = None) -> None:
        found = bindir or find_bindir()
        if found is None:
            raise RuntimeError(MISSING)
        self.bindir = found
        self.durable = durable
        self.port = _free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="cb-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self._run_as: dict[str, int] = {}
        if os.geteuid() == 0:  # initdb refuses root: the cluster belongs to nobody
            pw = pwd.getpwnam("nobody")
            self._run_as = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        os.chmod(self.dir, 0o755)
        self._started = False
        self._next_db = 0

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run([os.path.join(self.bindir, args[0]), *args[1:]], check=True,
                              capture_output=True, text=True, timeout=timeout, cwd=self.dir,
                              env={**os.environ, "LC_ALL": "C", "TZ": "UTC"}, **self._run_as)

    def start(self) -> "Cluster":
        """``initdb`` (user ``postgres``, trust authentication) and ``pg_ctl start``; waits
        until the server accepts connections. RuntimeError with the server log on failure."""
        try:
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust",
                      "-E", "UTF8", "--locale=C", "--no-sync")
            opts = [f"-p {self.port}", f"-k {self.dir}", "-c listen_addresses=127.0.0.1",
                    "-c max_connections=300", "-c shared_buffers=32MB"]
            if not self.durable:
                opts += ["-c fsync=off", "-c synchronous_commit=off",
                         "-c full_page_writes=off"]
            self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                      "-o", " ".join(opts), "start")
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            log = self.log.read_text() if self.log.exists() else ""
            out = getattr(exc, "stderr", "") or ""
            self.stop()
            raise RuntimeError(f"PostgreSQL did not start: {out}\n{log}") from None
        self._started = True
        return self

    def url(self, database: str = "postgres", unix_socket: bool = False) -> str:
        """An SQLAlchemy URL of ``database`` (TCP, or the Unix socket in the cluster folder:
        the ``?host=/path`` form)."""
        if unix_socket:
            return f"postgresql+psycopg://postgres@/{database}?host={self.dir}&port={self.port}"
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "t") -> str:
        """A new empty database; its URL."""
        import psycopg

        self._next_db += 1
        name = f"{prefix}{os.getpid()}_{self._next_db}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """``pg_ctl stop -m immediate`` and delete the folder."""
        if self._started:
            try:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop",
                          timeout=60)
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
                pass
            self._started = False
        for _ in range(3):
            try:
                shutil.rmtree(self.dir)
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.2)
