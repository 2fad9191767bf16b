"""The private Redis of `patchwork-service` when no REDIS_URL is given.

It listens only on a Unix socket in the data directory (no TCP port, so
nothing else on the machine can reach it) and keeps an append-only file
there, fsynced every second, so games survive a restart of the service.
Its memory is bounded (`maxmemory`) and never evicts: past the limit it
refuses writes, which the service answers 503, instead of growing until the
machine kills it or dropping games.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from pathlib import Path

from service.config import DEFAULT_EMBEDDED_REDIS_MAXMEMORY

from .redis_process import RedisServerProcess, answers_ping, find_redis_server

__all__ = ["EmbeddedRedis", "find_redis_server"]

log = logging.getLogger(__name__)

# sun_path holds 108 bytes on Linux and 104 on macOS, the terminating NUL included.
_MAX_SOCKET_PATH = 100


def _socket_path(data_dir: Path) -> Path:
    """The socket in data_dir, or a short stable path in the temp dir when that one is too long."""
    path = data_dir / "redis.sock"
    if len(os.fsencode(path)) <= _MAX_SOCKET_PATH:
        return path
    # Stable per data dir, so a later run finds (and reuses) the same server.
    digest = hashlib.sha256(os.fsencode(data_dir)).hexdigest()[:16]
    short = Path(tempfile.gettempdir()) / f"patchwork-redis-{os.getuid()}-{digest}.sock"
    log.warning(
        "socket path %s is too long for a Unix socket; using %s instead", path, short
    )
    return short


class EmbeddedRedis:
    """A redis-server on a Unix socket in data_dir, with append-only persistence there."""

    def __init__(self, data_dir: Path, maxmemory: str = DEFAULT_EMBEDDED_REDIS_MAXMEMORY):
        """`maxmemory` as Redis takes it (`256mb`; `0`: no limit)."""
        self.data_dir = Path(data_dir).absolute()
        self.maxmemory = maxmemory
        self.socket_path = _socket_path(self.data_dir)
        self.url = f"unix://{self.socket_path}"
        self._process: RedisServerProcess | None = None

    def start(self, timeout: float = 10.0) -> str:
        """Start the server (or reuse one still answering on the socket); return its URL."""
        self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        if answers_ping(self.url):
            # Left running by an earlier run that did not stop it: its owner stops it, not us.
            log.info("reusing the redis-server already answering on %s", self.socket_path)
            return self.url
        process = RedisServerProcess(
            [
                "--port", "0",
                "--unixsocket", str(self.socket_path),
                "--unixsocketperm", "700",
                "--dir", str(self.data_dir),
                "--appendonly", "yes",
                "--appendfsync", "everysec",
                "--save", "",
                "--maxmemory", self.maxmemory,
                "--maxmemory-policy", "noeviction",
                "--daemonize", "no",
            ],
            self.url,
            self.data_dir / "redis.log",
        )
        process.start(timeout)
        self._process = process
        log.info("started redis-server on %s, data in %s", self.socket_path, self.data_dir)
        return self.url

    def stop(self) -> None:
        """Shut down the server this object started (a reused one keeps running)."""
        if self._process is not None:
            self._process.stop()
            self._process = None

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
