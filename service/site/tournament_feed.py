"""Following a tournament: a snapshot, then the events of its stream as they come, resumable.

Like a player's feed (player_feed.py), with a snapshot first: a client that
names no event it has (or one no longer kept) gets `event: tournament`, the
Tournament as stored, whose id is the newest event the snapshot includes
(the record and its newest event's id are read together: one compare-and-set
writes both, storage/tournaments.py); then every event after it. A client
that names a kept event (Last-Event-ID) gets exactly the events after it.
The feed ends after `finished` or `cancelled`, when the process shuts down,
the client hangs up, or the store fails (the client comes back with
Last-Event-ID).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

from service.games.jsontext import compact
from service.storage import EventWatch, TournamentBook

from .tournament_records import Tournament

READ_BATCH = 100
# The events after which nothing more comes.
LAST_KINDS = ("finished", "cancelled")
LAST_STATUSES = ("finished", "cancelled")
_EVENT_ID = re.compile(r"[0-9]{1,20}-[0-9]{1,20}\Z")


@dataclass(frozen=True, slots=True)
class TournamentFeedEvent:
    event_id: str | None
    kind: str
    data: str


def event_id_or_none(text: str | None) -> str | None:
    """A Last-Event-ID that could name a tournament's event, else None (a snapshot)."""
    if text is None:
        return None
    text = text.strip()
    return text if _EVENT_ID.match(text) else None


def _before(left: str, right: str) -> bool:
    """Whether stream id `left` comes before `right`."""
    a, _, b = left.partition("-")
    c, _, d = right.partition("-")
    return (int(a), int(b)) < (int(c), int(d))


class TournamentFeed:
    """One follower of one tournament. Iterate it: events, and None when idle `idle_seconds` (a keep-alive)."""

    def __init__(
        self,
        book: TournamentBook,
        tournament_id: str,
        watch: EventWatch,
        after: str,
        snapshot: TournamentFeedEvent | None,
        idle_seconds: float,
        ended: bool,
    ):
        self._book = book
        self._id = tournament_id
        self._watch = watch
        self._last = after
        self._snapshot = snapshot
        self._idle = idle_seconds
        self._ended = ended
        self._hung_up = False

    @classmethod
    def open(
        cls, book: TournamentBook, tournament_id: str, after: str | None, idle_seconds: float
    ) -> TournamentFeed | None:
        """Watch first, then settle where to start: after `after` when every event since is kept, else a
        snapshot. None for a tournament that does not exist (nothing is left watching)."""
        watch = book.watch(tournament_id)
        try:
            stored = book.load(tournament_id)
            if stored is None:
                watch.close()
                return None
            tournament = Tournament.decode(stored.text)
            ended = tournament.status in LAST_STATUSES
            last = stored.last_event
            oldest = book.oldest_event_id(tournament_id) if after is not None and last else None
            if (
                after is not None
                and oldest is not None
                and not _before(after, oldest)
                and not _before(last, after)
            ):
                # Every event after it is kept: those alone (none more once it has ended).
                return cls(book, tournament_id, watch, after, None, idle_seconds, ended and after == last)
            snapshot = TournamentFeedEvent(last or None, "tournament", compact(tournament.view()))
            return cls(book, tournament_id, watch, last or "0-0", snapshot, idle_seconds, ended)
        except BaseException:
            watch.close()
            raise

    def __iter__(self) -> Iterator[TournamentFeedEvent | None]:
        if self._snapshot is not None:
            yield self._snapshot
        sent_at = time.monotonic()
        woken = True
        while not (self._ended or self._watch.closing or self._hung_up):
            if woken:
                events = self._book.events_after(self._id, self._last, READ_BATCH)
                for event in events:
                    yield TournamentFeedEvent(event.id, event.kind, event.data)
                    self._last = event.id
                    if event.kind in LAST_KINDS:
                        return
                if events:
                    sent_at = time.monotonic()
                    if len(events) == READ_BATCH:
                        continue
            woken = self._watch.wait(max(0.0, sent_at + self._idle - time.monotonic()))
            if not woken:
                yield None
                sent_at = time.monotonic()

    def hang_up(self) -> None:
        self._hung_up = True
        self._watch.wake()

    def close(self) -> None:
        self._watch.close()
