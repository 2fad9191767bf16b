"""One bot worker's loop: take a job, read the game, think, commit the bot's move, acknowledge.

The jobs come from the queue in storage/bot_jobs.py (which says how they
are added, why before the commit, and how they are shared between clients).
For each job, which names the version at which a bot is in turn, the worker:
1. reads the game; if it is behind the job's version, waits up to
   `VERSION_WAIT_SECONDS` for the commit that adds that version (the job is
   added just before it);
2. if the game is still one version short, that commit is late (its process
   is slow or stopped) or will never come (it died or failed): it may land at
   any time, so the worker fences it (`GamePlay.fence`: a new revision, the
   version unchanged) and drops the job. A fenced commit is refused when it
   is sent, judged again and retried, and the retry queues a new job: the
   turn is never left without one. A join that fills a game with a bot in
   turn queues the job before its take and keeps the version (lobby.py):
   a game at the job's version with a seat still open is awaited and
   fenced the same way;
3. drops the job unless the game is at exactly that version with a bot in
   turn (a late or repeated job: the bot has moved already, or a person is
   in turn);
4. asks the bot's level for its move with the seed of (game id, version)
   (`service.bots.seed_for`) and commits it through `GamePlay.play_bot`: the
   checked `apply_move` and the compare-and-set on that version, like every
   move; the commit queues the next job, in the same client's share, when a
   bot is in turn again. A commit refused with the game still at that
   version (its revision renewed: another worker fenced this worker's own
   late commit) is made again on the game as it is now;
5. marks the job done only then.
The queue hands out the jobs of games on a real-time clock first, the
bot whose flag falls first first; such a bot budgets its thought from its
bank as it stands when it starts (`think_budget_ms`: the wait is spent),
and a worker thinking for a game on no clock plays the clocked jobs that
come meanwhile from inside its search (`give_way_to_clocked`), as an
analysis does for every bot job (analyst.py).
A worker that dies anywhere in this leaves the job taken; another worker
reclaims it when its lease (`RECLAIM_IDLE_MS`) runs out, and the
compare-and-set makes sure the bot moves once. A store error skips the
acknowledgement the same way, so the job comes back once Redis does.

The loop also refreshes the workers' heartbeat (what the web checks before
creating a bot game) every `BEAT_EVERY_SECONDS`, and reclaims other
workers' stale jobs every `RECLAIM_EVERY_SECONDS`. It is single-threaded:
the heartbeat only beats while the loop turns, so a stuck worker is not
counted alive.
"""

from __future__ import annotations

import logging
import time

from service.bots import NODES_PER_MS, choose_move, level, seed_for
from service.bots.time_budget import clock_budget_ms
from service.games import GameCopy, GameNotFound, GamePlay, GameRecord, Refusal
from service.games.analysis import GameAnalyses
from service.storage import BotJob, BotJobs, StorageError
from service.telemetry.metrics import bot_moves, bot_think

from .analyst import analyse_next
from .spent import SpentTimes

log = logging.getLogger("patchwork.botworker")

# A job is added just before its commit (a Redis round trip later, at most
# the 1 s Redis timeout): a commit not there after this is late, and fenced.
VERSION_WAIT_SECONDS = 2.0
# Retries of a bot's commit refused only for a renewed revision: one is the
# rule, more means the game's revision keeps being renewed under it.
_MAX_BOT_COMMITS = 4
# The worker usually reads a job before its commit has landed (the job goes
# first): it looks again after 1 ms, then doubling up to 50 ms.
_VERSION_POLL_FIRST_SECONDS = 0.001
_VERSION_POLL_MAX_SECONDS = 0.05
# The heartbeat's TTL is storage/bot_jobs.HEARTBEAT_TTL_MS (10 s): a few beats fit in it.
BEAT_EVERY_SECONDS = 2.0
RECLAIM_EVERY_SECONDS = 1.0
# While it analyses, the worker asks whether a bot job waits at most this often
# (one EXISTS, from inside the searches): a bot move waits about this long for
# an analysis, and the question costs the analysis well under 1% of its time.
# So does a bot's move on no clock, for the clocked jobs (give_way_to_clocked).
JOB_CHECK_SECONDS = 0.02
# After a store error or an unexpected one, the loop waits this long, doubling up to the cap.
_FIRST_BACKOFF_SECONDS = 0.2
_MAX_BACKOFF_SECONDS = 2.0


def think_budget_ms(
    record: GameRecord, level_id: str, override_ms: int | None, now_ms: int | None = None
) -> int | None:
    """How long the bot in turn may think: its level's budget (or the override), less on a short clock.

    Charged like anyone's (the clock runs from the commit that gave it the
    turn), a bot budgets from its bank as of `now_ms` (the store's time when
    it starts thinking: its job's wait in the queue is spent; None: as of
    the version): the reserve, then a share of the rest, plus the increment
    it gets back (`service.bots.time_budget`, shared with `patchwork-engine`).
    """
    budget = level(level_id).think_ms if override_ms is None else override_ms
    clock, settings, seat = record.clock_now, record.clock, record.state.turn
    if clock is None or settings is None or seat is None or not settings.realtime:
        return override_ms
    left = clock.remaining_ms[seat]
    if now_ms is not None and clock.deadline_ms is not None:
        # The running bank falls at the deadline (before the first move: the game is aborted then).
        left = min(left, clock.deadline_ms - now_ms)
    return clock_budget_ms(budget, left, settings.increment_ms)


