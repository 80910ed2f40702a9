"""Reading a file a user names, safely: regular files only, never more than a limit.

The one reader behind every file the command line opens (score files, positions, records,
sheet files). A FIFO, a device or a directory is refused before anything is read (opening
does not block: ``O_NONBLOCK``), and the size is checked before and while reading, so
``/dev/zero`` or a file that grows cannot exhaust memory.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Callable

__all__ = ["NotRegularFile", "FileTooLarge", "read_regular_file"]


class NotRegularFile(OSError):
    """The path is a directory (``is_dir``), a FIFO, a device or a socket."""

    def __init__(self, path: Path, is_dir: bool) -> None:
        super().__init__(f"{path}: not a regular file")
        self.is_dir = is_dir


class FileTooLarge(OSError):
    """The file holds more than the limit; ``size`` is its size when known before reading."""

    def __init__(self, path: Path, size: int | None) -> None:
        super().__init__(f"{path}: too large")
        self.size = size


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises FileNotFoundError, NotRegularFile, FileTooLarge, or another OSError (unreadable)."""
    p = Path(path)
    fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(p, stat.S_ISDIR(st.st_mode))
        if st.st_size > limit:
            raise FileTooLarge(p, st.st_size)
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(limit + 1)  # the file may have grown since fstat
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise FileTooLarge(p, None)
    return raw


def read_json_file(path: str | os.PathLike[str], limit: int, where: str) -> Any:
    """The parsed JSON of a user's file for the command line (the engines never open files):
    a regular file of at most ``limit`` bytes (:func:`read_regular_file`), UTF-8, JSON without
    lone surrogates. Serves Kingdom Builder's sections files and Roll Builder's sheet files.

    Raises FormatError ``<where>: <path or name>: <problem>`` (one line, translatable)."""
    from .errors import FormatError
    from .i18n import N_
    from .jsonsafe import text_problem

    def err(problem: str) -> FormatError:
        return FormatError(N_("{where}: {problem}", where=where, problem=problem))

    p = Path(path)
    try:
        raw = read_regular_file(p, limit)
    except FileNotFoundError:
        raise err(N_("{p!r}: no such file", p=str(p))) from None
    except NotRegularFile:
        raise err(N_("{p!r}: not a regular file", p=str(p))) from None
    except FileTooLarge as exc:
        if exc.size is None:
            raise err(N_("{p!r}: larger than {limit} bytes", p=str(p), limit=limit)) from None
        raise err(N_("{p!r}: {size} bytes; allowed: at most {limit} bytes",
                     p=str(p), size=exc.size, limit=limit)) from None
    except OSError as exc:
        raise err(N_("{p!r}: cannot read ({value})", p=str(p), value=exc.strerror or exc)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise err(N_("{name}: not a UTF-8 text file", name=p.name)) from None
    value = loads_json(text, lambda problem: err(N_("{name}: {problem}", name=p.name,
                                                     problem=problem)))
    problem = text_problem(value, f"{where}: {p.name}")
    if problem is not None:
        raise FormatError(problem)
    return value


def loads_json(text: str, fail: Callable[[str], Exception], limit: int | None = None) -> Any:
    """``json.loads(text)`` for a user's document: at most ``limit`` bytes of UTF-8 (None: no
    cap), and every problem (too large, nested too deeply, not JSON, an integer of thousands of
    digits) raised as ``fail(problem)`` with a translatable one-line ``problem``. Serves
    :func:`read_json_file` and the document options (Kingdom Builder's ``sections_doc``, Roll
    Builder's ``sheet_doc``) given as JSON text."""
    import json

    from .i18n import N_, json_reason

    if limit is not None:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > limit:
            raise fail(N_("{size} bytes; allowed: at most {limit} bytes", size=size, limit=limit))
    try:
        return json.loads(text)
    except RecursionError:
        raise fail(N_("nested too deeply")) from None
    except json.JSONDecodeError as exc:
        raise fail(N_("not valid JSON ({msg} at line {lineno} column {colno})",
                      msg=json_reason(exc), lineno=exc.lineno, colno=exc.colno)) from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise fail(N_("not valid JSON ({split})", split=str(exc).split(";")[0])) from None
