"""The service as operators run it: gunicorn in its own process, on a free port.

Process-level tests (fuzzing, faults, the Procfile, benchmarks) start it with
the same config module production uses, against a Redis of their choosing.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.support.redis_servers import Throwaway, free_port

ROOT = Path(__file__).resolve().parents[2]


def spawn_logged(argv: list[str], env: dict[str, str], log_path: Path, cwd: Path = ROOT) -> subprocess.Popen:
    """A child in a session of its own (in the checkout unless `cwd`), its output appended to `log_path`."""
    with open(log_path, "ab") as log:
        return subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def wait_until_healthy(url: str, timeout: float = 20.0, process: subprocess.Popen | None = None) -> None:
    """Poll GET /healthz until it answers 200; fail early if `process` died."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"service exited with {process.returncode} before answering")
        if time.monotonic() > deadline:
            raise RuntimeError(f"service at {url} not healthy within {timeout} s")
        time.sleep(0.1)


def stop_process_group(process: subprocess.Popen, timeout: float = 10.0) -> None:
    """SIGTERM the process's group, then SIGKILL what is left after `timeout`."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout)


class LiveService(Throwaway):
    """gunicorn serving service.wsgi:app with `workers` workers on a free loopback port."""

    def __init__(
        self, redis_url: str, log_path: Path, *, workers: int = 2, env: dict[str, str] | None = None
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = Path(log_path)
        self.env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "WEB_CONCURRENCY": str(workers),
            **(env or {}),
        }
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.spawn()
        assert self.process is not None
        wait_until_healthy(self.url, process=self.process)

    def spawn(self) -> None:
        """Start gunicorn without waiting for it to answer (tests of its start-up)."""
        argv = [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            "python:service.run.gunicorn_conf",
            "service.wsgi:app",
        ]
        self.process = spawn_logged(argv, self.env, self.log_path)

    @property
    def pid(self) -> int:
        """The gunicorn arbiter's process id (the service has started)."""
        assert self.process is not None, "the service was not started"
        return self.process.pid

    def close(self) -> None:
        if self.process is not None:
            stop_process_group(self.process)

    def log(self) -> str:
        """What the service printed so far (for failure messages)."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def worker_pids(service: LiveService) -> set[int]:
    """The gunicorn arbiter's child processes: its workers."""
    pid = service.pid
    with open(f"/proc/{pid}/task/{pid}/children") as children:
        return {int(child) for child in children.read().split()}
