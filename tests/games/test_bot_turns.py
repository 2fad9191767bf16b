"""Handing a bot its turn: the job is queued with the commit that leaves the bot in turn, and a late commit is fenced.

A bot's job names the game and the version at which the bot is in turn
(storage/bot_jobs.py). A worker that finds a job late fences the commit of
whoever prepared it (`GamePlay.fence`): that commit, if it ever comes,
returns the stored game and is judged again.
"""

from __future__ import annotations

import json

import pytest

from service.engine import Advance, Resign
from service.games import BotsUnavailable, Committed, GameCopy, GamePlay, NotABot
from service.storage import Storage
from service.storage.bot_jobs import BotJob, BotJobs
from tests.support.backends import play_on
from tests.support.redis_monitor import ClientCommands

BOT = "random"


@pytest.fixture
def jobs(storage: Storage) -> BotJobs:
    return storage.bot_jobs


@pytest.fixture
def worker_alive(jobs: BotJobs) -> None:
    jobs.beat("worker-1")


def next_job(jobs: BotJobs) -> BotJob:
    job = jobs.take(block_ms=1000)
    assert job is not None
    jobs.done(job)
    return job


def test_no_game_with_a_bot_is_made_while_no_bot_worker_is_alive(play: GamePlay, jobs: BotJobs):
    with pytest.raises(BotsUnavailable) as refused:
        play.create(("Ada", "Bot"), (BOT, None))
    assert refused.value.code == "bots_unavailable"
    assert jobs.queued() == 0
    # A game between people needs no worker.
    assert play.create(("Ada", "Bo")).tokens[0] is not None


@pytest.mark.usefixtures("worker_alive")
def test_a_new_game_with_a_bot_to_start_queues_its_job_at_version_1(play: GamePlay, jobs: BotJobs):
    created = play.create(("Bot", "Ada"), (BOT, None), client="10.0.0.1", seed=3)
    # A bot's seat has no token: nobody can move for it.
    assert created.tokens[0] is None and created.tokens[1] is not None
    job = next_job(jobs)
    assert (job.game_id, job.version, job.person_waiting, job.client) == (
        created.game_id,
        1,
        True,
        "10.0.0.1",
    )
    assert jobs.queued() == 0


@pytest.mark.usefixtures("worker_alive")
def test_a_persons_move_that_leaves_the_bot_in_turn_queues_the_bots_job(play: GamePlay, jobs: BotJobs):
    created = play.create(("Ada", "Bot"), (None, BOT), client="10.0.0.1", seed=3)
    assert jobs.queued() == 0  # seat 0, a person, starts
    play.play(created.game_id, Advance(), created.tokens[0], client="10.0.0.9")
    job = next_job(jobs)
    # Queued in the share of the client whose move handed the bot its turn.
    assert (job.game_id, job.version, job.person_waiting, job.client) == (
        created.game_id,
        2,
        True,
        "10.0.0.9",
    )


@pytest.mark.usefixtures("worker_alive")
def test_a_bots_move_is_committed_for_its_seat_and_a_game_of_bots_alone_is_nobody_waiting(
    play: GamePlay, jobs: BotJobs
):
    created = play.create(("Bot 1", "Bot 2"), (BOT, BOT), seed=3)
    assert created.tokens == [None, None]
    job = next_job(jobs)
    assert (job.version, job.person_waiting) == (1, False)
    committed = play.play_bot(created.game_id, play.load(created.game_id), Advance(), job.client)
    assert isinstance(committed, Committed) and committed.version == 2
    # Seat 0 went from 0 to 1; seat 1, a bot too, is in turn: its job comes next.
    game = json.loads(play.view(created.game_id).view)
    assert (game["turn"], game["players"][0]["position"]) == (1, 1)
    job = next_job(jobs)
    assert (job.game_id, job.version, job.person_waiting) == (created.game_id, 2, False)


@pytest.mark.usefixtures("worker_alive")
def test_a_bots_move_is_refused_while_a_person_is_in_turn(play: GamePlay):
    created = play.create(("Ada", "Bot"), (None, BOT), seed=3)
    with pytest.raises(NotABot) as refused:
        play.play_bot(created.game_id, play.load(created.game_id), Advance(), "")
    assert refused.value.code == "not_a_bot"
    assert play.view(created.game_id).version == 1


@pytest.mark.usefixtures("worker_alive")
def test_a_fenced_bot_commit_returns_the_stored_game_and_is_judged_again_on_it(play: GamePlay, other_process):
    created = play.create(("Bot", "Ada"), (BOT, None), seed=3)
    late = other_process()  # a worker that read the game, then stalled
    copy = late.load(created.game_id)
    # Another worker, finding the job's lease run out, fences the stalled one's commit.
    assert play.fence(created.game_id, play.load(created.game_id))
    outcome = late.play_bot(created.game_id, copy, Advance(), "")
    # Not stored: the game as it is now, same version, a new revision, to judge again.
    assert isinstance(outcome, GameCopy)
    assert outcome.version == 1 and outcome.revision != copy.revision
    assert late.view(created.game_id).version == 1
    assert not late.fence(created.game_id, copy)  # no longer the stored game
    again = late.play_bot(created.game_id, outcome, Advance(), "")
    assert isinstance(again, Committed) and again.version == 2


def test_a_persons_commit_on_a_kept_copy_fenced_since_is_refused_by_the_store_and_judged_again(
    single_storage: Storage, redis_url: str
):
    single_storage.bot_jobs.beat("worker-1")
    play, worker = (play_on(single_storage) for _ in range(2))
    created = play.create(("Ada", "Bot"), (None, BOT), seed=3)
    play.play(created.game_id, Advance(), created.tokens[0])  # version 2, kept; the bot is in turn
    assert worker.fence(created.game_id, worker.load(created.game_id))
    # The game's own round trips: its end also moves it on the lists of games (site/watching.py).
    with ClientCommands(redis_url, created.game_id) as commands:
        # The person resigns (allowed out of turn) on the kept copy, whose revision is no
        # longer the store's: that commit is refused, the game it returns judged again.
        committed = play.play(created.game_id, Resign(), created.tokens[0])
        assert commands.take() == 2  # the refused commit, the commit
    assert committed.version == 3
    assert json.loads(committed.view)["result"]["winner"] == 1
