"""The citybuilders web app: ``create_app(db_url)`` (FastAPI) and ``run(host, port, db)``.

See docs/server.md for running it, database URLs, the HTTP/WebSocket API and the security model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["create_app", "run"]

if TYPE_CHECKING:  # pragma: no cover
    from fastapi import FastAPI


def create_app(db_url: str | None = None, limits: Any = None, create_rate: int | None = None,
               max_body: int = 2_000_000) -> "FastAPI":
    """The FastAPI app on database ``db_url`` (None: SQLite file in the user data dir);
    ``limits``: a ``manager.MemoryLimits`` (None: from the environment); ``create_rate`` games
    per minute per client address (None: no limit), ``max_body`` the request body limit in
    bytes."""
    from .app import create_app as _create

    return _create(db_url, limits, create_rate=create_rate, max_body=max_body)


def run(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
        limits: Any = None, create_rate: int | None = None, max_body: int = 2_000_000) -> None:
    """Serve with uvicorn on ``host:port``; ``db`` is any SQLAlchemy URL (None: default);
    ``limits``, ``create_rate`` and ``max_body`` as for ``create_app``."""
    from .app import run as _run

    _run(host, port, db, limits, create_rate=create_rate, max_body=max_body)
