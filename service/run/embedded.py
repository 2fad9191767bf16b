"""The private Redis of `patchwork-service` when no REDIS_URL is given.

It listens only on a Unix socket in the data directory (no TCP port, so
nothing else on the machine can reach it) and keeps an append-only file
there, fsynced every second, so games survive a restart of the service.
Its memory is bounded (`maxmemory`) and never evicts: past the limit it
refuses writes, which the service answers 503, instead of growing until the
machine kills it or dropping games.

Before a server starts on the directory, `claim()` makes it this process's:
- an flock on the directory (dir_lock.py), so a second service refuses
  instead of sharing or fighting over one server and one append-only file;
- a check that this redis-server can read what is there. Redis 7 keeps its
  append-only files in appendonlydir/ (a manifest, an RDB base file and
  increments) where Redis 6 had one appendonly.aof: Redis 7 converts the old
  file when it starts, but Redis 6 never looks in appendonlydir/ and comes up
  empty; and no Redis reads the RDB format of a newer minor version. So the
  version that last ran on the directory is kept in it, and an older one is
  refused;
- a socket path that fits in sun_path: when data_dir/redis.sock is too long,
  the socket goes into a new private temporary directory (mode 0700, random
  name), never a predictable name in the shared temp dir that another user
  could take first.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import time
from pathlib import Path

from service.config import DEFAULT_EMBEDDED_REDIS_MAXMEMORY

from .dir_lock import DataDirInUse, DataDirLock
from .redis_process import (
    RedisServerProcess,
    answers_ping,
    ask_to_shut_down,
    find_redis_server,
    redis_server_version,
)

__all__ = ["DataDirInUse", "DataDirRefused", "EmbeddedRedis", "find_redis_server"]

log = logging.getLogger(__name__)

# sun_path holds 108 bytes on Linux and 104 on macOS, the terminating NUL included.
_MAX_SOCKET_PATH = 100
# The version of the redis-server that last ran on the data dir, "7.2.4".
VERSION_FILE = "redis-version"
# The first Redis with multi-part append-only files in this directory.
_MULTI_PART_AOF_DIR, _MULTI_PART_AOF_SINCE = "appendonlydir", (7, 0, 0)


class DataDirRefused(RuntimeError):
    """The embedded Redis cannot safely run on this data directory; the message says why."""


def _version_text(version: tuple[int, ...]) -> str:
    return ".".join(str(part) for part in version)


def _written_by(data_dir: Path) -> tuple[tuple[int, int, int], str] | None:
    """The version that last ran on data_dir and how we know, or None for a new directory."""
    record = data_dir / VERSION_FILE
    if record.is_file():
        parts = record.read_text().strip().split(".")
        if len(parts) == 3 and all(part.isdigit() for part in parts):
            major, minor, patch = (int(part) for part in parts)
            return (major, minor, patch), f"Redis {record.read_text().strip()} (as {record} says)"
        raise DataDirRefused(
            f"{record} should hold a Redis version such as 7.2.4, not {record.read_text()!r}"
        )
    if (data_dir / _MULTI_PART_AOF_DIR).is_dir():
        # Written before the version was recorded, by a Redis that has its own.
        return (
            _MULTI_PART_AOF_SINCE,
            f"Redis 7 or newer (its append-only files are in {_MULTI_PART_AOF_DIR}/)",
        )
    return None


def check_and_record_version(data_dir: Path, binary: str) -> None:
    """Refuse a data dir written by a newer Redis than `binary`; record `binary`'s version."""
    version = redis_server_version(binary)
    written = _written_by(data_dir)
    if written is not None:
        written_version, who = written
        if written_version[:2] > version[:2]:
            raise DataDirRefused(
                f"the data in {data_dir} was written by {who}, and this redis-server ({binary}) is "
                f"{_version_text(version)}, which cannot read it (it would start with no games). "
                f"Put a Redis {_version_text(written_version[:2])} or newer redis-server first on PATH, "
                f"or set PATCHWORK_DATA_DIR to another directory."
            )
        if written_version[:2] < version[:2]:
            log.warning(
                "the data in %s was written by %s; redis-server %s converts it as it starts, "
                "and from now on an older Redis cannot read it",
                data_dir,
                who,
                _version_text(version),
            )
    # Recorded before the server starts: converting older files is the first
    # thing it does, so a start that fails half-way may already have done it.
    (data_dir / VERSION_FILE).write_text(_version_text(version) + "\n")


