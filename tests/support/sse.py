"""Reading Server-Sent Events in tests, as the WHATWG event-stream format defines them,
and checking each event against the `itemSchema` openapi.yaml declares for the stream.
"""

from __future__ import annotations

import functools
import http.client
import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from jsonschema import validators
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

from service.api.contract.faults import schema_errors
from service.api.contract.schema_validator import SchemaValidator
from service.api.contract.spec import inline_refs, load_spec

STREAM_PATH = "/games/{game_id}/events"
STREAM_MEDIA_TYPE = "text/event-stream"


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
        assert self.id is not None, "an event without an id has no version"
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


def stream_item(event: Event) -> dict:
    """A dispatched event as OpenAPI 3.2's itemSchema of an event stream describes one (and
    schemathesis reads one): `event`, `data`, and `id` and `retry` when its block sets them."""
    item: dict[str, Any] = {"event": event.kind, "data": event.data}
    if event.id is not None:
        item["id"] = event.id
    if event.retry is not None and event.retry.isascii() and event.retry.isdigit():
        item["retry"] = int(event.retry)  # WHATWG ignores a retry: that is not all digits
    return item


# `validator` is the concrete class extend() made: descend() (checking a part of the instance
# with its path kept) is not in jsonschema's Validator protocol.
def _json_content(validator: Any, content_schema: Any, instance: Any, schema: dict) -> Iterator:
    """contentSchema, asserted on JSON text: Draft 2020-12 makes it an annotation, but it is how
    an itemSchema says what an event's `data` holds (schemathesis asserts it too)."""
    if schema.get("contentMediaType") != "application/json" or not isinstance(instance, str):
        return
    try:
        document = json.loads(instance)
    except ValueError as error:
        yield ValidationError(f"is not JSON ({error})")
        return
    yield from validator.descend(document, content_schema)


_StreamItemValidator = validators.extend(SchemaValidator, {"contentSchema": _json_content})


def compile_stream_item(spec: dict, item_schema: dict) -> Validator:
    """A validator of one item of a sequential media type, its JSON content checked as declared."""
    return _StreamItemValidator(inline_refs(spec, item_schema))


@functools.cache
def _declared_events() -> Validator:
    media = load_spec()["paths"][STREAM_PATH]["get"]["responses"]["200"]["content"][STREAM_MEDIA_TYPE]
    assert "itemSchema" in media, f"openapi.yaml declares no itemSchema for the events of {STREAM_PATH}"
    return compile_stream_item(load_spec(), media["itemSchema"])


def event_faults(validator: Validator, event: Event) -> list[dict]:
    """How a dispatched event breaks the item schema of `validator` ({"pointer", "message"} items)."""
    return schema_errors(validator, stream_item(event))


def check_event(event: Event) -> None:
    """Assert the event is one openapi.yaml declares for the stream (its data included)."""
    faults = event_faults(_declared_events(), event)
    assert not faults, f"{event.kind} event breaks the stream's itemSchema: {faults}\n{event.data[:300]}"


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
        watchers: bool = False,
    ):
        """`watchers`: read `event: watchers` blocks too (by default they are checked, then skipped:
        the game's own events are what most tests follow, and the count comes when it changes)."""
        address = urlsplit(base_url)
        assert address.hostname, base_url
        self.connection = http.client.HTTPConnection(address.hostname, address.port, timeout=timeout)
        headers = {"Accept": "text/event-stream", **(headers or {})}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.connection.request("GET", f"/games/{game_id}/events{query}", headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self._events = parse_blocks(self._lines()) if self.status == 200 else iter(())
        self.ended = False
        self.watchers = watchers

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
                check_event(event)
            if event.kind == "watchers" and not self.watchers:
                continue
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


def events_of(resp) -> list:
    """The data-carrying events of a whole (closed) stream, each checked against the spec's itemSchema."""
    assert resp.status_code == 200
    assert resp.mimetype == "text/event-stream"
    assert resp.headers["Cache-Control"] == "no-cache" and resp.headers["X-Accel-Buffering"] == "no"
    blocks = list(parse_blocks(resp.get_data(as_text=True).split("\n")))
    assert blocks[0].retry is not None and blocks[0].kind is None
    events = [block for block in blocks if block.kind is not None]
    for event in events:
        check_event(event)
    return events
