"""Keeping time: ends the games whose clock ran out, with nobody needing to ask.

It runs in processes of its own (`patchwork-timekeeper`, timekeeper_main.py),
at normal priority, never beside a search: a bot worker thinks at a lowered
priority and holds its GIL for whole slices, which would make the timeouts
wait behind the thinking (issue 36: seconds late with 6 bot games running).
Each tick, every `TICK_SECONDS`, it takes the due entries of each shard of
the deadline index (storage/deadlines.py), leased to it, and for each game:
- applies the timeout (or the abort of a game whose first move never came,
  unless that first move is forfeit: a tournament's game, lost on time)
  through `GamePlay.expire`: the same compare-and-set as a move, and the
  commit checks the store's own clock against the game's deadline, so an
  expiry is applied once however many timekeepers (or late moves) race it;
- or tells the running seat's player its time runs low, once (games/low_time.py:
  the index holds each game's next look, the earlier of its deadline and
  that notice), and moves the entry to the deadline;
- or, when the game's next look is later than the index said (the index
  holds the earliest each could be), moves the entry to it;
- or removes the entry of a game that is over or gone.

The same tick does the tournaments' timed work (site/tournament_runner.py):
their starts, their next rounds, the repair of a round a process died in.

A timekeeper killed mid-work leaves its leases to end (storage/deadlines.py
LEASE_MS), and another takes its entries over; so a timeout comes within
about TICK_SECONDS + LEASE_MS of its deadline even then, provided another
runs (patchwork-service starts TIMEKEEPERS, two by default).
"""

from __future__ import annotations

import logging
import threading

from service.games import GamePlay, Refusal
from service.site.tournament_runner import TournamentRunner
from service.storage import Deadlines, DueGame, StorageError
from service.telemetry.metrics import clock_expiries, timekeeper_lag

log = logging.getLogger("patchwork.timekeeper")

TICK_SECONDS = 0.25
# Entries taken from a shard in one go: more wait for the next take.
TAKE_LIMIT = 200


class Timekeeper:
    """Applies the timeouts due in the deadline index, until stopped."""

    def __init__(
        self,
        play: GamePlay,
        deadlines: Deadlines,
        *,
        tick_seconds: float = TICK_SECONDS,
        tournaments: TournamentRunner | None = None,
    ):
        self.play = play
        self.deadlines = deadlines
        self.tournaments = tournaments
        self.tick_seconds = tick_seconds
        self._stopped = threading.Event()

    def stop(self) -> None:
        self._stopped.set()

    def run(self) -> None:
        """Tick at once, then every tick_seconds until stop(); store errors and bugs are logged and waited out.

        At once: a timekeeper started in place of a killed one may find
        deadlines already due.
        """
        while True:
            try:
                self.tick()
            except StorageError as err:
                log.warning("store unavailable: %s", err)
            except Exception:  # a bug must not stop the clocks
                log.exception("unexpected error in the timekeeper")
            if self._stopped.wait(self.tick_seconds):
                return

    def tick(self) -> int:
        """Look at every due game once; how many timeouts it applied."""
        applied = 0
        for shard in self.deadlines.shards:
            while True:
                now, due = self.deadlines.take_due(shard, TAKE_LIMIT)
                for game in due:
                    applied += self._settle(game, now)
                if len(due) < TAKE_LIMIT or self._stopped.is_set():
                    break
        if self.tournaments is not None:
            self.tournaments.tick()
        return applied

    def _settle(self, due: DueGame, now_ms: int) -> int:
        try:
            expiry = self.play.expire(due.game_id, now_ms)
        except Refusal as refusal:  # the game kept changing under it: its lease ends, it is looked at again
            log.warning("could not expire game %s: %s", due.game_id, refusal)
            return 0
        if expiry.applied is not None:
            clock_expiries(expiry.reason or "timeout").inc()
            if expiry.lag_ms is not None:
                timekeeper_lag().observe(expiry.lag_ms / 1000)
            self.deadlines.settle(due, None)
            return 1
        self.deadlines.settle(due, expiry.next_look_ms)
        return 0
