"""How full the Redis is: `used_memory` against `maxmemory` (INFO memory), for the store reserve.

Beside the game store, on the same Redis link. The web app asks before it
creates something new (service/api/middleware/store_reserve.py says what);
one INFO per process at most every `max_age` seconds, so a burst of
creations costs one round trip a second, not one each.

On a Redis Cluster INFO goes to every node, and the store counts as
nearly full when any node is: a new game's keys land on the node its
random id hashes to (unknown until the id is drawn), and the lobby's index,
the seeks and the players' lists each live on one fixed node; a node that
fills refuses every write on it, the moves of the games it holds included.
Keeping every node inside its reserve keeps each of those games playable.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from .connections import RedisLink
from .store import StorageError


def _fullness(info: Any) -> float:
    """used_memory / maxmemory of one node's INFO memory (its text, or as redis-py parsed it); 0.0 without a limit."""
    if isinstance(info, str):
        info = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    if not isinstance(info, Mapping):
        return 0.0
    limit = int(info.get("maxmemory", 0) or 0)
    return int(info.get("used_memory", 0) or 0) / limit if limit > 0 else 0.0


class StoreMemory:
    """The fullest node's used_memory / maxmemory, read at most every `max_age` seconds by this process."""

    def __init__(self, link: RedisLink, max_age: float = 1.0):
        self._link = link
        self.max_age = max_age
        self._read_at: float | None = None
        self._fullness = 0.0

    def fullness(self) -> float:
        """used_memory / maxmemory of the fullest node (0.0: no limit, or INFO could not be read)."""
        now = time.monotonic()
        if self._read_at is None or now - self._read_at >= self.max_age:
            self._read_at = now
            try:
                info = self._link.command("memory_info", "INFO", "memory")
            except StorageError:
                # Unknown: the write that follows meets the same Redis and answers for itself.
                info = ""
            # A cluster answers per node: {node name: its INFO}; a single server, its INFO.
            single = isinstance(info, str) or "used_memory" in info
            nodes = [info] if single else list(info.values())
            self._fullness = max((_fullness(node) for node in nodes), default=0.0)
        return self._fullness
