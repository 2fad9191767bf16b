"""Players' webhooks: made, listed and removed over the API, fed by the notices, sent by the senders.

A webhook is a URL and the events it wants: `your_turn`, `game_start`,
`game_end`, `challenge`, `rematch_offer`, `low_time`, `tournament_round`
(WEBHOOK_EVENTS). Each is the player-stream event of that name
(site/notices.py), but for `tournament_round`: a `game_start` with
`tournament`, the game a tournament's round paired the player into. A
webhook listening to both gets that one once, as `tournament_round`.

Each notice a webhook wants becomes one delivery in the queue
(storage/webhooks.py), sent by the sender processes
(botworker/webhook_sender.py) as the Standard Webhooks spec says: a POST of
`{"type", "timestamp", "data"}` (`data`: the stream event's data) signed
with the webhook's secret, the same `webhook-id` on every attempt.

The secret is `whsec_<base64 of 24 random bytes>`, shown once at creation,
never listed. Unlike a token it is kept as it is: each delivery is signed
with it.
"""

from __future__ import annotations

import base64
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from service.games.clock import rfc3339_ms
from service.games.jsontext import compact, parse
from service.games.records import could_be_game_id, new_game_id
from service.games.refusals import Refusal
from service.languages import Text
from service.storage import StorageError
from service.storage.webhooks import DEFAULT_PENDING, DEFAULT_PER_PLAYER, QueuedDelivery, WebhookBook

from .webhook_addresses import AddressGuard, AddressRefused

log = logging.getLogger(__name__)

WEBHOOK_EVENTS = (
    "your_turn",
    "game_start",
    "game_end",
    "challenge",
    "rematch_offer",
    "low_time",
    "tournament_round",
)
RECORD_FORMAT = 1


class WebhookNotFound(Refusal):
    code = "webhook_not_found"

    def __init__(self) -> None:
        super().__init__(Text("You have no webhook with this id."))


class TooManyWebhooks(Refusal):
    code = "too_many_webhooks"

    def __init__(self, most: int) -> None:
        super().__init__(Text("A player has at most {most} webhooks: remove one first.", {"most": most}))


class WebhookUrlRefused(Refusal):
    code = "webhook_url_refused"


@dataclass(frozen=True, slots=True, kw_only=True)
class Webhook:
    """One webhook as stored (its state, failing and disabled, is kept beside it: storage/webhooks.py)."""

    id: str
    url: str
    events: tuple[str, ...]
    secret: str
    created_at: str

    def encode(self) -> str:
        return compact(
            {
                "format": RECORD_FORMAT,
                "id": self.id,
                "url": self.url,
                "events": list(self.events),
                "secret": self.secret,
                "created_at": self.created_at,
            }
        )

    @classmethod
    def decode(cls, text: str) -> Webhook:
        doc = parse(text)
        if doc.get("format") != RECORD_FORMAT:
            raise ValueError(f"unknown webhook record format {doc.get('format')!r}")
        return cls(
            id=doc["id"],
            url=doc["url"],
            events=tuple(doc["events"]),
            secret=doc["secret"],
            created_at=doc["created_at"],
        )

    def view(self, states: dict[str, str]) -> dict[str, Any]:
        """The `Webhook` the API shows (no secret), with its state from the player's index."""
        failing = states.get(f"failing:{self.id}")
        off = states.get(f"off:{self.id}")
        return {
            "id": self.id,
            "url": self.url,
            "events": list(self.events),
            "created_at": self.created_at,
            "failing_since": None if failing is None else rfc3339_ms(int(failing)),
            "disabled_at": None if off is None else rfc3339_ms(int(off)),
        }


def hook_events(kind: str, body: dict[str, Any]) -> tuple[str, ...]:
    """The webhook events a notice of `kind` counts as, most particular first (none: no webhook wants it)."""
    if kind == "game_start" and "tournament" in body:
        return ("tournament_round", "game_start")
    return (kind,) if kind in WEBHOOK_EVENTS else ()