def _join_awaited(game: GameCopy, job: BotJob) -> bool:
    """The game is at the job's version with a seat still open: the job is a join's, queued before its take.

    A join keeps the version (lobby.py), so the take the job stands for is
    not seen in it: it is awaited, and fenced when late, as a commit is.
    """
    return (
        game.version == job.version and game.record.open_seat is not None and not game.record.state.finished
    )


class BotWorker:
    """Plays the bots' turns of every game on one store, one job at a time."""

    def __init__(
        self,
        play: GamePlay,
        jobs: BotJobs,
        *,
        name: str,
        think_ms: int | None = None,
        block_ms: int = 500,
        spent: SpentTimes | None = None,
        analyses: GameAnalyses | None = None,
    ):
        """`think_ms` overrides every level's own budget; `block_ms`: the longest wait for a job in one read.

        `spent` carries the calibration the levels plan with (default: the
        uncalibrated NODES_PER_MS) and records what they spend. `analyses`: the
        finished games' analyses it computes when no bot move waits (None: none).
        """
        self.play = play
        self.analyses = analyses
        self.jobs = jobs
        self.name = name
        self.think_ms = think_ms
        self.block_ms = block_ms
        self.spent = spent or SpentTimes(NODES_PER_MS, "default")
        self._stopping = False
        self._next_beat = 0.0
        self._next_reclaim = 0.0
        self._next_job_check = 0.0
        # Seconds spent on clocked moves from inside unclocked ones: not the latter's thinking.
        self._lent_seconds = 0.0

    def stop(self) -> None:
        """Finish the jobs in hand, then leave run() (safe to call from a signal handler)."""
        self._stopping = True

    def run(self) -> None:
        """Play jobs until stop(); store errors and bugs are logged and waited out, never fatal."""
        backoff = _FIRST_BACKOFF_SECONDS
        log.info("bot worker %s started", self.name)
        while not self._stopping:
            try:
                self.turn()
            except StorageError as err:
                log.warning("store unavailable: %s", err)
            except Exception:  # a bug must not take the worker (and its supervisor) down
                log.exception("unexpected error in the bot worker")
            else:
                backoff = _FIRST_BACKOFF_SECONDS
                continue
            time.sleep(backoff)
            backoff = min(_MAX_BACKOFF_SECONDS, backoff * 2)
        log.info("bot worker %s stopped", self.name)

    def turn(self) -> None:
        """One turn of the loop: beat, reclaim or take jobs (waiting up to block_ms), play them."""
        now = time.monotonic()
        self._beat(now)
        jobs: list[BotJob] = []
        if now >= self._next_reclaim:
            jobs = self.jobs.reclaim()
            self._next_reclaim = now + RECLAIM_EVERY_SECONDS
            for job in jobs:
                log.info("took over job %s of game %s at version %s", job.text, job.game_id, job.version)
        if not jobs:
            taken = self.jobs.take(self.block_ms)
            jobs = [] if taken is None else [taken]
        for job in jobs:
            self.play_job(job)
        if not jobs and self.analyses is not None:
            # No bot move waits: the lower priority's turn (analyst.py).
            analyse_next(
                self.analyses, self.spent.nodes_per_ms, self.think_ms, self.play_waiting_jobs, self.give_way
            )

    def _beat(self, now: float) -> None:
        """Refresh the heartbeat and the report when due (also in the middle of an analysis)."""
        if now >= self._next_beat:
            self.jobs.beat(self.name)
            self.jobs.report(self.spent.report())
            self._next_beat = now + BEAT_EVERY_SECONDS

    def _time_to_ask(self) -> float | None:
        """Inside a search: now, when JOB_CHECK_SECONDS have passed since the last question for jobs (beating then), else None."""
        now = time.monotonic()
        if now < self._next_job_check:
            return None
        self._next_job_check = now + JOB_CHECK_SECONDS
        self._beat(now)
        return now

    def give_way(self) -> None:
        """Inside an analysis's searches: play the bot jobs waiting, if any (Redis asked every JOB_CHECK_SECONDS).

        It also keeps the heartbeat beating through a long search. A store
        error leaves the analysis (its lease runs out, and it is taken
        again), and the loop handles the error.
        """
        if self._time_to_ask() is not None and self.jobs.waiting():
            self.play_waiting_jobs()

    def give_way_to_clocked(self, in_hand: BotJob) -> None:
        """Inside an unclocked bot move's search: play the clocked bot jobs waiting, if any (asked every JOB_CHECK_SECONDS).

        A clocked bot then waits for no unclocked move, only for this
        question's interval. The job in hand is leased anew after each,
        lest another worker take it over meanwhile; its search's clock cap
        moves on by the time spent here (bots/search.py).
        """
        now = self._time_to_ask()
        if now is None or not self.jobs.clocked_waiting():
            return
        try:
            while not self._stopping and (job := self.jobs.take_clocked()) is not None:
                self.play_job(job)
                self.jobs.renew(in_hand)
        finally:
            self._lent_seconds += time.monotonic() - now

    def play_waiting_jobs(self) -> None:
        """Play the bot jobs queued now, without waiting for more (between an analysis's moves)."""
        self._beat(time.monotonic())
        while not self._stopping and (job := self.jobs.take(0)) is not None:
            self.play_job(job)

    def play_job(self, job: BotJob) -> None:
        """Make the job's move if it is still to be made, then mark the job done."""
        if job.game_id is not None:
            game = self._game_at(job)
            for _attempt in range(_MAX_BOT_COMMITS):
                if game is None:
                    break
                game = self._move(job, game)
        self.jobs.done(job)

    def _game_at(self, job: BotJob) -> GameCopy | None:
        """The game at the job's version with a bot in turn, or None: the job has nothing to do."""
        assert job.game_id is not None and job.version is not None  # play_job skips unreadable jobs
        deadline = time.monotonic() + VERSION_WAIT_SECONDS
        poll = _VERSION_POLL_FIRST_SECONDS
        while True:
            game = self._load(job.game_id)
            landed = game is not None and game.version >= job.version and not _join_awaited(game, job)
            if landed or time.monotonic() >= deadline:
                break
            time.sleep(poll)
            poll = min(_VERSION_POLL_MAX_SECONDS, poll * 2)
        if game is not None and (game.version == job.version - 1 or _join_awaited(game, job)):
            if self.play.fence(job.game_id, game):
                log.info(
                    "game %s is still at version %d: fenced the late commit (or join) of its job at version %d",
                    job.game_id,
                    game.version,
                    job.version,
                )
                return None
            game = self._load(job.game_id)  # the commit landed (or another move) meanwhile
        if game is None or game.version != job.version or game.record.bot_in_turn is None:
            log.debug(
                "dropping job of game %s at version %d: the game is at %s",
                job.game_id,
                job.version,
                None if game is None else game.version,
            )
            return None
        return game

    def _load(self, game_id: str) -> GameCopy | None:
        try:
            return self.play.load(game_id)
        except GameNotFound:
            return None  # expired, or a job of an old version queued before its game

    def _move(self, job: BotJob, game: GameCopy) -> GameCopy | None:
        """Think and commit the bot's move; the game to move on again when the commit was fenced, else None."""
        record = game.record
        level = record.bot_in_turn
        # _game_at found the job's game at its version with a bot in turn.
        assert level is not None and job.game_id is not None and job.version is not None
        started, lent = time.monotonic(), self._lent_seconds
        clocked = record.clock is not None and record.clock.realtime
        think_ms = think_budget_ms(record, level, self.think_ms, self.play.now_ms() if clocked else None)
        move = choose_move(
            record.state,
            level,
            seed_for(job.game_id, job.version),
            think_ms=think_ms,
            nodes_per_ms=self.spent.nodes_per_ms,
            # A move on no clock gives way to the clocked ones that come while it thinks.
            pause=None if clocked else lambda: self.give_way_to_clocked(job),
        )
        thought = time.monotonic() - started - (self._lent_seconds - lent)
        bot_think(level).observe(thought)
        self.spent.add(level, thought * 1000)
        try:
            committed = self.play.play_bot(job.game_id, game, move, job.client)
        except GameNotFound:
            bot_moves(level, "expired").inc()
            log.info("game %s expired before bot %s's move", job.game_id, level)
            return None
        except Refusal as refusal:
            if refusal.code == "game_finished":
                # Its time ran out while it thought (its workers were too slow or
                # stopped): the game ended on time, not by a bug of the level.
                bot_moves(level, "timed_out").inc()
                log.warning("bot %s's time ran out in game %s before its move", level, job.game_id)
                return None
            # choose_move gave a move the rules refuse: a bug of the level. The
            # same position would give the same move, so retrying cannot help.
            bot_moves(level, "refused").inc()
            log.error(
                "bot %s's move %r in game %s at version %d was refused (%s): %s",
                level,
                move,
                job.game_id,
                job.version,
                refusal.code,
                refusal.detail,
            )
            return None
        if isinstance(committed, GameCopy):
            if committed.version == job.version and committed.record.bot_in_turn is not None:
                log.info("game %s at version %d got a new revision: moving again", job.game_id, job.version)
                return committed
            bot_moves(level, "stale").inc()
            log.info(
                "game %s moved on past version %d before bot %s's move: dropped",
                job.game_id,
                job.version,
                level,
            )
            return None
        bot_moves(level, "committed").inc()
        log.info(
            "bot %s moved in game %s: version %d (thought %.0f ms)",
            level,
            job.game_id,
            committed.version,
            thought * 1000,
        )
        return None
