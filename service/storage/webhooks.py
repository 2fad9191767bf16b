"""Players' webhooks and the queue of their deliveries, beside the game store on the same Redis link.

A player's webhooks live in its slot (its hash tag, players.py), so a notice
finds those that want it inside the script that writes it
(lua/player_notify.lua), and a player without webhooks pays one HGET of a
missing key there, no call more:

- `player:{<id>}:webhooks`: hash, webhook id -> its record (the site's JSON
  text, secret included: it signs every delivery, so it is kept as it is);
- `player:{<id>}:webhook_on`: hash, `on:<event>` -> the ids of the enabled
  webhooks listening to it, space-separated (the index a notice reads);
  `failing:<hook>` -> since when (the store's ms) it has failed without a
  success between; `off:<hook>` -> when it was disabled;
- `player:{<id>}:webhook_log:<hook>`: list, its last LOG_MOST attempts,
  newest first, gone LOG_TTL_MS after the last.

The queue is one slot of its own, `{webhooks}` (no game or player id is 9
characters), so its scripts touch one node of a cluster:

- `due`: sorted set, delivery id -> when it is due (Redis's ms); a delivery
  taken by a sender is due again when its lease ends, so one whose sender
  died is taken again (at least once);
- `jobs`: hash, delivery id -> the job (JSON: the player, the webhook, its
  URL, the message id and its body, when it was made);
- `tries`: hash, delivery id -> attempts begun;
- `pending:<hook>`: sorted set of the webhook's deliveries by when they were
  queued, for its cap (MOST_PENDING_PER_WEBHOOK: the oldest is dropped) and
  to drop them all when the webhook goes;
- `wake`: a list senders block on (BLPOP) while nothing is due.

A delivery id is `<hook id>/<event id>`: one per webhook and event, the same
on every attempt.

The notice and the queue are in different slots, so queueing is a second
call (only for a player with a webhook that wants the event): should the
process die between the two, that delivery is lost, like a notice itself
(site/notices.py). From the queue on, nothing is lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .arguments import WebhookAttemptArgs
from .connections import RedisLink
from .players import WEBHOOK_INDEX, PlayerStore

# The defaults of WEBHOOKS_PER_PLAYER and WEBHOOK_PENDING (service/config.py's, which a test holds equal):
# here for the site, which reads no settings.
DEFAULT_PER_PLAYER = 5
DEFAULT_PENDING = 1000
LOG_MOST = 100
# A delivery log goes 30 days after its last attempt (a webhook itself stays).
LOG_TTL_MS = 30 * 24 * 3600 * 1000
# At most this many wake tokens wait (lua/webhook_enqueue.lua trims to it, a literal there).
_WAKE_TOKENS = 64


class QueuedDelivery(NamedTuple):
    """A delivery to queue: its id, its webhook's id, and the job (JSON text)."""

    id: str
    hook_id: str
    job: str


class TakenDelivery(NamedTuple):
    """A delivery leased to a sender: its id, its job, and which attempt this is (1 for the first)."""

    id: str
    job: str
    attempt: int


