"""The citybuilders web app: ``create_app(db_url)`` (FastAPI) and ``run(host, port, db)``.

See docs/server.md for running it, database URLs, the HTTP/WebSocket API and the security model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["create_app", "run"]

if TYPE_CHECKING:  # pragma: no cover
    from fastapi import FastAPI


def create_app(db_url: str | None = None, limits: Any = None) -> "FastAPI":
    """The FastAPI app on database ``db_url`` (None: SQLite file in the user data dir);
    ``limits``: a ``manager.MemoryLimits`` (None: from the environment)."""
    from .app import create_app as _create

    return _create(db_url, limits)


def run(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
        limits: Any = None) -> None:
    """Serve with uvicorn on ``host:port``; ``db`` is any SQLAlchemy URL (None: default);
    ``limits``: a ``manager.MemoryLimits`` (None: from the environment)."""
    from .app import run as _run

    _run(host, port, db, limits)
