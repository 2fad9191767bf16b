"""The service as operators run it, for schemathesis to fuzz: gunicorn, 2 workers, a bot worker, a redis-server of its own.

The bot worker plays the bot seats of the games fuzzing creates (with a few
milliseconds per move), so no generated game waits on nobody and a bot game
is created rather than refused with 503 bots_unavailable.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.storage import open_storage
from tests.support.bot_workers import BotWorkerProcess, wait_for
from tests.support.live_service import LiveService
from tests.support.redis_servers import ThrowawayRedis


@pytest.fixture(scope="session")
def fuzz_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveService]:
    """A live service on its own Redis (fuzzing fills it with thousands of games)."""
    work = tmp_path_factory.mktemp("fuzz")
    with (
        ThrowawayRedis(work / "redis") as redis,
        BotWorkerProcess(redis.url, work / "bot-worker.log", think_ms="5") as worker,
        # Thousands of games from one address, more than RATE_LIMIT_GAMES allows an hour by default
        # (issue 36): the stateful phase, the last, would meet only 429s. The other limits stay on.
        LiveService(redis.url, work / "service.log", env={"RATE_LIMIT_GAMES": "1000000"}) as service,
    ):
        storage = open_storage(redis.url)
        try:
            wait_for(storage.bot_jobs.workers_seen, 20, f"no bot worker heartbeat:\n{worker.log()}")
        finally:
            storage.close()
        yield service
