"""Sending webhook deliveries from the queue (storage/webhooks.py): concurrent, signed, guarded, retried.

A sender leases due deliveries, up to its free threads (WEBHOOK_CONCURRENCY),
and sends each from a thread of its own, at most PER_URL (2) at once to
one URL's origin (scheme, host, port): a slow or dead endpoint holds that
many threads for at most the timeout each, and every other URL's deliveries
go on. A delivery put off for that is due again a second later, its try not
counted.

One attempt: read the webhook (gone or disabled: the delivery is dropped),
resolve its host and check every address (webhook_addresses.py), connect to
a checked address with the URL's host as the Host header and TLS server
name, POST the body signed by the Standard Webhooks library, and wait at
most 5 s for the answer's status. A 2xx is
delivered; anything else fails: a 3xx (redirects are not followed), 4xx,
5xx, a timeout, a refused connection, an address refused.

Each attempt is logged on the webhook (its last 100: GET
/players/me/webhooks/{id}/deliveries). A failed one is tried again at the
next offset of WEBHOOK_RETRY_SCHEDULE from the delivery's first attempt
(by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h), and
given up after the last. A webhook failing for as long as the last offset
(24 h) without a success in between is disabled, its pending deliveries
dropped, and its player told on its stream (`webhook_disabled`).

The lease of a delivery in hand (LEASE_MS) outlasts an attempt by far: a
sender that dies has its deliveries sent again by another (at least once:
the receiver tells a repeat by its `webhook-id`).
"""

from __future__ import annotations

import http.client
import logging
import socket
import ssl
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from standardwebhooks import Webhook as Signer

from service.config import DEFAULT_WEBHOOK_RETRY_SCHEDULE, Settings
from service.games.clock import rfc3339_ms
from service.games.jsontext import compact, parse
from service.site.webhook_addresses import AddressGuard, AddressRefused, Target
from service.site.webhooks import Webhook
from service.storage import StorageError
from service.storage.webhooks import TakenDelivery, WebhookBook

log = logging.getLogger("patchwork.webhooks")

# A delivery in a sender's hands is its own this long; then another sender may take it.
LEASE_MS = 60_000
# A delivery put off (its URL has `per_url` in flight) is due again after this long.
PUT_OFF_MS = 1000
# The longest an idle sender waits (BLPOP) before looking at the queue again:
# well inside the store's socket timeout (REDIS_TIMEOUT_SECONDS, 1 s by default).
IDLE_MS = 400
# What of an answer is read: its status line and headers, and this much of its body.
_ANSWER_BYTES = 4096
USER_AGENT = "patchwork-webhooks/1"


@dataclass(frozen=True, slots=True)
class SenderSettings:
    """How a sender sends: WEBHOOK_RETRY_SCHEDULE (whose last offset is also how long a webhook fails before
    it is disabled) and WEBHOOK_CONCURRENCY; the timeout and the per-URL limit are the contract's (tests
    shorten them all)."""

    timeout_s: float = 5.0
    retry_schedule_s: tuple[float, ...] = DEFAULT_WEBHOOK_RETRY_SCHEDULE
    disable_after_s: float = 86400.0
    concurrency: int = 16
    per_url: int = 2

    @classmethod
    def of(cls, settings: Settings) -> SenderSettings:
        schedule = settings.webhook_retry_schedule
        return cls(
            retry_schedule_s=schedule, disable_after_s=schedule[-1], concurrency=settings.webhook_concurrency
        )


class Outcome(NamedTuple):
    """An attempt's outcome: delivered (a 2xx) or not, the answer's status, the error when none came."""

    delivered: bool
    code: int | None
    error: str | None


