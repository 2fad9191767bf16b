"""`patchwork-service` as operators run it (`python -m service`), with its embedded Redis.

The process tree is read from /proc: the tests kill its children for real
and check that nothing it started outlives it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.live_service import ROOT, spawn_logged, stop_process_group, wait_until_healthy
from tests.support.redis_servers import Throwaway, free_port


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), or None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None


def identity(pid: int) -> tuple[int, str] | None:
    """(pid, start time): tells a process apart from a later one given the same pid."""
    fields = _stat(pid)
    return None if fields is None else (pid, fields[19])


def alive(process: tuple[int, str]) -> bool:
    """Whether that very process still runs (a zombie does not)."""
    fields = _stat(process[0])
    return fields is not None and fields[19] == process[1] and fields[0] != "Z"


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        fields = _stat(int(stat.parent.name))
        if fields is not None and int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def descendants(pid: int) -> list[int]:
    found = []
    for child in children(pid):
        found += [child, *descendants(child)]
    return found


def program(pid: int) -> str:
    """What the process runs: redis-server for /usr/bin/redis-server, gunicorn for python -m gunicorn."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return ""
    if len(argv) > 2 and argv[1] == "-m":
        return argv[2]
    return Path(argv[0].split(" ")[0]).name  # redis-server retitles itself "redis-server <socket>"


class PatchworkService(Throwaway):
    """`python -m service`: with no `redis_url`, its own Redis with data in `data_dir`.

    `command` and `cwd` run another installation of it (an installed wheel's script).
    """

    def __init__(
        self,
        data_dir: Path,
        log_path: Path,
        port: int | None = None,
        *,
        redis_url: str | None = None,
        env: dict[str, str] | None = None,
        command: list[str] | None = None,
        cwd: Path | None = None,
    ):
        self.command = command if command is not None else [sys.executable, "-m", "service"]
        self.cwd = cwd if cwd is not None else ROOT
        self.data_dir = Path(data_dir)
        self.port = port if port is not None else free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = Path(log_path)
        self.env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
        self.env.update(
            PATCHWORK_DATA_DIR=str(self.data_dir), HOST="127.0.0.1", PORT=str(self.port), WEB_CONCURRENCY="1"
        )
        if redis_url is not None:
            self.env["REDIS_URL"] = redis_url
        self.env.update(env or {})
        self.process: subprocess.Popen | None = None

    def launch(self) -> subprocess.Popen:
        self.process = spawn_logged(self.command, self.env, self.log_path, cwd=self.cwd)
        return self.process

    def refused(self, timeout: float = 30.0) -> str:
        """Launch it, expecting it to exit with an error at start-up; return what it printed."""
        process = self.launch()
        try:
            assert process.wait(timeout) != 0, self.log()
        finally:
            self.close()
        return self.log()

    def start(self) -> None:
        wait_until_healthy(self.url, timeout=30, process=self.launch())

    def child(self, name: str) -> int:
        """The pid of the one direct child that runs `name` (see program())."""
        assert self.process is not None, "the service was not started"
        found = [pid for pid in children(self.process.pid) if program(pid) == name]
        assert len(found) == 1, (name, found, self.log())
        return found[0]

    def close(self) -> None:
        if self.process is not None:
            stop_process_group(self.process, timeout=30)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
