"""``citybuilders serve --workers N``: N uvicorn processes on one port, all on one PostgreSQL
database (``server.cluster`` keeps them consistent); refused in one line for SQLite."""

from __future__ import annotations

import os
from typing import Any

from .app import WS_MAX_MESSAGE, create_app
from .cluster import SharedStore, postgres_url
from .manager import MemoryLimits
from .store import StoreError, _safe_url, is_postgresql
from ..core.i18n import N_

__all__ = ["run_workers", "worker_app"]

_ENV_DB = "CITYBUILDERS_SERVE_DB"
_ENV_RATE = "CITYBUILDERS_SERVE_CREATE_RATE"
_ENV_BODY = "CITYBUILDERS_SERVE_MAX_BODY"


def worker_app() -> Any:
    """The app of one ``--workers`` process (uvicorn factory): its settings come from the
    environment the parent ``run_workers`` set."""
    rate = int(os.environ.get(_ENV_RATE, "0")) or None
    return create_app(os.environ[_ENV_DB], MemoryLimits.from_env(), create_rate=rate,
                      max_body=int(os.environ.get(_ENV_BODY, "2000000")))


def run_workers(host: str, port: int, db: str | None, workers: int,
                limits: MemoryLimits | None = None, create_rate: int | None = None,
                max_body: int = 2_000_000) -> None:
    """Serve with ``workers`` uvicorn processes on one port, all on PostgreSQL database
    ``db`` (uvicorn restarts a worker that dies). Raises StoreError (one line) for an SQLite
    database (one process per file) or a database that cannot be opened or upgraded."""
    import uvicorn

    if db is None or not is_postgresql(db):
        raise StoreError(N_("--workers {workers}: an SQLite database is served by one process "
                            "(a second one is refused); use a PostgreSQL URL (--db "
                            "postgresql+psycopg://user@host/dbname) for several", workers=workers))
    db = postgres_url(db)
    SharedStore(db).close()  # migrate once and fail here, in one line, if it cannot be used
    limits = limits if limits is not None else MemoryLimits.from_env()
    os.environ.update({
        _ENV_DB: db, _ENV_RATE: str(create_rate or 0), _ENV_BODY: str(max_body),
        "CITYBUILDERS_MAX_LIVE_GAMES": str(limits.max_live_games),
        "CITYBUILDERS_IDLE_SECONDS": str(limits.idle_seconds),
        "CITYBUILDERS_FINISHED_SECONDS": str(limits.finished_seconds),
    })
    print(f"citybuilders: serving on http://{host}:{port}/ with {workers} processes "
          f"(database {_safe_url(db)})", flush=True)
    uvicorn.run("citybuilders.server.workers:worker_app", factory=True, workers=workers,
                host=host, port=port, log_level="warning", ws="websockets-sansio",
                timeout_keep_alive=75, backlog=4096, ws_max_size=WS_MAX_MESSAGE,
                proxy_headers=False)
