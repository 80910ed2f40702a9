"""Executors: where batches of games run (a local process pool, or a Ray cluster).

A *batch* is a contiguous index range ``[start, stop)`` of one run; a task plays a whole batch
(never one game: Ray's per-task cost is about 1 ms, so a batch is sized to >= 100 ms of work).
Executors return batches as they finish, in any order; :func:`citybuilders.sim.run.iter_rows`
puts them back in index order, so the output does not depend on the executor, the number of
workers or the batch size.

Ray is optional (``pip install citybuilders[ray]``) and imported only when ``--executor ray``
is used.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import os
import socket
from typing import Any, Iterable, Iterator, Protocol

from .batch import BatchSpec, die_with_parent, play_range, warm_up
from ..core.i18n import N_

__all__ = ["Executor", "LocalExecutor", "RayExecutor", "ExecutorError", "make_executor",
           "WORKER_NICENESS"]


class ExecutorError(Exception):
    """An executor could not start (missing package, unreachable cluster): one-line message."""


class Executor(Protocol):
    """Runs batches; ``workers`` is the number of batches that run at once."""

    workers: int

    def run(self, spec: BatchSpec, seed: int,
            batches: Iterable[tuple[int, int]]) -> Iterator[tuple[int, list[dict[str, Any]]]]:
        """Yield ``(start, rows)`` for each batch as it finishes (any order). At most
        ``2 * workers + 1`` batches are in flight, so finished-but-unwritten rows stay bounded."""
        ...  # pragma: no cover - protocol

    def close(self) -> None:
        """Release workers (idempotent)."""
        ...  # pragma: no cover - protocol

    def warm(self, spec: BatchSpec) -> None:
        """Start the workers loading ``spec``'s game now, without waiting."""
        ...  # pragma: no cover - protocol

    def ready(self) -> bool:
        """True once a worker can take a batch at once (the driver plays games until then)."""
        ...  # pragma: no cover - protocol


def _window(workers: int) -> int:
    return 2 * workers + 1


class LocalExecutor:
    """A pool of ``jobs`` processes on this machine (in-process when ``jobs == 1``)."""

    def __init__(self, jobs: int = 1) -> None:
        self.workers = max(1, jobs)
        self._pool: cf.ProcessPoolExecutor | None = None

    def run(self, spec: BatchSpec, seed: int,
            batches: Iterable[tuple[int, int]]) -> Iterator[tuple[int, list[dict[str, Any]]]]:
        if self.workers == 1:
            for start, stop in batches:
                yield start, play_range(spec, seed, start, stop)
            return
        if self._pool is None:
            self._pool = cf.ProcessPoolExecutor(self.workers, mp_context=mp.get_context(),
                                                initializer=die_with_parent)
        pending: dict[cf.Future[list[dict[str, Any]]], int] = {}
        it = iter(batches)
        try:
            while True:
                while len(pending) < _window(self.workers):
                    nxt = next(it, None)
                    if nxt is None:
                        break
                    pending[self._pool.submit(play_range, spec, seed, *nxt)] = nxt[0]
                if not pending:
                    return
                done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for fut in done:
                    start = pending.pop(fut)
                    yield start, fut.result()
        finally:
            for fut in pending:
                fut.cancel()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def warm(self, spec: BatchSpec) -> None:
        """Nothing to do: forked pool workers start in milliseconds."""

    def ready(self) -> bool:
        return True


def _check_reachable(address: str, timeout: float = 3.0) -> None:
    """Raise ExecutorError unless ``host:port`` (or ``ray://host:port``) accepts a TCP connection."""
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ExecutorError(N_("--address {address!r}: expected auto, host:port or "
                               "ray://host:port", address=address))
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise ExecutorError(N_("--address {address}: cannot reach a Ray cluster ({reason})",
                               address=address, reason=reason)) from None


WORKER_NICENESS = "0"
"""Niceness of the run's Ray workers (Ray's own ``RAY_worker_niceness`` setting, passed in the
job's runtime environment as Ray's job supervisor does). Ray starts task workers at niceness 15,
below every ordinary process, so on a machine with any other load they got a fraction of the CPU
a local pool's workers get; the workers are the run's whole work, so they run at the driver's
priority. ``RAY_worker_niceness`` in the driver's environment overrides it."""


class RayExecutor:
    """Batches as Ray tasks on a running cluster (``address``: auto, host:port, ray://host:port).

    A task whose worker dies is retried by Ray (``max_retries``), so a lost worker costs time,
    never rows. The workers run at niceness :data:`WORKER_NICENESS`. Raises ExecutorError if
    Ray is not installed or the cluster cannot be reached.
    """

    def __init__(self, address: str = "auto", max_retries: int = 10) -> None:
        try:
            import ray
        except ImportError:
            raise ExecutorError(N_("--executor ray needs Ray: pip install 'citybuilders[ray]'")) from None
        if address != "auto":
            _check_reachable(address)
        self._ray = ray
        try:
            if not ray.is_initialized():
                niceness = os.environ.get("RAY_worker_niceness", WORKER_NICENESS)
                ray.init(address=address, logging_level="ERROR", log_to_driver=False,
                         configure_logging=True,
                         runtime_env={"env_vars": {"RAY_worker_niceness": niceness}})
        except (ConnectionError, RuntimeError, ValueError) as exc:
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise ExecutorError(N_("--address {address}: cannot connect to Ray ({first})",
                                   address=address, first=first)) from None
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote = ray.remote(num_cpus=1, max_retries=max_retries)(play_range)
        self._warm = ray.remote(num_cpus=1, max_retries=0)(warm_up)
        self._warming: list[Any] = []

    def warm(self, spec: BatchSpec) -> None:
        """One start-up task per worker (Ray starts a new job's worker processes on demand,
        seconds on a busy machine): the workers start and load the game while the driver plays
        the first games itself."""
        self._warming = [self._warm.remote(spec) for _ in range(self.workers)]

    def ready(self) -> bool:
        """True once any start-up task has finished (a worker is up), or none was sent."""
        if not self._warming:
            return True
        done, _ = self._ray.wait(self._warming, num_returns=1, timeout=0)
        if done:
            self._warming = []
        return bool(done)

    def run(self, spec: BatchSpec, seed: int,
            batches: Iterable[tuple[int, int]]) -> Iterator[tuple[int, list[dict[str, Any]]]]:
        ray = self._ray
        pending: dict[Any, int] = {}
        it = iter(batches)
        # the spec (with a custom sections or sheet document, up to 64 KiB of options) goes to
        # the object store once, not once per task
        spec_ref = ray.put(spec)
        try:
            while True:
                while len(pending) < _window(self.workers):
                    nxt = next(it, None)
                    if nxt is None:
                        break
                    pending[self._remote.remote(spec_ref, seed, *nxt)] = nxt[0]
                if not pending:
                    return
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    start = pending.pop(ref)
                    yield start, ray.get(ref)
        finally:
            for ref in pending:
                try:
                    ray.cancel(ref, force=True)
                except Exception:  # pragma: no cover - best effort on shutdown
                    pass
            del spec_ref

    def close(self) -> None:
        if self._ray.is_initialized():
            self._ray.shutdown()


def make_executor(name: str, jobs: int = 1, address: str = "auto") -> Executor:
    """``"local"`` (``jobs`` processes) or ``"ray"`` (cluster at ``address``).

    Raises ExecutorError for an unknown name, a missing Ray install or an unreachable cluster.
    """
    if name == "local":
        return LocalExecutor(jobs)
    if name == "ray":
        return RayExecutor(address)
    raise ExecutorError(N_("--executor {name!r}: allowed: local, ray", name=name))
