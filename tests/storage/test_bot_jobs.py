"""The bot job queue on a real Redis: order, acknowledgement, takeover, the heartbeat, a lost group."""

from __future__ import annotations

import time

import pytest

from service.storage import StorageError

GAME = "g" * 22


@pytest.fixture
def jobs(store):
    queue = store.bot_jobs()
    queue.ensure_group()
    return queue


def test_jobs_of_games_with_a_person_are_taken_first(jobs):
    jobs.enqueue(GAME, 4, person_waiting=False)
    jobs.enqueue(GAME, 7, person_waiting=True)
    taken = jobs.take("w1", block_ms=100)
    assert [(job.version, job.stream) for job in taken] == [(7, jobs.person_stream), (4, jobs.bots_stream)]
    assert all(job.game_id == GAME for job in taken)


def test_a_job_not_done_is_taken_over_once_idle_and_a_done_one_is_gone(jobs, redis):
    jobs.enqueue(GAME, 2, person_waiting=True)
    jobs.enqueue(GAME, 3, person_waiting=True)
    (first,) = jobs.take("dead", block_ms=100)
    (second,) = jobs.take("alive", block_ms=100)
    jobs.done(second)
    assert jobs.take("alive", block_ms=10) == []
    assert jobs.reclaim("alive", min_idle_ms=60_000) == []  # not idle long enough yet
    time.sleep(0.05)
    (taken_over,) = jobs.reclaim("alive", min_idle_ms=20)
    assert (taken_over.entry_id, taken_over.version) == (first.entry_id, 2)
    jobs.done(taken_over)
    assert jobs.reclaim("alive", min_idle_ms=0) == []
    assert redis.xlen(jobs.person_stream) == 0  # done jobs are deleted, not kept


def test_the_heartbeat_says_whether_a_worker_was_seen_lately(jobs):
    assert not jobs.workers_seen()
    jobs.beat("w1", ttl_ms=100)
    assert jobs.workers_seen()
    time.sleep(0.2)
    assert not jobs.workers_seen()


def test_a_lost_group_is_reported_and_made_again_with_the_jobs_queued_meanwhile(jobs, redis):
    redis.flushall()  # Redis restarted without its data
    jobs.enqueue(GAME, 5, person_waiting=False)
    with pytest.raises(StorageError, match="NOGROUP"):
        jobs.take("w1", block_ms=10)
    jobs.ensure_group()
    jobs.ensure_group()  # twice is fine
    assert [job.version for job in jobs.take("w1", block_ms=100)] == [5]
