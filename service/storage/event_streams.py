"""The kept event streams of players and tournaments, read alike.

A player's stream (players.py) and a tournament's (tournaments.py) are each
a Redis Stream of entries with a `kind` and a `data` field (JSON text),
appended by their own scripts; a follower reads the entries after the last
one it has, by id (`<ms>-<n>`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .connections import RedisLink


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """One event of a kept stream: its id (`<ms>-<n>`), kind and JSON text."""

    id: str
    kind: str
    data: str


def events_after(link: RedisLink, name: str, stream: str, after: str | None, count: int) -> list[StreamEvent]:
    """Up to `count` events of the stream after the one with id `after` (None: the oldest kept on), oldest
    first; `name` names the command in the store's metrics."""
    start = "-" if after is None else f"({after}"
    found = link.command(name, "XRANGE", stream, start, "+", "COUNT", count)
    events = []
    for entry_id, fields in found:
        # A list of field, value, ... from RESP2; a dict from RESP3.
        values = dict(zip(fields[::2], fields[1::2])) if isinstance(fields, list) else fields
        events.append(StreamEvent(entry_id, values["kind"], values["data"]))
    return events
