"""Following a game: a snapshot or the missed events, then one event per move (and per offer), then its end.

Every commit stores the move's event in the game's own stream, under the
version after it (play.py, storage/lua/commit_move.lua), so following a game is
reading that stream on from a version: nothing to remember per reader, and
resuming after version N (Last-Event-ID) is the same read. Between reads a
follower waits on the store's wake-ups (storage/wakeups.py) holding no
store connection.

No HTTP here: the API turns a feed into Server-Sent Events.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from service.storage import EventWatch, GameStore, StoredEvent

from .jsontext import compact, parse
from .refusals import GameNotFound

# Events read per call: a whole game's stream (storage EVENTS_MAXLEN) fits.
READ_BATCH = 256


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One event of a feed: `kind` "game" (a snapshot), "move", "offer" or "end"; `data` its JSON text."""

    kind: str
    data: str
    version: int | None = None  # the event's id; an `end` has none of its own
    seq: int = 0  # an offer's number after its version's move (StoredEvent.seq)

    @property
    def event_id(self) -> str | None:
        """The SSE `id:` of the event; an offer has none of its own (resuming after its version sends it again)."""
        return None if self.version is None or self.seq else str(self.version)


def _stored(event: StoredEvent) -> GameEvent:
    return GameEvent("offer" if event.seq else "move", event.data, event.version, event.seq)


def _snapshot(version: int, view: str) -> list[GameEvent]:
    """The snapshot of a game, followed by its end when it is over."""
    events = [GameEvent("game", view, version)]
    result = parse(view).get("result")
    if result is not None:
        events.append(GameEvent("end", compact(result)))
    return events


class EventFeed:
    """One follower of one game. Iterate it: events, and None each time it has been idle
    `idle_seconds` (for a keep-alive); it ends after the game's end, when the process is
    shutting down, after `hang_up`, or by raising StorageError when the store fails.
    Close it when done.

    `complete` is True when the game is over and the client already has all of
    it: the feed has nothing to send, now or ever.
    """

    def __init__(
        self,
        store: GameStore,
        game_id: str,
        watch: EventWatch,
        first: list[GameEvent],
        last: int,
        idle_seconds: float,
        complete: bool = False,
    ):
        self._store = store
        self._game_id = game_id
        self._watch = watch
        self._first = first
        self._last = last  # the version the client has once `first` is sent
        self._last_seq = 0  # ... and the last offer of it sent
        self._idle = idle_seconds
        self.complete = complete
        self._hung_up = False
        # Events from beside the game (`tell`), sent between its own.
        self._told: deque[GameEvent] = deque()

    @classmethod
    def open(cls, store: GameStore, game_id: str, after: int | None, idle_seconds: float) -> EventFeed:
        """Read what comes first (GameNotFound, StorageError raise here, before any event).

        `after`: the last version the client has (Last-Event-ID). When the
        stream still holds every event after it, the feed starts with those
        and no snapshot; otherwise (None, garbage, trimmed, not a version of
        this game) with a snapshot. When `after` is at or past the last
        version of a finished game, the feed is `complete`.
        """
        # Watching before the first read: a move committed after the read wakes it.
        watch = store.watch_events(game_id)
        try:
            first = cls._first_events(store, game_id, after)
        except BaseException:
            watch.close()
            raise
        if first is None:
            assert after is not None
            return cls(store, game_id, watch, [], after, idle_seconds, complete=True)
        placed = [event for event in first if event.version is not None]
        last = placed[-1].version if placed else after
        assert last is not None, "a snapshot carries its version"
        feed = cls(store, game_id, watch, first, last, idle_seconds)
        feed._last_seq = placed[-1].seq if placed else 0
        return feed

    @staticmethod
    def _first_events(store: GameStore, game_id: str, after: int | None) -> list[GameEvent] | None:
        """What to send first; None when the game is over and the client has all of it."""
        current = False  # the client missed no move (it waits for the next)
        offers: list[GameEvent] = []  # ... but these offers, made since its version
        if after is not None:
            found = store.load_events(game_id, after, READ_BATCH)
            if found is None:
                raise GameNotFound(game_id)
            if found.resumes_after(after):
                events = [_stored(event) for event in found.events]
                ended = [GameEvent("end", event.end) for event in found.events if event.end]
                if ended or any(not event.seq for event in found.events):
                    return events + ended
                current, offers = True, events
        view = store.load_view(game_id)
        if view is None:
            raise GameNotFound(game_id)
        snapshot = _snapshot(view.version, view.view)
        if after is not None and after >= view.version and snapshot[-1].kind == "end":
            # Over, and the client has every version (or claims more): the
            # final move's data carried the result. Sending `end` again would
            # only end the stream, and EventSource would reconnect for it. So
            # would offers made since (a rematch's): the game shows its `offer`.
            return None
        return offers if current else snapshot

    def __iter__(self) -> Iterator[GameEvent | None]:
        if self.complete:
            return
        for event in self._first:
            yield event
            if event.kind == "end":
                return
        last, last_seq = self._last, self._last_seq
        sent_at = time.monotonic()
        while not (self._watch.closing or self._hung_up):
            # Only a wake-up makes a read: an idle follower costs the store nothing.
            if not self._watch.wait(max(0.0, sent_at + self._idle - time.monotonic())):
                yield None
                sent_at = time.monotonic()
                continue
            if self._watch.closing or self._hung_up:
                return
            while self._told:
                yield self._told.popleft()
                sent_at = time.monotonic()
            found = self._store.load_events(self._game_id, last, READ_BATCH, last_seq)
            if found is None or not found.resumes_after(last):
                # Gone, or no longer holding what follows `last` (expired,
                # recreated, Redis lost writes): end, and let the client come
                # back with Last-Event-ID for a snapshot.
                return
            for stored in found.events:
                yield _stored(stored)
                last, last_seq = stored.version, stored.seq
                if stored.end:
                    yield GameEvent("end", stored.end)
                    return
            if found.events:
                sent_at = time.monotonic()

    @property
    def ends_at_once(self) -> bool:
        """The feed ends with its first events (the game is over): nothing told would be sent."""
        return self.complete or (bool(self._first) and self._first[-1].kind == "end")

    def tell(self, event: GameEvent) -> None:
        """Send `event` (one without a version: the API's `watchers`) once the feed is past its first events.

        Safe to call from anywhere in the process, as `hang_up` is. Telling
        wakes the feed, which reads the game's stream as for any wake-up:
        no move is missed, and none is read that was not there.
        """
        self._told.append(event)
        self._watch.wake()

    def hang_up(self) -> None:
        """End the feed at once, even while it waits: its client has gone.

        Safe to call from anywhere in the process (under gevent, from the hub).
        """
        self._hung_up = True
        self._watch.wake()

    def close(self) -> None:
        self._watch.close()
