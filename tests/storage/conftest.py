"""Fixtures of the storage tests: a store on the session's flushed Redis."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from redis import Redis

from service.storage import GameStore, Storage, open_storage
from tests.support.redis_servers import ThrowawayRedis


@pytest.fixture
def storage(redis_url: str) -> Iterator[Storage]:
    """The store, bot queue and counters with the default prefix and TTL."""
    opened = open_storage(redis_url)
    yield opened
    opened.close()


@pytest.fixture
def store(storage: Storage) -> GameStore:
    return storage.games


@pytest.fixture
def redis(redis_server: ThrowawayRedis, redis_url: str) -> Iterator[Redis]:
    """A plain client on the same (flushed) server, to look at what the store wrote."""
    with redis_server.client() as client:
        yield client