class WebhookBook:
    """The players' webhooks (in their slots) and the delivery queue (`{webhooks}`)."""

    def __init__(self, link: RedisLink, players: PlayerStore):
        self._link = link
        self._players = players
        base = f"{link.prefix}{{webhooks}}:"
        self.due_key = base + "due"
        self.jobs_key = base + "jobs"
        self.tries_key = base + "tries"
        self.wake_key = base + "wake"
        self._pending = base + "pending:"

    # --- a player's webhooks ------------------------------------------------

    def _hooks(self, player_id: str) -> str:
        return self._players.key(player_id) + ":webhooks"

    def _index(self, player_id: str) -> str:
        return self._players.key(player_id) + WEBHOOK_INDEX

    def _log(self, player_id: str, hook_id: str) -> str:
        return f"{self._players.key(player_id)}:webhook_log:{hook_id}"

    def add(self, player_id: str, hook_id: str, record: str, events: Sequence[str], most: int) -> bool:
        """Add a webhook listening to `events`; False (nothing changed) when the player has `most` already."""
        keys = [self._hooks(player_id), self._index(player_id)]
        return bool(self._link.script("webhook_add", keys, [hook_id, record, most, *events]))

    def records(self, player_id: str) -> dict[str, str]:
        """The player's webhooks' records by id."""
        return dict(self._link.command("webhook_list", "HGETALL", self._hooks(player_id)))

    def record(self, player_id: str, hook_id: str) -> str | None:
        """One webhook's record, or None."""
        found: str | None = self._link.command("webhook_get", "HGET", self._hooks(player_id), hook_id)
        return found

    def states(self, player_id: str) -> dict[str, str]:
        """The index and states of the player's webhooks: `failing:<id>` and `off:<id>` -> the store's ms."""
        return dict(self._link.command("webhook_states", "HGETALL", self._index(player_id)))

    def is_off(self, player_id: str, hook_id: str) -> bool:
        """Whether the webhook has been disabled."""
        return bool(self._link.command("webhook_off", "HEXISTS", self._index(player_id), f"off:{hook_id}"))

    def remove(self, player_id: str, hook_id: str, events: Sequence[str]) -> bool:
        """Remove the webhook, its state and its log; False when the player has none by that id."""
        keys = [self._hooks(player_id), self._index(player_id), self._log(player_id, hook_id)]
        return bool(self._link.script("webhook_remove", keys, [hook_id, *events]))

    def log(self, player_id: str, hook_id: str) -> list[str]:
        """The webhook's last attempts (JSON texts), newest first."""
        return list(
            self._link.command("webhook_log", "LRANGE", self._log(player_id, hook_id), 0, LOG_MOST - 1)
        )

    def record_attempt(
        self,
        player_id: str,
        hook_id: str,
        events: Sequence[str],
        *,
        entry: str,
        ok: bool,
        now_ms: int,
        disable_after_ms: int,
        notice: str,
    ) -> str:
        """Log an attempt and keep the webhook's state (lua/webhook_attempt.lua): 'gone', 'ok', 'failing',
        'disabled' (now: the player's stream told, with `notice`) or 'off' (it was already)."""
        maxlen, channel, wakeup, events_ttl = self._players.stream_args(player_id)
        args = WebhookAttemptArgs(
            hook=hook_id,
            entry=entry,
            ok="1" if ok else "",
            now_ms=now_ms,
            disable_after_ms=disable_after_ms,
            log_most=LOG_MOST,
            log_ttl_ms=LOG_TTL_MS,
            notice=notice,
            events_maxlen=maxlen,
            channel=channel,
            wakeup=wakeup,
            events_ttl_ms=events_ttl,
        )
        keys = [
            self._hooks(player_id),
            self._index(player_id),
            self._log(player_id, hook_id),
            self._players.key(player_id) + ":events",
        ]
        return str(self._link.script("webhook_attempt", keys, [*args, *events]))

    # --- the delivery queue ---------------------------------------------------

    def enqueue(self, deliveries: Sequence[QueuedDelivery], most_pending: int) -> int:
        """Queue deliveries, due now; how many older ones were dropped for their webhook's cap."""
        keys = [self.due_key, self.jobs_key, self.tries_key, self.wake_key]
        keys += [self._pending + delivery.hook_id for delivery in deliveries]
        args: list[object] = [most_pending]
        for delivery in deliveries:
            args += [delivery.id, delivery.job]
        return int(self._link.script("webhook_enqueue", keys, args))

    def take(self, most: int, lease_ms: int) -> list[TakenDelivery]:
        """Up to `most` due deliveries, leased to the caller for `lease_ms`."""
        keys = [self.due_key, self.jobs_key, self.tries_key, self.wake_key]
        found = self._link.script("webhook_take", keys, [lease_ms, most])
        return [TakenDelivery(found[i], found[i + 1], int(found[i + 2])) for i in range(0, len(found), 3)]

    def wait(self, block_ms: int) -> None:
        """Block up to about `block_ms` until a delivery is queued (a wake token)."""
        self._link.command("blpop", "BLPOP", self.wake_key, (block_ms + 0.5) / 1000)

    def retry_at(self, delivery_id: str, hook_id: str, due_ms: int, *, tried: bool = True) -> None:
        """Make a taken delivery due again at `due_ms` (Redis's ms), unless it has been dropped meanwhile;
        `tried` False: the attempt its take counted was not made (put off)."""
        keys = [self.due_key, self.jobs_key, self.tries_key, self._pending + hook_id, self.wake_key]
        self._link.script("webhook_settle", keys, [delivery_id, due_ms, "" if tried else "1"])

    def done(self, delivery_id: str, hook_id: str) -> None:
        """Forget a delivery: delivered, given up on, or its webhook gone."""
        keys = [self.due_key, self.jobs_key, self.tries_key, self._pending + hook_id, self.wake_key]
        self._link.script("webhook_settle", keys, [delivery_id, "", ""])

    def drop_hook(self, hook_id: str) -> int:
        """Drop every delivery pending for a webhook that was removed or disabled; how many."""
        keys = [self.due_key, self.jobs_key, self.tries_key, self._pending + hook_id]
        return int(self._link.script("webhook_drop", keys))

    def pending(self) -> int:
        """Deliveries queued and not done (taken ones included)."""
        return int(self._link.command("webhook_pending", "ZCARD", self.due_key))

    def next_due_ms(self) -> int | None:
        """When the next delivery is due (Redis's ms), or None when none is queued."""
        found = self._link.command("webhook_next", "ZRANGE", self.due_key, 0, 0, "WITHSCORES")
        return int(found[0][1]) if found else None
