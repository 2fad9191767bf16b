"""Throwaway redis-servers on loopback for the tests: no persistence, stopped at the end."""

from __future__ import annotations

import shutil
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Self

from redis import Redis

from service.run.redis_process import RedisServerProcess

# A cluster node also listens on its port + 10000 (the cluster bus).
CLUSTER_BUS_OFFSET = 10000


def _port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port(cluster_bus: bool = False) -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now (with its bus port, for a cluster node)."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if not cluster_bus:
            return port
        bus = port + CLUSTER_BUS_OFFSET
        if bus <= 65535 and _port_is_free(bus):
            return port


class Throwaway:
    """Started on entering a `with` block, stopped and cleaned up on leaving it."""

    def start(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.close()  # whatever did start must not outlive the failure
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class ThrowawayRedis(Throwaway):
    """A redis-server on a free loopback port that forgets everything when stopped."""

    def __init__(self, work_dir: Path, directives: Sequence[str] = (), port: int | None = None):
        self.work_dir = Path(work_dir)
        self.work_dir.mkdir(parents=True, exist_ok=True)
        self.host = "127.0.0.1"
        self.port = port if port is not None else free_port()
        self.url = f"redis://{self.host}:{self.port}"
        self._process = RedisServerProcess(
            [
                "--port",
                str(self.port),
                "--bind",
                self.host,
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.work_dir),
                *directives,
            ],
            self.url,
            self.work_dir / "redis.log",
        )

    @property
    def pid(self) -> int | None:
        """The server's process id while it runs (for SIGSTOP/SIGCONT in fault tests)."""
        return self._process.pid

    @property
    def running(self) -> bool:
        """Whether the server process is alive."""
        return self._process.running

    def start(self) -> None:
        """Start the server (again, on the same port) and wait until it answers."""
        self._process.start()

    def stop(self) -> None:
        """Shut the server down; its data is gone."""
        self._process.stop()

    def client(self) -> Redis:
        """A new redis-py client for assertions (decoded strings); close it after use."""
        return Redis(host=self.host, port=self.port, decode_responses=True, socket_timeout=5)

    def close(self) -> None:
        """Stop the server and remove its working directory."""
        self.stop()
        shutil.rmtree(self.work_dir, ignore_errors=True)
