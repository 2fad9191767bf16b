"""The tournaments' timed work, done by the timekeepers: the start at `starts_at`, each next round after its
pause, and the repair of a round a process died in.

The due index (storage/tournaments.py, leased like the games' deadlines)
holds each tournament not yet seen ended, scored by when to look at it
next. A pass takes the entries due, each leased to the taker, and looks:
- upcoming, at or past `starts_at`: starts it (Tournaments.begin; cancelled
  with fewer than 2 players);
- running, its round over and the next due: pairs it (Tournaments.pair_next);
- running, its round being played: the repair, which creates the round's
  missing games and records the results of those that ended unheard; then
  looks again REPAIR_MS later (sooner when a result schedules the next
  round: `ZADD LT` lowers the entry);
- ended (finished, cancelled) or gone: lists it where it belongs and drops
  the entry.
Every change is the tournament's compare-and-set, so two timekeepers that
race (a lease that ended while its taker was slow) change it once. A
timekeeper killed mid-pass leaves its leases to end: another takes them.
"""

from __future__ import annotations

import logging

from service.games.refusals import Refusal
from service.storage import DueGame, StorageError

from .tournament_records import RUNNING, UPCOMING, Tournament, TournamentNotFound
from .tournaments import REPAIR_MS, Tournaments

log = logging.getLogger(__name__)

TAKE_LIMIT = 50


class TournamentRunner:
    """One timekeeper's share of the tournaments' timed work."""

    def __init__(self, tournaments: Tournaments):
        self.tournaments = tournaments
        self.due = tournaments.book.due

    def tick(self) -> int:
        """Look at every tournament due once; how many it looked at."""
        looked = 0
        for shard in self.due.shards:
            while True:
                now, due = self.due.take_due(shard, TAKE_LIMIT)
                for entry in due:
                    self._settle(entry, now)
                looked += len(due)
                if len(due) < TAKE_LIMIT:
                    break
        return looked

    def _settle(self, entry: DueGame, now_ms: int) -> None:
        try:
            next_ms = self.visit(entry.game_id, now_ms)
        except (Refusal, StorageError) as error:  # looked at again when the lease ends
            log.warning("tournament %s waits for the next look: %s", entry.game_id, error)
            return
        self.due.settle(entry, next_ms)

    def visit(self, tournament_id: str, now_ms: int) -> int | None:
        """Do what is due of the tournament at `now_ms`; when to look at it next (None: never again)."""
        try:
            tournament = self.tournaments.load(tournament_id)
        except TournamentNotFound:
            return None
        if tournament.status == UPCOMING:
            if now_ms < tournament.starts_ms:
                return tournament.starts_ms
            tournament = self.tournaments.begin(tournament_id)
        elif tournament.status == RUNNING:
            tournament = self._run(tournament, now_ms)
        # The lists' repair: a process that died between a change and its listing left it out.
        self.tournaments.index(tournament)
        return self._next_look(tournament, now_ms)

    def _run(self, tournament: Tournament, now_ms: int) -> Tournament:
        if tournament.next_round_ms is not None:
            if now_ms < tournament.next_round_ms:
                return tournament
            return self.tournaments.pair_next(tournament.id)
        # A round being played: its games made whole, and the results that never arrived recorded.
        return self.tournaments.repair(tournament)

    @staticmethod
    def _next_look(tournament: Tournament, now_ms: int) -> int | None:
        if tournament.status == UPCOMING:
            return tournament.starts_ms
        if tournament.status != RUNNING:
            return None
        if tournament.next_round_ms is not None:
            return tournament.next_round_ms
        return now_ms + REPAIR_MS
