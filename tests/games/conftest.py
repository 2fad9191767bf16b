"""Fixtures of the game-play core's tests: GamePlay on a real store, single node and cluster.

Every test that takes `store` runs on a single redis-server (`[single]`) and
on a 3-master Redis Cluster (`[cluster]`), as the API's tests do: the core's
promises hold on both. The backends are the whole suite's (tests/conftest.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from service.games import GamePlay, KeptCopies
from service.storage import GameStore, open_store
from tests.backends import Backend

# Room for every game a test plays: a kept copy is never evicted by accident.
KEPT = 16


@pytest.fixture
def store(backend: Backend) -> Iterator[GameStore]:
    opened = open_store(backend.url, cluster=backend.cluster)
    yield opened
    opened.close()


@pytest.fixture
def single_store(redis_url: str) -> Iterator[GameStore]:
    """A store on the single server alone: round trips are counted there (tests/redis_monitor.py)."""
    opened = open_store(redis_url)
    yield opened
    opened.close()


@pytest.fixture
def play(store: GameStore) -> GamePlay:
    """One process's game play: it keeps copies of the games it stores."""
    return GamePlay(store, KeptCopies(KEPT))


@pytest.fixture
def other_process(store: GameStore) -> Callable[[], GamePlay]:
    """Another process on the same store, with copies of its own (none of `play`'s)."""
    return lambda: GamePlay(store, KeptCopies(KEPT))
