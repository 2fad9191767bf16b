"""One owner per data directory: an flock held for the owner's life, with its pid in the file.

Two embedded Redis servers on one append-only file corrupt it, and two
services sharing one server stop it under each other. The kernel drops an
flock when its holder dies, even by kill -9, so a crash never leaves the
directory locked.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_FILE = "patchwork-service.lock"


class DataDirInUse(RuntimeError):
    """Another process holds the data directory."""


class DataDirLock:
    """An exclusive, non-blocking flock on data_dir/patchwork-service.lock."""

    def __init__(self, data_dir: Path):
        self.path = Path(data_dir) / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock and write our pid into the file, or raise DataDirInUse naming the holder."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise DataDirInUse(
                f"the data directory {self.path.parent} is in use by another patchwork-service "
                f"(pid {holder}, lock file {self.path}): stop that one first, or set "
                f"PATCHWORK_DATA_DIR to another directory"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        # The file stays: removing it would let a third process lock a new
        # file while a second still waits on the old one.
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
