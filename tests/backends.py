"""The Redis backends a test app or a test store runs on: a single server or a 3-master cluster.

The fixtures that hand them out (`backend`, `redis_cluster`, `cluster_nodes`) are in
tests/conftest.py, so that every directory's tests share one cluster per session.
"""

from __future__ import annotations

from dataclasses import dataclass

from redis import Redis

from service.config import Settings


def make_settings(redis_url: str, **overrides) -> Settings:
    """Settings for a test app on `redis_url`."""
    return Settings(redis_url=redis_url, **overrides)


@dataclass(frozen=True)
class Backend:
    """The Redis a test app stores its games in, and a client per node to look inside."""

    name: str
    url: str
    cluster: bool
    nodes: tuple[Redis, ...]  # one client per master (one for a single server)

    def settings(self, **overrides) -> Settings:
        return make_settings(self.url, redis_cluster=self.cluster, **overrides)
