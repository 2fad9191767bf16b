"""Clocked bot jobs on a real Redis and a real 3-master cluster: served by flag time before all others, and counted against the live workers."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from service.storage import BotJobs, open_storage

GAMES = [f"{letter}" * 22 for letter in "ghijk"]


@pytest.fixture
def jobs(backend) -> Iterator[BotJobs]:
    """The bot queue on a single Redis and on a cluster (every key must be in the {bots} slot there)."""
    opened = open_storage(backend.url, cluster=backend.cluster)
    yield opened.bot_jobs
    opened.close()


def test_clocked_jobs_go_first_the_soonest_flag_first_then_the_rings_as_before(jobs):
    jobs.enqueue(GAMES[0], 2, person_waiting=True, client="a")
    jobs.enqueue(GAMES[1], 3, person_waiting=False, client="b")
    jobs.enqueue(GAMES[2], 4, person_waiting=True, client="c", flag_ms=9_000, clocks_until_ms=20_000)
    jobs.enqueue(GAMES[3], 5, person_waiting=False, client="c", flag_ms=7_000, clocks_until_ms=20_000)
    jobs.enqueue(GAMES[4], 6, person_waiting=True, client="d", flag_ms=8_000, clocks_until_ms=20_000)
    assert jobs.queued() == 5
    order = []
    while (job := jobs.take(block_ms=10)) is not None:
        order.append((job.game_id, job.version, job.flag_ms, job.person_waiting))
    assert order == [
        (GAMES[3], 5, 7_000, False),
        (GAMES[4], 6, 8_000, True),
        (GAMES[2], 4, 9_000, True),
        (GAMES[0], 2, None, True),
        (GAMES[1], 3, None, False),
    ]
    assert jobs.queued() == 5  # all taken, none done


def test_only_a_clocked_job_is_taken_when_only_clocked_ones_are_asked_for(jobs):
    jobs.enqueue(GAMES[0], 2, person_waiting=True, client="a")
    assert not jobs.clocked_waiting() and jobs.waiting()
    assert jobs.take_clocked() is None
    jobs.enqueue(GAMES[1], 3, person_waiting=False, client="a", flag_ms=1_000, clocks_until_ms=5_000)
    assert jobs.clocked_waiting()
    job = jobs.take_clocked()
    assert job is not None and (job.game_id, job.flag_ms) == (GAMES[1], 1_000)
    assert jobs.take_clocked() is None
    unclocked = jobs.take(block_ms=10)
    assert unclocked is not None and unclocked.game_id == GAMES[0]


def test_a_clocked_job_whose_worker_died_is_taken_over_before_the_others(jobs):
    jobs.lease_ms = 200
    jobs.enqueue(GAMES[0], 2, person_waiting=True, client="a")
    jobs.enqueue(GAMES[1], 3, person_waiting=False, client="a", flag_ms=4_000, clocks_until_ms=9_000)
    jobs.enqueue(GAMES[2], 4, person_waiting=False, client="b", flag_ms=3_000, clocks_until_ms=9_000)
    for _ in range(3):
        assert jobs.take(block_ms=10) is not None
    time.sleep(0.3)
    assert [job.game_id for job in jobs.reclaim()] == [GAMES[2], GAMES[1], GAMES[0]]


def test_a_job_in_hand_is_leased_anew_until_it_is_done(jobs):
    jobs.lease_ms = 300
    jobs.enqueue(GAMES[0], 2, person_waiting=False, client="a")
    job = jobs.take(block_ms=10)
    assert job is not None
    time.sleep(0.2)
    assert jobs.renew(job)
    time.sleep(0.2)  # 0.4 s after the take, 0.2 s after the renewal
    assert jobs.reclaim() == []
    jobs.done(job)
    assert not jobs.renew(job)  # a done job is not brought back


def test_clocked_bot_games_are_admitted_up_to_the_live_workers_allowance(jobs):
    jobs.clocked_games_per_worker = 2
    assert not jobs.admit_clocked(GAMES[0], 60_000), "no live worker: no room"
    jobs.beat("w1")
    jobs.beat("w2", ttl_ms=300)
    assert jobs.admit_clocked(GAMES[0], 60_000)
    assert jobs.admit_clocked(GAMES[1], 60_000)
    assert jobs.admit_clocked(GAMES[2], 200)
    assert jobs.admit_clocked(GAMES[3], 60_000)
    assert not jobs.admit_clocked(GAMES[4], 60_000), "2 workers, 4 games"
    time.sleep(0.4)
    # w2's beat lapsed, and so did GAMES[2]'s clocks: 3 games counted, room for 2.
    assert not jobs.admit_clocked(GAMES[4], 60_000)
    jobs.beat("w2")
    assert jobs.admit_clocked(GAMES[4], 60_000), "w2 beats again: room for a fourth"


def test_a_clocked_job_keeps_its_game_counted_until_its_clocks_could_stop(jobs, backend):
    jobs.clocked_games_per_worker = 1
    jobs.beat("w1")
    assert jobs.admit_clocked(GAMES[0], 200)
    # Its job says its clocks run for a minute more (the store's time is Redis's here: the same clock).
    redis_now_ms = int(backend.nodes[0].time()[0]) * 1000
    jobs.enqueue(
        GAMES[0],
        2,
        person_waiting=True,
        client="a",
        flag_ms=redis_now_ms,
        clocks_until_ms=redis_now_ms + 60_000,
    )
    time.sleep(0.3)
    assert not jobs.admit_clocked(GAMES[1], 60_000)
