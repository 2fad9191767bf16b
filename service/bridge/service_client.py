"""The service's HTTP API as the bridge calls it: a player token, retries, Retry-After, event streams.

Every call is retried while the service cannot answer it yet: a connection
refused or dropped (the service restarting), a `503`, or a `429` whose
`Retry-After` is short. A retried move carries the same Idempotency-Key and
If-Match, so a retry whose first attempt did land is answered with that
first answer (or refused as stale), never applied twice.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import requests

log = logging.getLogger("patchwork.bot")

# A 429 or 503 that asks for a longer wait than this is an answer, not a pause
# (e.g. a day's cap on bot games): the caller decides what to do.
MAX_RETRY_AFTER_S = 60.0
# Backoff after a connection error: the first wait, doubled up to the cap.
FIRST_BACKOFF_S = 0.2
MAX_BACKOFF_S = 5.0
CONNECT_TIMEOUT_S = 5.0
# A call's answer, and a stream's next bytes (the service sends a keep-alive
# comment well within this), must come within this long, or the connection is
# taken for dead and made again.
READ_TIMEOUT_S = 60.0


class Stopped(Exception):
    """The bridge is stopping: a wait was cut short."""


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """One Server-Sent Event: its type, its id (None without one) and its data, parsed as JSON."""

    event: str
    id: str | None
    data: Any


class ServiceClient:
    """Calls one service with one player token. One per thread: a requests Session is not shared."""

    def __init__(self, url: str, token: str, stop: threading.Event):
        self.url = url.rstrip("/")
        self.stop = stop
        self.session = requests.Session()
        self.session.headers.update(
            {"Authorization": f"Bearer {token}", "User-Agent": "patchwork-bot", "Accept": "application/json"}
        )

    def close(self) -> None:
        self.session.close()

    def wait(self, seconds: float) -> None:
        """Sleep unless the bridge stops first (Stopped)."""
        if self.stop.wait(seconds):
            raise Stopped()

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> requests.Response:
        """The service's answer to one call, after as many retries as it takes to get one."""
        backoff = FIRST_BACKOFF_S
        while True:
            if self.stop.is_set():
                raise Stopped()
            try:
                answer = self.session.request(
                    method,
                    self.url + path,
                    json=body,
                    headers=headers,
                    timeout=(CONNECT_TIMEOUT_S, READ_TIMEOUT_S),
                )
            except requests.RequestException as error:
                log.warning("%s %s failed (%s); trying again in %.1f s", method, path, error, backoff)
                self.wait(backoff)
                backoff = min(2 * backoff, MAX_BACKOFF_S)
                continue
            pause = retry_after(answer)
            if pause is None:
                return answer
            log.info("%s %s: %d, trying again in %.1f s", method, path, answer.status_code, pause)
            self.wait(pause)

    def json(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        """The JSON body of a call that must succeed (a 2xx); ServiceRefused otherwise."""
        answer = self.call(method, path, body, headers)
        if not answer.ok:
            raise ServiceRefused(method, path, answer)
        return answer.json()

    def events(
        self, path: str, last_event_id: str | None, opened: Callable[[], None] | None = None
    ) -> Iterator[StreamEvent]:
        """The events of one connection to a stream, resumed after `last_event_id`; ends when it closes.

        `opened` is called once the stream is open, before its first event:
        what is read then cannot miss an event sent before the connection.
        A refusal to open it (a 404, a 204 of a finished game) ends it with no
        event; a dropped or silent connection raises requests.RequestException.
        """
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        while True:
            answer = self.session.get(
                self.url + path, headers=headers, stream=True, timeout=(CONNECT_TIMEOUT_S, READ_TIMEOUT_S)
            )
            pause = retry_after(answer)
            if pause is None:
                break
            answer.close()
            self.wait(pause)
        with answer:
            if answer.status_code != 200:
                log.info("stream %s not opened: %d", path, answer.status_code)
                return
            if opened is not None:
                opened()
            yield from parse_events(answer.iter_content(chunk_size=None))


class ServiceRefused(Exception):
    """A call the bridge needed was refused: its status and problem code."""

    def __init__(self, method: str, path: str, answer: requests.Response):
        self.status = answer.status_code
        try:
            self.code = answer.json().get("code")
        except ValueError:
            self.code = None
        super().__init__(f"{method} {path}: {self.status} {self.code or answer.text[:200]}")


def retry_after(answer: requests.Response) -> float | None:
    """How long to wait before asking again, for a 429 or 503 worth waiting for; None otherwise."""
    if answer.status_code not in (429, 503):
        return None
    header = answer.headers.get("Retry-After", "1")
    try:
        seconds = float(header)
    except ValueError:
        seconds = 1.0  # an HTTP date: the service sends seconds, so this is someone else's
    return max(0.0, seconds) if seconds <= MAX_RETRY_AFTER_S else None


def parse_events(chunks: Iterator[bytes]) -> Iterator[StreamEvent]:
    """Server-Sent Events out of a byte stream (the HTML standard's reading, for the fields the service sends)."""
    buffer = b""
    kind, event_id, data = "message", None, list[str]()
    for chunk in chunks:
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            line = raw.rstrip(b"\r").decode("utf-8")
            if line == "":
                if data:
                    yield StreamEvent(kind, event_id, json.loads("\n".join(data)))
                kind, event_id, data = "message", None, list[str]()
                continue
            if line.startswith(":"):
                continue  # a keep-alive comment
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                kind = value
            elif name == "id":
                event_id = value
            elif name == "data":
                data.append(value)
