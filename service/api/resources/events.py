"""Live updates: a game's events as Server-Sent Events (docs/api-guide.md), for the browser's EventSource.

The game-play core (service/games/events.py) says what to send; this module
writes it in the WHATWG event-stream format. Everything that can refuse the
request (an unknown game, a store that does not answer) happens before the
response starts, so such a request gets its problem+json, never a stream.

While waiting the response's iterator is parked on the store's wake-ups:
under gevent a parked greenlet, holding no store connection. Meanwhile the
client's socket is watched (streams/hangups.py): a client that closes its
connection ends its stream at once, not at the next keep-alive. Each client
address holds at most STREAMS_PER_CLIENT streams (streams/limits.py).

A client that has the whole of a finished game (its Last-Event-ID at or past
the last version) gets `204 No Content`: on a 204 EventSource stops, where a
stream with only `end` in it would make it reconnect for ever.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from typing import Protocol

from flask import Blueprint, Response, request

from service.api.context import client_address, services
from service.api.incoming import check_headers, read_query
from service.api.streams.hangups import HangupWatch
from service.games.events import GameEvent
from service.games.jsontext import compact
from service.storage import StorageError
from service.telemetry.metrics import OPEN_EVENT_STREAMS

log = logging.getLogger(__name__)
bp = Blueprint("events", __name__)

# How long EventSource waits before reconnecting after the stream closes.
RETRY_MS = 2000
KEEP_ALIVE = b": keep-alive\n\n"
# A version is a positive number; anything else in Last-Event-ID (garbage,
# a huge number) asks for a snapshot, never a 400.
_VERSION = re.compile(r"[1-9][0-9]{0,17}\Z")


def _last_event_id() -> int | None:
    """The version the client says it has: the header first (what EventSource sends), then the query."""
    text = request.headers.get("Last-Event-ID")
    if text is None:
        text = read_query("streamEvents").get("last_event_id")
    if text is None:
        return None
    text = text.strip()
    return int(text) if _VERSION.match(text) else None


class Event(Protocol):
    """What a feed yields: a game's events (games/events.py) or a player's or a tournament's (site/stream_feed.py)."""

    @property
    def event_id(self) -> str | None: ...
    @property
    def kind(self) -> str: ...
    @property
    def data(self) -> str: ...


class Feed(Protocol):
    def __iter__(self) -> Iterator[Event | None]: ...
    def hang_up(self) -> None: ...
    def close(self) -> None: ...


def _encode(event: Event | None) -> bytes:
    if event is None:
        return KEEP_ALIVE
    head = f"id: {event.event_id}\n" if event.event_id is not None else ""
    return f"{head}event: {event.kind}\ndata: {event.data}\n\n".encode()


def event_stream(feed: Feed, on_close: Callable[[], None]) -> Response:
    """The SSE response of `feed`, its client's socket watched; `on_close` runs however it ends."""
    resp = Response(_stream(feed, request.environ), mimetype="text/event-stream")
    # Whenever the server closes the response, started or not: the stream's
    # generator runs its `finally` only if it was started.
    resp.call_on_close(on_close)
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


def _stream(feed: Feed, environ: dict):
    # Counted open from the first byte until the stream ends, however it
    # ends (its end, a store failure, the client gone, the worker stopping):
    # the server closes the generator and `finally` runs.
    OPEN_EVENT_STREAMS.inc()
    hangup = HangupWatch.of_request(environ, feed.hang_up)
    try:
        yield f"retry: {RETRY_MS}\n\n".encode("ascii")
        for event in feed:
            yield _encode(event)
    except StorageError as error:
        # The client reconnects with Last-Event-ID and misses nothing.
        log.warning("event stream closed: the store failed (%s)", error)
    finally:
        if hangup is not None:
            hangup.stop()  # before the server reads the socket again, or closes it
        OPEN_EVENT_STREAMS.dec()
        feed.close()


@bp.get("/games/<game_id>/events")
def stream_events(game_id: str):
    """The game's events: a snapshot or the missed ones, then each move, then its end; `watchers` as it changes."""
    check_headers("streamEvents")
    after = _last_event_id()
    client = client_address()
    open_streams = services().open_streams
    open_streams.open(client)  # 429 past the client's limit, before any store call
    try:
        feed = services().play.follow(game_id, after, services().settings.events_keepalive)
    except BaseException:
        open_streams.close(client)
        raise
    if feed.complete:
        feed.close()
        open_streams.close(client)
        return Response(status=204)
    if feed.ends_at_once:
        return event_stream(feed, lambda: open_streams.close(client))
    watchers = services().watchers
    try:
        # Counted from now, on every instance; the feed hears each new count (streams/watchers.py).
        stream = watchers.join(
            game_id, lambda count: feed.tell(GameEvent("watchers", compact({"count": count})))
        )
    except BaseException:
        feed.close()
        open_streams.close(client)
        raise

    def closed() -> None:
        if stream is not None:  # None: uncounted, the store refused its lease
            watchers.leave(game_id, stream)
        open_streams.close(client)

    return event_stream(feed, closed)
