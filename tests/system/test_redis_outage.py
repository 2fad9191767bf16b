"""Redis goes away under a live service (stopped, or hung by SIGSTOP) and comes back.

While clients keep playing: every request that needs the store answers 503
storage_unavailable with Retry-After, each within the 2 seconds of docs/api-guide.md#errors (plus
a little slack for this shared machine), none with 500; /readyz says 503 and
/healthz 200. When Redis is back on the same port, the same gunicorn
processes (arbiter and workers) serve again without a restart, and no move
acknowledged before, during or after the outage is lost: the Redis keeps an
append-only file fsynced on every write, so a stop and start keeps its data.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.support.burst import burst
from tests.support.history_check import assert_acks_in_history, assert_history_replays
from tests.support.live_service import LiveService, worker_pids
from tests.support.players import EXPECTED_STATUSES, BackgroundPlay
from tests.support.service_client import ServiceClient, wait_until_ready

PROMISE_SECONDS = 2.0  # docs/api-guide.md#errors: a store that does not answer gets 503 within 2 s
BOUND_SECONDS = PROMISE_SECONDS + 0.5  # slack for a noisy 2-core machine, not for a second timeout
# Concurrent reads after a restart: more than a worker's pool holds, so every pooled connection is lent.
BURST_AFTER_RESTART = 100


def store_requests(game_id: str, token: str) -> list[tuple[str, str, dict]]:
    """(method, path, requests kwargs) of one call per operation that needs the store."""
    move = {"json": {"action": "advance"}, "headers": {"Authorization": f"Bearer {token}"}}
    keyed = {
        "json": {"action": "advance"},
        "headers": {"Authorization": f"Bearer {token}", "Idempotency-Key": "outage"},
    }
    return [
        ("GET", "/readyz", {}),
        ("GET", f"/games/{game_id}", {}),
        ("GET", f"/games/{game_id}/moves", {}),
        ("GET", f"/games/{game_id}/moves/1", {}),
        ("GET", f"/games/{game_id}/legal-moves", {}),
        ("POST", "/games", {"json": {}}),
        ("POST", f"/games/{game_id}/moves", move),
        ("POST", f"/games/{game_id}/moves", keyed),
    ]


def assert_unavailable_within_promise(url: str, game_id: str, token: str) -> float:
    """Each store request answers 503 storage_unavailable with Retry-After in time; the slowest took (s)."""
    slowest = 0.0
    with ServiceClient(url) as client:
        for method, path, kwargs in store_requests(game_id, token):
            began = time.monotonic()
            resp = client.session.request(method, url + path, timeout=10, **kwargs)
            elapsed = time.monotonic() - began
            where = f"{method} {path}"
            assert resp.status_code == 503, (where, resp.status_code, resp.text)
            assert resp.json()["code"] == "storage_unavailable", where
            assert resp.headers["Retry-After"].isdigit(), where
            assert elapsed < BOUND_SECONDS, f"{where} took {elapsed:.2f} s"
            slowest = max(slowest, elapsed)
        assert client.get("/healthz").status_code == 200
    return slowest


def _stop(redis) -> None:
    redis.stop()


def _start(redis) -> None:
    redis.start()


def _hang(redis) -> None:
    os.kill(redis.pid, signal.SIGSTOP)


def _resume(redis) -> None:
    os.kill(redis.pid, signal.SIGCONT)


@pytest.mark.parametrize(
    ("break_redis", "mend_redis"), [(_stop, _start), (_hang, _resume)], ids=["stopped", "hung"]
)
def test_service_rides_out_a_redis_outage(durable_redis, tmp_path, break_redis, mend_redis):
    with LiveService(durable_redis.url, tmp_path / "service.log") as service:
        with ServiceClient(service.url) as setup:
            games = dict(setup.create_game(seed) for seed in (7, 8, 9))
        probe_game, probe_tokens = next(iter(games.items()))
        arbiter, workers = service.process.pid, worker_pids(service)
        # Two clients: with 2 workers x 4 threads the probes below never queue behind them.
        with BackgroundPlay(service.url, games, clients=2) as play:
            play.wait_until(lambda: play.ack_count() >= 6, "moves accepted before the outage")
            seen_503 = play.status_count(503)
            break_redis(durable_redis)
            try:
                slowest = assert_unavailable_within_promise(service.url, probe_game, probe_tokens[0])
                play.wait_until(lambda: play.status_count(503) >= seen_503 + 2, "clients see the outage")
            finally:
                mend_redis(durable_redis)
            wait_until_ready(service.url)
            acked = play.ack_count()
            play.wait_until(lambda: play.ack_count() >= acked + 6, "moves accepted after the outage")
        print(f"slowest 503 while Redis was {break_redis.__name__[1:]}: {slowest:.2f} s")

        assert set(play.statuses) <= EXPECTED_STATUSES, play.statuses
        assert service.process.poll() is None and service.process.pid == arbiter
        assert worker_pids(service) == workers, "a worker was restarted"
        with ServiceClient(service.url) as reader:
            stored = {game_id: assert_history_replays(reader, game_id) for game_id in games}
        assert_acks_in_history(play.acks, stored)


def test_no_request_fails_on_a_pooled_connection_once_redis_is_back(durable_redis, tmp_path):
    # Each worker's pool holds connections to the Redis that is killed; its
    # close reaches every one. Once /readyz says ready, a burst of reads
    # must find none of them: before the fix each failed one request (503).
    overload_aside = {"MAX_IN_FLIGHT": "1000"}  # the bursts must meet no admission limit
    with LiveService(durable_redis.url, tmp_path / "service.log", env=overload_aside) as service:
        with ServiceClient(service.url) as setup:
            games = [setup.create_game(seed)[0] for seed in range(8)]
        paths = [f"/games/{games[n % len(games)]}/board.svg" for n in range(BURST_AFTER_RESTART)]
        with durable_redis.client() as redis:
            deadline = time.monotonic() + 30
            while len(redis.client_list()) < 8:  # several in each worker's pool, besides this one
                assert time.monotonic() < deadline, "the bursts never filled the pools"
                assert {answer.status for answer in burst(service.url, paths)} == {200}
        os.kill(durable_redis.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while durable_redis.running:
            assert time.monotonic() < deadline, "redis-server outlived SIGKILL"
            time.sleep(0.01)
        durable_redis.start()  # same port, same data directory
        wait_until_ready(service.url)
        answers = burst(service.url, paths)
    failed = [(answer.path, answer.status, answer.body[:120]) for answer in answers if answer.status != 200]
    assert not failed, f"{len(failed)} of {len(answers)} failed, e.g. {failed[:3]}"
