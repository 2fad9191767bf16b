"""The Redis backends a test app or a test store runs on: a single server or a 3-master cluster.

The fixtures that hand them out (`backend`, `redis_cluster`, `cluster_nodes`) are in
tests/conftest.py, so that every directory's tests share one cluster per session.
"""

from __future__ import annotations

from dataclasses import dataclass

from redis import Redis

from service.config import Settings
from service.games import GamePlay, KeptCopies
from service.site.core import game_play
from service.storage import Storage


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


# Room for every game a test plays: a kept copy is never evicted by accident.
KEPT = 16


def play_on(storage: Storage, kept: int = KEPT) -> GamePlay:
    """The game-play core of one process on `storage` (with the site's listeners), keeping copies of up to `kept` games."""
    return game_play(storage, KeptCopies(kept))
