"""Reading Server-Sent Events in tests, as the WHATWG event-stream format defines them,
and checking each event's data against openapi.yaml.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from service.api.spec import load_spec
from service.api.spec_errors import compile_schema, schema_errors

# What each kind of event carries (openapi.yaml, streamEvents).
DATA_SCHEMAS = {"game": "Game", "move": "MoveEvent", "end": "GameResult"}
_validators: dict[str, object] = {}


@dataclass
class Event:
    """One dispatched event, or a block of comments only (`kind` None)."""

    kind: str | None = None
    data: str = ""
    id: str | None = None
    retry: str | None = None
    comments: list[str] = field(default_factory=list)

    def json(self):
        return json.loads(self.data)

    @property
    def version(self) -> int:
        return int(self.id)


def parse_blocks(lines: Iterable[str]) -> Iterator[Event]:
    """Events from the stream's lines (without line ends), one per blank-line-ended block."""
    event = Event()
    data: list[str] = []
    for line in lines:
        if line == "":
            if data or event.comments or event.retry is not None or event.id is not None:
                event.data = "\n".join(data)
                if data and event.kind is None:
                    event.kind = "message"
                yield event
            event, data = Event(), []
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "":
            event.comments.append(value)
        elif name == "data":
            data.append(value)
        elif name == "event":
            event.kind = value
        elif name == "id":
            event.id = value
        elif name == "retry":
            event.retry = value


def check_data(event: Event) -> None:
    """Assert the event's data is what openapi.yaml says an event of its kind carries."""
    name = DATA_SCHEMAS[event.kind]
    if name not in _validators:
        _validators[name] = compile_schema(load_spec(), {"$ref": f"#/components/schemas/{name}"})
    faults = schema_errors(_validators[name], event.json())
    assert not faults, f"{event.kind} event breaks {name}: {faults}\n{event.data[:300]}"


class EventStream:
    """GET /games/{id}/events on a live service, read event by event (each read bounded)."""

    def __init__(
        self,
        base_url: str,
        game_id: str,
        *,
        last_event_id: str | None = None,
        query: str = "",
        timeout: float = 10.0,
        headers: dict[str, str] | None = None,
    ):
        address = urlsplit(base_url)
        self.connection = http.client.HTTPConnection(address.hostname, address.port, timeout=timeout)
        headers = {"Accept": "text/event-stream", **(headers or {})}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.connection.request("GET", f"/games/{game_id}/events{query}", headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self._events = parse_blocks(self._lines()) if self.status == 200 else iter(())
        self.ended = False

    def _lines(self) -> Iterator[str]:
        while True:
            raw = self.response.readline()
            if not raw:
                self.ended = True
                return
            yield raw.decode("utf-8").rstrip("\r\n")

    def next(self, skip_comments: bool = True) -> Event | None:
        """The next event (None when the stream closed); comment-only blocks skipped unless asked."""
        for event in self._events:
            if event.kind is None and skip_comments:
                continue
            if event.kind is not None:
                check_data(event)
            return event
        return None

    def take(self, count: int) -> list[Event]:
        """The next `count` events with data (the `retry:` block skipped)."""
        events: list[Event] = []
        while len(events) < count:
            event = self.next()
            assert event is not None, f"stream closed after {events}"
            if event.kind is not None:
                events.append(event)
        return events

    def rest(self) -> list[Event]:
        """Every event until the service closes the stream."""
        events = []
        while (event := self.next()) is not None:
            if event.kind is not None:
                events.append(event)
        return events

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_when_ready(base_url: str, game_id: str, *, deadline_seconds: float = 20.0, **kwargs) -> EventStream:
    """A stream opened as an EventSource client retries: until it answers 200 (503 meanwhile)."""
    deadline = time.monotonic() + deadline_seconds
    while True:
        try:
            stream = EventStream(base_url, game_id, **kwargs)
            if stream.status == 200:
                return stream
            assert stream.status == 503, stream.status
            stream.close()
        except OSError:
            pass
        assert time.monotonic() < deadline, f"no stream within {deadline_seconds} s"
        time.sleep(0.2)
