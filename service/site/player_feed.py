"""Following a player: the events of its stream (notices.py) after the last one the client has, as they come.

Like a game's feed (events.py), minus the snapshot: a client that names the
last event it has (Last-Event-ID: the event's id, `<ms>-<n>`) gets every
event kept after it, then each new one; a client that names none starts
from now. Between reads it waits on the store's wake-ups, holding no store
connection. Ends when the process shuts down, the client hangs up, or the
store fails (StorageError; the client comes back with Last-Event-ID).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

from service.storage import EventWatch, PlayerStore

READ_BATCH = 100
_EVENT_ID = re.compile(r"[0-9]{1,20}-[0-9]{1,20}\Z")


@dataclass(frozen=True, slots=True)
class PlayerFeedEvent:
    """One event of a player's feed: its id, kind (`game_start`, `your_turn`, `game_end`, `rematch_offer`), JSON text."""

    event_id: str
    kind: str
    data: str


def event_id_or_none(text: str | None) -> str | None:
    """A Last-Event-ID that names a player's event, else None (start from now)."""
    if text is None:
        return None
    text = text.strip()
    return text if _EVENT_ID.match(text) else None


class PlayerFeed:
    """One follower of one player's stream. Iterate it: events, and None when idle `idle_seconds` (a keep-alive)."""

    def __init__(
        self, store: PlayerStore, player_id: str, watch: EventWatch, after: str, idle_seconds: float
    ):
        self._store = store
        self._player_id = player_id
        self._watch = watch
        self._last = after  # "0-0": from the stream's start
        self._idle = idle_seconds
        self._hung_up = False

    @classmethod
    def open(cls, store: PlayerStore, player_id: str, after: str | None, idle_seconds: float) -> PlayerFeed:
        """Watch first, then settle where to start (StorageError raises here, before any event)."""
        watch = store.watch(player_id)
        try:
            if after is None:
                after = store.newest_event_id(player_id) or "0-0"
        except BaseException:
            watch.close()
            raise
        return cls(store, player_id, watch, after, idle_seconds)

    def __iter__(self) -> Iterator[PlayerFeedEvent | None]:
        sent_at = time.monotonic()
        woken = True  # read once at the start: the events after Last-Event-ID
        while not (self._watch.closing or self._hung_up):
            if woken:
                events = self._store.events_after(self._player_id, self._last, READ_BATCH)
                for event in events:
                    yield PlayerFeedEvent(event.id, event.kind, event.data)
                    self._last = event.id
                if events:
                    sent_at = time.monotonic()
                    if len(events) == READ_BATCH:
                        continue  # more are kept: read on without waiting
            woken = self._watch.wait(max(0.0, sent_at + self._idle - time.monotonic()))
            if not woken:
                yield None
                sent_at = time.monotonic()

    def hang_up(self) -> None:
        """End the feed at once, even while it waits: its client has gone."""
        self._hung_up = True
        self._watch.wake()

    def close(self) -> None:
        self._watch.close()
