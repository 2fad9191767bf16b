"""The bot job queue on a real Redis: fair shares, order, leases and takeover, the heartbeat, lost data."""

from __future__ import annotations

import time

import pytest

from service.storage import bot_jobs

GAME = "g" * 22
OTHER = "h" * 22


@pytest.fixture
def jobs(storage):
    return storage.bot_jobs


def taken_clients(jobs, count: int) -> list[str]:
    found = []
    for _ in range(count):
        job = jobs.take(block_ms=100)
        assert job is not None
        found.append(job.client)
        jobs.done(job)
    return found


@pytest.mark.parametrize("block_ms", [1, 2, 3, 50])
def test_a_take_with_no_job_finds_none_however_short_its_wait(jobs, block_ms):
    # Redis 6.2 reads a BLPOP timeout of 0.001 s as "wait forever": the read
    # then failed on the socket's 1 s timeout (StorageError) instead.
    assert jobs.take(block_ms=block_ms) is None


def test_jobs_of_games_with_a_person_are_taken_first(jobs):
    jobs.enqueue(GAME, 4, person_waiting=False, client="a")
    jobs.enqueue(GAME, 7, person_waiting=True, client="b")
    first, second = jobs.take(block_ms=100), jobs.take(block_ms=100)
    assert first is not None and second is not None
    assert [(job.version, job.person_waiting, job.client) for job in (first, second)] == [
        (7, True, "b"),
        (4, False, "a"),
    ]
    assert first.game_id == second.game_id == GAME


def test_one_client_many_jobs_delay_another_clients_job_by_at_most_one(jobs):
    for version in range(2, 12):
        jobs.enqueue(GAME, version, person_waiting=True, client="10.0.0.1")
    jobs.enqueue(OTHER, 3, person_waiting=True, client="10.0.0.2")
    order = taken_clients(jobs, 11)
    assert order.index("10.0.0.2") <= 1
    # A's own jobs keep their order.
    assert order.count("10.0.0.1") == 10


def test_a_client_that_comes_while_another_is_served_is_served_next(jobs):
    # A's first job is being thought about (taken, not done) when B's comes:
    # B goes before A's next, so it waits behind the one move in hand only.
    for version in range(2, 12):
        jobs.enqueue(GAME, version, person_waiting=True, client="10.0.0.1")
    in_hand = jobs.take(block_ms=100)
    assert in_hand is not None and in_hand.client == "10.0.0.1"
    jobs.enqueue(OTHER, 3, person_waiting=True, client="10.0.0.2")
    jobs.done(in_hand)
    assert taken_clients(jobs, 3) == ["10.0.0.2", "10.0.0.1", "10.0.0.1"]


def test_a_client_that_leaves_and_comes_back_does_not_jump_the_others(jobs):
    # B is served, has nothing left, and queues again at once (a person who
    # moves quickly): it joins after A, who was waiting in the same round.
    for client in ("a", "b"):
        jobs.enqueue(GAME, 2, person_waiting=False, client=client)
    jobs.enqueue(GAME, 3, person_waiting=False, client="a")
    assert taken_clients(jobs, 2) == ["a", "b"]
    jobs.enqueue(OTHER, 4, person_waiting=False, client="b")
    assert taken_clients(jobs, 2) == ["a", "b"]


def test_a_client_served_before_the_job_in_hand_comes_back_before_that_clients_next(jobs):
    # B and A are served in one round, B first; A's job is in hand when B
    # queues again (a person who answered its bot at once): B goes before
    # A's next job, not behind it, though A's next job is the older.
    jobs.enqueue(OTHER, 2, person_waiting=True, client="10.0.0.2")
    for version in range(2, 6):
        jobs.enqueue(GAME, version, person_waiting=True, client="10.0.0.1")
    assert taken_clients(jobs, 1) == ["10.0.0.2"]
    in_hand = jobs.take(block_ms=100)
    assert in_hand is not None and in_hand.client == "10.0.0.1"
    jobs.enqueue(OTHER, 4, person_waiting=True, client="10.0.0.2")
    jobs.done(in_hand)
    assert taken_clients(jobs, 2) == ["10.0.0.2", "10.0.0.1"]


def test_clients_take_turns_job_by_job_in_each_kind(jobs):
    for client in ("a", "b", "c"):
        for version in (2, 3):
            jobs.enqueue(GAME, version, person_waiting=False, client=client)
    jobs.enqueue(GAME, 9, person_waiting=True, client="a")
    assert taken_clients(jobs, 7) == ["a", "a", "b", "c", "a", "b", "c"]
    assert jobs.take(block_ms=10) is None


def test_a_job_not_done_is_taken_over_once_its_lease_ends_and_a_done_one_is_gone(jobs):
    jobs.lease_ms = 200
    jobs.enqueue(GAME, 2, person_waiting=True, client="a")
    jobs.enqueue(GAME, 3, person_waiting=True, client="a")
    first, second = jobs.take(block_ms=100), jobs.take(block_ms=100)
    assert first is not None and second is not None
    jobs.done(second)
    assert jobs.take(block_ms=10) is None
    assert jobs.reclaim() == []  # the lease of the first has not ended yet
    assert jobs.queued() == 1  # taken, not done
    time.sleep(0.3)
    (taken_over,) = jobs.reclaim()
    assert (taken_over.text, taken_over.version) == (first.text, 2)
    assert jobs.reclaim() == []  # leased again, to the taker
    jobs.done(taken_over)
    jobs.done(taken_over)  # a job done twice (two workers had it) is fine
    time.sleep(0.3)
    assert jobs.reclaim() == []
    assert jobs.queued() == 0


def test_an_idle_taker_waits_for_a_job_and_wakes_when_one_comes(jobs, redis):
    assert jobs.take(block_ms=50) is None
    jobs.enqueue(GAME, 2, person_waiting=True, client="a")
    job = jobs.take(block_ms=5_000)
    assert job is not None and job.version == 2
    assert jobs.take(block_ms=50) is None
    assert redis.exists(jobs.wake_key) == 0  # an empty queue leaves no stale tokens


def test_wake_tokens_stop_at_the_cap_bot_jobs_names(jobs, redis):
    # lua/bot_enqueue.lua holds the cap as a literal: this keeps it and the Python constant in step.
    for version in range(bot_jobs._WAKE_TOKENS + 5):
        jobs.enqueue(GAME, version, person_waiting=False, client="a")
    assert redis.llen(jobs.wake_key) == bot_jobs._WAKE_TOKENS


def test_the_heartbeat_says_whether_a_worker_was_seen_lately(jobs):
    assert not jobs.workers_seen()
    jobs.beat("w1", ttl_ms=100)
    assert jobs.workers_seen()
    time.sleep(0.2)
    assert not jobs.workers_seen()


def test_jobs_queued_after_redis_lost_its_data_are_taken(jobs, redis):
    jobs.enqueue(GAME, 4, person_waiting=False, client="a")
    redis.flushall()  # Redis restarted without its data
    assert jobs.take(block_ms=10) is None
    jobs.enqueue(GAME, 5, person_waiting=False, client="a")
    job = jobs.take(block_ms=100)
    assert job is not None and job.version == 5
