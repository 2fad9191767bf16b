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

from collections.abc import Iterator
from functools import partial

from service.games.jsontext import compact
from service.storage import EventWatch, TournamentBook

from .stream_feed import FeedEvent, StreamFeed
from .tournament_records import Tournament

# The events after which nothing more comes, and the statuses they bring.
LAST_KINDS = ("finished", "cancelled")
LAST_STATUSES = ("finished", "cancelled")


def _before(left: str, right: str) -> bool:
    """Whether stream id `left` comes before `right`."""
    a, _, b = left.partition("-")
    c, _, d = right.partition("-")
    return (int(a), int(b)) < (int(c), int(d))


class TournamentFeed(StreamFeed):
    """One follower of one tournament: its snapshot when it needs one, then the events (stream_feed.py)."""

    def __init__(
        self,
        book: TournamentBook,
        tournament_id: str,
        watch: EventWatch,
        after: str,
        snapshot: FeedEvent | None,
        idle_seconds: float,
        ended: bool,
    ):
        super().__init__(partial(book.events_after, tournament_id), watch, after, idle_seconds, LAST_KINDS)
        self._snapshot = snapshot
        self._ended = ended

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
            snapshot = FeedEvent(last or None, "tournament", compact(tournament.view()))
            return cls(book, tournament_id, watch, last or "0-0", snapshot, idle_seconds, ended)
        except BaseException:
            watch.close()
            raise

    @property
    def nothing_left(self) -> bool:
        """Whether the client has every event of an ended tournament already (it resumed after the last)."""
        return self._ended and self._snapshot is None

    def __iter__(self) -> Iterator[FeedEvent | None]:
        if self._snapshot is not None:
            yield self._snapshot
        if not self._ended:
            yield from super().__iter__()
