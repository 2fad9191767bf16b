"""The service as operators run it, for schemathesis to fuzz: gunicorn, 2 workers, a redis-server of its own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live_service import LiveService
from tests.redis_servers import ThrowawayRedis


@pytest.fixture(scope="session")
def fuzz_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveService]:
    """A live service on its own Redis (fuzzing fills it with thousands of games)."""
    work = tmp_path_factory.mktemp("fuzz")
    with ThrowawayRedis(work / "redis") as redis, LiveService(redis.url, work / "service.log") as service:
        yield service