class _PinnedHTTP(http.client.HTTPConnection):
    """An HTTP connection to one checked address, the URL's host named in the Host header."""

    def __init__(self, target: Target, address: str, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _PinnedHTTPS(_PinnedHTTP):
    """As _PinnedHTTP, over TLS with the URL's host as the server name the certificate must match."""

    default_port = 443

    def __init__(self, target: Target, address: str, timeout: float, context: ssl.SSLContext):
        super().__init__(target, address, timeout)
        self._tls = context

    def connect(self) -> None:
        super().connect()
        self.sock = self._tls.wrap_socket(self.sock, server_hostname=self.host)


_TLS = ssl.create_default_context()


def post(
    target: Target, headers: dict[str, str], body: bytes, timeout_s: float, tls: ssl.SSLContext = _TLS
) -> Outcome:
    """POST `body` to the target, trying its checked addresses in turn until one connects; never a redirect.
    `tls`: the certificates trusted (the system's)."""
    deadline = time.monotonic() + timeout_s
    error = "no address to connect to"
    for address in target.addresses:
        left = deadline - time.monotonic()
        if left <= 0:
            return Outcome(False, None, "timed out")
        connection: _PinnedHTTP = (
            _PinnedHTTPS(target, address, left, tls)
            if target.scheme == "https"
            else _PinnedHTTP(target, address, left)
        )
        try:
            try:
                connection.connect()
            except (OSError, ssl.SSLError) as failed:
                error = _describe(failed)
                continue  # the next address
            try:
                connection.request("POST", target.path, body=body, headers=headers)
                if connection.sock is not None:
                    connection.sock.settimeout(max(0.001, deadline - time.monotonic()))
                answer = connection.getresponse()
                answer.read(_ANSWER_BYTES)
            except (OSError, http.client.HTTPException) as failed:
                return Outcome(False, None, _describe(failed))
            if time.monotonic() > deadline:
                return Outcome(False, answer.status, "timed out")
            return Outcome(200 <= answer.status < 300, answer.status, None)
        finally:
            connection.close()
    return Outcome(False, None, error)


def _describe(error: BaseException) -> str:
    if isinstance(error, TimeoutError | socket.timeout):
        return "timed out"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    return f"{type(error).__name__}: {error}"[:200]


class _OriginGate:
    """How many deliveries are in flight to each origin, at most `most` each."""

    def __init__(self, most: int):
        self._most = most
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()

    def enter(self, origin: str) -> bool:
        with self._lock:
            count = self._counts.get(origin, 0)
            if count >= self._most:
                return False
            self._counts[origin] = count + 1
            return True

    def leave(self, origin: str) -> None:
        with self._lock:
            count = self._counts[origin] - 1
            if count:
                self._counts[origin] = count
            else:
                del self._counts[origin]


class WebhookSender:
    """One sender process's loop: lease due deliveries, send them from a pool of threads, settle each."""

    def __init__(
        self,
        book: WebhookBook,
        guard: AddressGuard,
        settings: SenderSettings,
        now_ms: Callable[[], int],
        sent: Callable[[str], None] = lambda status: None,
    ):
        self.book = book
        self.guard = guard
        self.settings = settings
        self.now_ms = now_ms
        # Told each attempt's status (delivered, failed, put off, dropped): the process's metrics.
        self._sent = sent
        self._gate = _OriginGate(settings.per_url)
        self._stopping = threading.Event()
        self._room = threading.Condition()
        self._in_flight = 0

    def stop(self) -> None:
        """End the loop; deliveries in hand are finished first."""
        self._stopping.set()
        with self._room:
            self._room.notify_all()

    def run(self) -> None:
        """Send until stopped."""
        with ThreadPoolExecutor(self.settings.concurrency, thread_name_prefix="webhook") as pool:
            while not self._stopping.is_set():
                try:
                    self._tick(pool)
                except StorageError as error:
                    log.warning("the delivery queue could not be read (%s): trying again in a second", error)
                    self._stopping.wait(1.0)

    def _tick(self, pool: ThreadPoolExecutor) -> None:
        with self._room:
            while self._in_flight >= self.settings.concurrency and not self._stopping.is_set():
                self._room.wait(0.5)
            free = self.settings.concurrency - self._in_flight
        if self._stopping.is_set():
            return
        taken = self.book.take(free, LEASE_MS)
        for delivery in taken:
            with self._room:
                self._in_flight += 1
            pool.submit(self._deliver_counted, delivery)
        if not taken:
            self.book.wait(self._idle_ms())

    def _idle_ms(self) -> int:
        """How long to wait for a wake-up: until the next delivery is due, IDLE_MS at most."""
        due = self.book.next_due_ms()
        if due is None:
            return IDLE_MS
        return max(1, min(IDLE_MS, due - self.now_ms()))

    def _deliver_counted(self, delivery: TakenDelivery) -> None:
        try:
            self.deliver(delivery)
        except StorageError as error:
            # Its lease runs out and it is sent again.
            log.warning("a webhook delivery could not be settled (%s): it will be sent again", error)
        except Exception:
            log.exception("a webhook delivery failed unexpectedly: it will be sent again")
        finally:
            with self._room:
                self._in_flight -= 1
                self._room.notify_all()

    def deliver(self, delivery: TakenDelivery) -> str:
        """Make one attempt at a leased delivery and settle it; what became of it."""
        job = parse(delivery.job)
        player_id, hook_id = job["player"], job["hook"]
        text = self.book.record(player_id, hook_id)
        if text is None or self.book.is_off(player_id, hook_id):
            self.book.done(delivery.id, hook_id)
            return self._told("dropped")
        hook = Webhook.decode(text)
        try:
            target: Target | None = self.guard.target(hook.url)
            refused = None
        except AddressRefused as error:
            target, refused = None, str(error)
        origin = hook.url if target is None else f"{target.scheme}://{target.host}:{target.port}"
        if not self._gate.enter(origin):
            self.book.retry_at(delivery.id, hook_id, self.now_ms() + PUT_OFF_MS, tried=False)
            return self._told("put_off")
        started = time.monotonic()
        try:
            outcome = (
                Outcome(False, None, f"address refused: {refused}")
                if target is None
                else self._post(hook, job, target)
            )
        finally:
            self._gate.leave(origin)
        return self._settle(delivery, job, hook, outcome, time.monotonic() - started)

    def _post(self, hook: Webhook, job: dict[str, Any], target: Target) -> Outcome:
        payload: str = job["payload"]
        sent_at = datetime.fromtimestamp(self.now_ms() / 1000, tz=UTC)
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "webhook-id": job["message"],
            "webhook-timestamp": str(int(sent_at.timestamp())),
            "webhook-signature": Signer(hook.secret).sign(job["message"], sent_at, payload),
        }
        return post(target, headers, payload.encode(), self.settings.timeout_s)

    def _settle(
        self, delivery: TakenDelivery, job: dict[str, Any], hook: Webhook, outcome: Outcome, took_s: float
    ) -> str:
        now = self.now_ms()
        entry = compact(
            {
                "message_id": job["message"],
                "event": job["event"],
                "attempt": delivery.attempt,
                "at": rfc3339_ms(now),
                "status": "delivered" if outcome.delivered else "failed",
                "code": outcome.code,
                "error": outcome.error,
                "duration_ms": round(took_s * 1000),
            }
        )
        notice = compact({"webhook": hook.id, "url": hook.url})
        state = self.book.record_attempt(
            job["player"],
            hook.id,
            hook.events,
            entry=entry,
            ok=outcome.delivered,
            now_ms=now,
            disable_after_ms=round(self.settings.disable_after_s * 1000),
            notice=notice,
        )
        if state == "disabled":
            log.warning("webhook %s failed for %g s: disabled", hook.id, self.settings.disable_after_s)
            self.book.done(delivery.id, hook.id)
            self.book.drop_hook(hook.id)
            return self._told("disabled")
        if outcome.delivered or state in ("gone", "off"):
            self.book.done(delivery.id, hook.id)
            return self._told("delivered" if outcome.delivered else "dropped")
        schedule = self.settings.retry_schedule_s
        if delivery.attempt > len(schedule):
            self.book.done(delivery.id, hook.id)
            return self._told("given_up")
        due = int(job["created_ms"] + schedule[delivery.attempt - 1] * 1000)
        self.book.retry_at(delivery.id, hook.id, max(due, now))
        return self._told("failed")

    def _told(self, status: str) -> str:
        self._sent(status)
        return status