class EmbeddedRedis:
    """A redis-server on a Unix socket in data_dir, with append-only persistence there.

    `patchwork-service` claims the directory, then runs `command()` as a
    supervised child; tests and tools use `start()`/`stop()` (or `with`), which
    claim and run the server in this process's care.
    """

    def __init__(self, data_dir: Path, maxmemory: str = DEFAULT_EMBEDDED_REDIS_MAXMEMORY):
        """`maxmemory` as Redis takes it (`256mb`; `0`: no limit)."""
        self.data_dir = Path(data_dir).absolute()
        self.maxmemory = maxmemory
        self.log_path = self.data_dir / "redis.log"
        # Set by claim(): where the server listens.
        self.socket_path: Path | None = None
        self._url: str | None = None
        self._binary: str | None = None
        self._private_dir: Path | None = None
        self._lock = DataDirLock(self.data_dir)
        self._process: RedisServerProcess | None = None

    def claim(self) -> None:
        """Make the data dir ours; raise DataDirInUse or DataDirRefused (with the reason) if it cannot be."""
        self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._lock.acquire()
        try:
            self._binary = find_redis_server()
            check_and_record_version(self.data_dir, self._binary)
            self._choose_socket_path()
            self._shut_down_leftover()
        except BaseException:
            self.release()
            raise

    def _choose_socket_path(self) -> None:
        path = self.data_dir / "redis.sock"
        if len(os.fsencode(path)) > _MAX_SOCKET_PATH:
            self._private_dir = Path(tempfile.mkdtemp(prefix="patchwork-redis-"))  # mode 0700
            short = self._private_dir / "redis.sock"
            if len(os.fsencode(short)) > _MAX_SOCKET_PATH:
                raise DataDirRefused(
                    f"neither {path} nor {short} is short enough for a Unix socket "
                    f"({_MAX_SOCKET_PATH} bytes): use a shorter PATCHWORK_DATA_DIR or TMPDIR"
                )
            log.warning("socket path %s is too long for a Unix socket; using %s instead", path, short)
            path = short
        self.socket_path = path
        self._url = f"unix://{path}"

    @property
    def url(self) -> str:
        """Where the server answers (`unix://...`), once the directory is claimed."""
        if self._url is None:
            raise RuntimeError("claim() the data directory first")
        return self._url

    def _shut_down_leftover(self, timeout: float = 10.0) -> None:
        """Stop a server an earlier owner of the directory left running (it died without stopping it)."""
        if not answers_ping(self.url):
            return
        log.warning("a redis-server left by an earlier run answers on %s: shutting it down", self.socket_path)
        ask_to_shut_down(self.url)
        deadline = time.monotonic() + timeout
        while answers_ping(self.url):
            if time.monotonic() > deadline:
                raise DataDirRefused(f"the redis-server left running on {self.socket_path} did not shut down")
            time.sleep(0.05)

    def _directives(self) -> list[str]:
        return [
            "--port",
            "0",
            "--unixsocket",
            str(self.socket_path),
            "--unixsocketperm",
            "700",
            "--dir",
            str(self.data_dir),
            "--appendonly",
            "yes",
            "--appendfsync",
            "everysec",
            "--save",
            "",
            "--maxmemory",
            self.maxmemory,
            "--maxmemory-policy",
            "noeviction",
            "--daemonize",
            "no",
        ]

    def command(self) -> list[str]:
        """The redis-server command line, once the directory is claimed."""
        if self._binary is None:
            raise RuntimeError("claim() the data directory first")
        return [self._binary, *self._directives()]

    def release(self) -> None:
        """Give the directory up (the server must be stopped by then) and remove the private socket dir."""
        self._lock.release()
        if self._private_dir is not None:
            shutil.rmtree(self._private_dir, ignore_errors=True)
            self._private_dir = None

    def start(self, timeout: float = 10.0) -> str:
        """Claim the directory, start the server and return its URL once it answers."""
        self.claim()
        process = RedisServerProcess(self._directives(), self.url, self.log_path)
        try:
            process.start(timeout)
        except BaseException:
            self.release()
            raise
        self._process = process
        log.info("started redis-server on %s, data in %s", self.socket_path, self.data_dir)
        return self.url

    def stop(self) -> None:
        """Shut the server down (flushing its append-only file) and release the directory."""
        if self._process is not None:
            self._process.stop()
            self._process = None
        self.release()

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
