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
