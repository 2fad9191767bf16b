"""Bot worker and timekeeper processes (`python -m service.botworker`, `...timekeeper_main`) for tests, and waiting on what they do."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import requests

from tests.support.live_service import spawn_logged, stop_process_group
from tests.support.redis_servers import Throwaway

T = TypeVar("T")

# Whole games in tests: a bot's search gets a few milliseconds, not its level's second.
TEST_THINK_MS = "50"


def wait_for(what: Callable[[], T | None], timeout: float, message: str, every: float = 0.05) -> T:
    """Poll `what` until it returns something true; fail with `message` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        found = what()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{message} (not within {timeout:g} s)")
        time.sleep(every)


def create_bot_game(base_url: str, players: list[dict], timeout: float = 20, **options) -> dict:
    """POST /games with bot seats, again until a bot worker's heartbeat lets it through (503 before)."""

    def create() -> dict | None:
        resp = requests.post(f"{base_url}/games", json={"players": players, **options}, timeout=10)
        return resp.json() if resp.status_code == 201 else None

    return wait_for(create, timeout, "bot games refused")


class BotWorkerProcess(Throwaway):
    """One `patchwork-worker` on `redis_url`, its output in `log_path`."""

    module = "service.botworker"

    def __init__(
        self,
        redis_url: str,
        log_path: Path,
        *,
        cluster: bool = False,
        think_ms: str = TEST_THINK_MS,
        env: dict[str, str] | None = None,
    ):
        self.log_path = Path(log_path)
        self.env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "REDIS_CLUSTER": "1" if cluster else "0",
            "BOT_THINK_MS": think_ms,
            **(env or {}),
        }
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = spawn_logged([sys.executable, "-m", self.module], self.env, self.log_path)

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """kill -9, as a crash would."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def close(self) -> None:
        if self.process is not None:
            stop_process_group(self.process)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


class TimekeeperProcess(BotWorkerProcess):
    """One `patchwork-timekeeper` on `redis_url`, its output in `log_path` (BOT_THINK_MS means nothing to it)."""

    module = "service.botworker.timekeeper_main"