def message_id(player_id: str, event_id: str) -> str:
    """The `webhook-id` of a player's stream event: the same on every attempt, to every webhook of the player."""
    return f"msg_{player_id}_{event_id}"


def event_time_ms(event_id: str) -> int:
    """When a stream event was written: its id's first part (Redis stream ids are `<ms>-<seq>`)."""
    return int(event_id.partition("-")[0])


@dataclass(frozen=True, slots=True)
class WebhookLimits:
    """What a player may have: webhooks at once, deliveries pending per webhook (the oldest dropped past it)."""

    per_player: int = DEFAULT_PER_PLAYER
    pending_per_webhook: int = DEFAULT_PENDING


class Webhooks:
    """The players' webhooks as the API makes, lists and removes them, and their delivery logs."""

    def __init__(
        self,
        book: WebhookBook,
        guard: AddressGuard,
        limits: WebhookLimits,
        now_ms: Callable[[], int],
    ):
        self.book = book
        self.guard = guard
        self.limits = limits
        self.now_ms = now_ms

    def create(self, player_id: str, url: str, events: Sequence[str]) -> tuple[dict[str, Any], str]:
        """A new webhook of the player: its view and its secret (shown this once)."""
        try:
            self.guard.target(url)
        except AddressRefused as refused:
            raise WebhookUrlRefused(refused.reason) from None
        wanted = tuple(event for event in WEBHOOK_EVENTS if event in set(events))
        secret = "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()
        hook = Webhook(
            id=new_game_id(), url=url, events=wanted, secret=secret, created_at=rfc3339_ms(self.now_ms())
        )
        if not self.book.add(player_id, hook.id, hook.encode(), hook.events, self.limits.per_player):
            raise TooManyWebhooks(self.limits.per_player)
        return hook.view({}), secret

    def of_player(self, player_id: str) -> list[dict[str, Any]]:
        """The player's webhooks, oldest first, without their secrets."""
        states = self.book.states(player_id)
        hooks = [Webhook.decode(text) for text in self.book.records(player_id).values()]
        hooks.sort(key=lambda hook: (hook.created_at, hook.id))
        return [hook.view(states) for hook in hooks]

    def _load(self, player_id: str, hook_id: str) -> Webhook:
        text = self.book.record(player_id, hook_id) if could_be_game_id(hook_id) else None
        if text is None:
            raise WebhookNotFound()
        return Webhook.decode(text)

    def delete(self, player_id: str, hook_id: str) -> None:
        """Remove the webhook, its log and its pending deliveries."""
        hook = self._load(player_id, hook_id)
        if not self.book.remove(player_id, hook.id, hook.events):
            raise WebhookNotFound()
        self.book.drop_hook(hook.id)

    def deliveries(self, player_id: str, hook_id: str) -> list[dict[str, Any]]:
        """The webhook's last attempts, newest first."""
        hook = self._load(player_id, hook_id)
        return [parse(text) for text in self.book.log(player_id, hook.id)]


def enqueue(
    book: WebhookBook,
    player_id: str,
    event_id: str,
    body: dict[str, Any],
    hooks: Sequence[tuple[str, str]],
    most_pending: int,
) -> None:
    """Queue one delivery per webhook that wants the player's stream event `event_id` (hooks: its id, and
    the event it goes as); a store error loses them, as it would the notice (site/notices.py)."""
    created = event_time_ms(event_id)
    deliveries = []
    for hook_id, event in hooks:
        job = {
            "player": player_id,
            "hook": hook_id,
            "message": message_id(player_id, event_id),
            "event": event,
            "created_ms": created,
            # The body as sent, signed and sent again the same on every attempt.
            "payload": compact({"type": event, "timestamp": rfc3339_ms(created), "data": body}),
        }
        deliveries.append(QueuedDelivery(f"{hook_id}/{event_id}", hook_id, compact(job)))
    try:
        dropped = book.enqueue(deliveries, most_pending)
    except StorageError as error:
        log.warning("a player's webhook deliveries were lost: the store failed (%s)", error)
        return
    if dropped:
        log.info("dropped %d webhook deliveries past a webhook's pending cap", dropped)
