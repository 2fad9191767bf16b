"""kill -9 of Redis in the middle of play loses no acknowledged move.

The Redis runs with `appendfsync always`: it writes and fsyncs each commit to
its append-only file before it answers, and the service answers 201 only
after that answer. So whatever a client was told is stored must be there
after Redis dies without warning and starts again from the same directory:
every acknowledged move in the history at its number, the stored state equal
to the replay of that history. (Moves Redis committed but whose 201 never
reached a client may be there too; nobody was promised either way.)
"""

from __future__ import annotations

import os
import signal
import time

from tests.support.history_check import assert_acks_in_history, assert_history_replays
from tests.support.live_service import LiveService
from tests.support.players import EXPECTED_STATUSES, BackgroundPlay
from tests.support.service_client import ServiceClient, wait_until_ready


def test_kill_9_loses_no_acknowledged_move(durable_redis, tmp_path):
    with LiveService(durable_redis.url, tmp_path / "service.log") as service:
        with ServiceClient(service.url) as setup:
            games = dict(setup.create_game(seed) for seed in (21, 22, 23, 24))
        with BackgroundPlay(service.url, games, clients=4) as play:
            play.wait_until(lambda: play.ack_count() >= 24, "moves accepted before the crash")
            os.kill(durable_redis.pid, signal.SIGKILL)
            deadline = time.monotonic() + 10
            while durable_redis.running:
                assert time.monotonic() < deadline, "redis-server outlived SIGKILL"
                time.sleep(0.01)
            # The clients run on into the dead store, so the kill lands among requests in flight.
            play.wait_until(lambda: play.status_count(503) >= 4, "clients see the crash")
        durable_redis.start()  # same port, same data directory
        wait_until_ready(service.url)

        assert set(play.statuses) <= EXPECTED_STATUSES, play.statuses
        with ServiceClient(service.url) as reader:
            stored = {game_id: assert_history_replays(reader, game_id) for game_id in games}
        assert_acks_in_history(play.acks, stored)
