"""Fixtures of the game-play core's tests: GamePlay on a real store, single node and cluster.

Every test that takes `store` runs on a single redis-server (`[single]`) and
on a 3-master Redis Cluster (`[cluster]`), as the API's tests do: the core's
promises hold on both. The backends are the whole suite's (tests/conftest.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from service.games import GamePlay
from service.storage import GameStore, Storage, open_storage
from tests.support.backends import Backend, play_on


@pytest.fixture
def storage(backend: Backend) -> Iterator[Storage]:
    opened = open_storage(backend.url, cluster=backend.cluster)
    yield opened
    opened.close()


@pytest.fixture
def store(storage: Storage) -> GameStore:
    return storage.games


@pytest.fixture
def single_storage(redis_url: str) -> Iterator[Storage]:
    """Storage on the single server alone: round trips are counted there (tests/support/redis_monitor.py)."""
    opened = open_storage(redis_url)
    yield opened
    opened.close()


@pytest.fixture
def play(storage: Storage) -> GamePlay:
    """One process's game play: it keeps copies of the games it stores."""
    return play_on(storage)


@pytest.fixture
def other_process(storage: Storage) -> Callable[[], GamePlay]:
    """Another process on the same store, with copies of its own (none of `play`'s)."""
    return lambda: play_on(storage)
