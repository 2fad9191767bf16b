"""Following a kept stream of events (a player's, a tournament's): the events after the last one the client has,
then each new one as it comes.

A client names the last event it has (Last-Event-ID: the event's id,
`<ms>-<n>`) and gets every event kept after it, then each new one. Between
reads the feed waits on the store's wake-ups, holding no store connection,
and yields None each `idle_seconds` without an event (the API writes a
keep-alive). It ends when the process shuts down, the client hangs up, the
store fails (StorageError; the client comes back with Last-Event-ID), or
after an event of a kind that ends the stream.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from service.storage import EventWatch, StreamEvent

READ_BATCH = 100
_EVENT_ID = re.compile(r"[0-9]{1,20}-[0-9]{1,20}\Z")


@dataclass(frozen=True, slots=True)
class FeedEvent:
    """One event a feed yields: its id (None: a snapshot's of a stream with no event yet), kind and JSON text."""

    event_id: str | None
    kind: str
    data: str


def event_id_or_none(text: str | None) -> str | None:
    """A Last-Event-ID that could name a kept event, else None."""
    if text is None:
        return None
    text = text.strip()
    return text if _EVENT_ID.match(text) else None


class StreamFeed:
    """One follower of one kept stream. Iterate it: events, and None when idle `idle_seconds` (a keep-alive).

    `read(after, count)`: up to `count` events after the id `after`, oldest
    first. `last_kinds`: the kinds after which nothing more comes.
    """

    def __init__(
        self,
        read: Callable[[str, int], list[StreamEvent]],
        watch: EventWatch,
        after: str,
        idle_seconds: float,
        last_kinds: tuple[str, ...] = (),
    ):
        self._read = read
        self._watch = watch
        self._last = after  # "0-0": from the stream's start
        self._idle = idle_seconds
        self._last_kinds = last_kinds
        self._hung_up = False

    def __iter__(self) -> Iterator[FeedEvent | None]:
        sent_at = time.monotonic()
        woken = True  # read once at the start: the events after Last-Event-ID
        while not (self._watch.closing or self._hung_up):
            if woken:
                events = self._read(self._last, READ_BATCH)
                for event in events:
                    yield FeedEvent(event.id, event.kind, event.data)
                    self._last = event.id
                    if event.kind in self._last_kinds:
                        return
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
