"""What a player hears of its games: the events of its stream (GET /players/me/events) and its list of games.

`game_start` when a game it holds a seat of begins (created with both seats
held, joined, paired from seeks, a rematch, a tournament's round: with its
`tournament`), `your_turn` when a move hands
its seat the turn, `game_end` with the result, `rematch_offer` when the
other seat offers a rematch (offers.py), `low_time` when its running
clock falls under the low-time line (games/low_time.py: once per game and
seat), `challenge` when another player
challenges it and `challenge_declined` when its challenge is declined.
Written by whatever process commits the game's change,
right after it, in the player's own slot: on a Redis Cluster no script can
span the game's slot and the player's. So they are notices, not the truth:
should the process die between the two, one notice is lost, and the game
itself (GET /players/me/games, the game's own events) still says it all.
A store error in a notice never fails the request whose change is stored.

The same script finds the player's webhooks that want the notice
(storage/webhooks.py: one HGET of a missing key for a player without
any); for a player with some, one more call queues their deliveries
(site/webhooks.py), which the sender processes send. No HTTP call is ever
made here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from service.games.clock import rfc3339_ms
from service.games.jsontext import compact
from service.games.listeners import GameListener
from service.games.records import GameRecord, Offer
from service.storage import PlayerStore, StorageError
from service.storage.webhooks import DEFAULT_PENDING, WebhookBook

from .webhooks import enqueue, hook_events

log = logging.getLogger(__name__)


class PlayerNotices(GameListener):
    """Writes players' notices and game lists for the games they hold seats of (a listener of every game)."""

    def __init__(
        self,
        store: PlayerStore,
        now_ms: Callable[[], int],
        webhooks: WebhookBook | None = None,
        webhook_pending: int = DEFAULT_PENDING,
    ):
        self.store = store
        # The store's clock (GameStore.now_ms): every time the site keeps is the store's.
        self.now_ms = now_ms
        # Where the deliveries of the players' webhooks are queued (None: nowhere), and how many wait per webhook.
        self.webhooks = webhooks
        self.webhook_pending = webhook_pending

    def _send(self, player_id: str, kind: str, body: dict[str, Any]) -> None:
        wanted = hook_events(kind, body) if self.webhooks is not None else ()
        try:
            notice = self.store.notice(player_id, kind, compact(body), wanted)
        except StorageError as error:
            log.warning("a player's %s notice was lost: the store failed (%s)", kind, error)
            return
        if notice.hooks and self.webhooks is not None:
            enqueue(self.webhooks, player_id, notice.id, body, notice.hooks, self.webhook_pending)

    def _count(self, player_id: str | None, game_id: str) -> None:
        """Put the game on the player's list (GET /players/me/games)."""
        if player_id is None:
            return
        try:
            self.store.add_game(player_id, game_id, self.now_ms())
        except StorageError as error:
            log.warning("a game was left out of a player's list: the store failed (%s)", error)

    def created(self, record: GameRecord) -> None:
        """A game was stored: each of its players counts it, and hears it start unless a seat is open."""
        for seat in record.seats:
            self._count(seat.player_id, record.id)
        if record.open_seat is None:
            self.started(record)

    def seat_taken(self, record: GameRecord, seat: int) -> None:
        """A seat was taken: its player counts the game; all hear it start once no seat is open."""
        self._count(record.seats[seat].player_id, record.id)
        if record.open_seat is None:
            self.started(record)

    def started(self, record: GameRecord) -> None:
        for index, seat in enumerate(record.seats):
            if seat.player_id is not None:
                body: dict[str, Any] = {
                    "game": record.id,
                    "seat": index,
                    "my_turn": record.state.turn == index,
                }
                if record.tournament is not None:
                    # The same object as the Game's: which tournament and round paired the player here.
                    body["tournament"] = record.tournament.to_json()
                self._send(seat.player_id, "game_start", body)

    def committed(self, before: GameRecord, after: GameRecord, version: int, result: Any) -> None:
        """A move (or resign, or timeout) was stored at `version`: the end, or the turn handed to a player."""
        if after.seats[0].player_id is None and after.seats[1].player_id is None:
            return
        if result is not None:
            for index, seat in enumerate(after.seats):
                if seat.player_id is not None:
                    body = {"game": after.id, "seat": index, "version": version, "result": result}
                    self._send(seat.player_id, "game_end", body)
            return
        turn = after.state.turn
        if turn is not None and turn != before.state.turn:
            player_id = after.seats[turn].player_id
            if player_id is not None:
                self._send(player_id, "your_turn", {"game": after.id, "seat": turn, "version": version})

    def low_time(self, record: GameRecord, seat: int, remaining_ms: int) -> None:
        """The seat's running clock fell under the low-time line (games/low_time.py): once per game and seat."""
        player_id = record.seats[seat].player_id
        clock = record.clock_now
        if player_id is not None and clock is not None and clock.deadline_ms is not None:
            body = {
                "game": record.id,
                "seat": seat,
                "remaining_ms": remaining_ms,
                "deadline": rfc3339_ms(clock.deadline_ms),
            }
            self._send(player_id, "low_time", body)

    def rematch_offer(self, record: GameRecord, to_seat: int, offer: Offer) -> None:
        """The other seat offered `to_seat` a rematch of the finished game (offers.py)."""
        player_id = record.seats[to_seat].player_id
        if player_id is not None:
            body = {"game": record.id, "seat": to_seat, "expires_at": rfc3339_ms(offer.expires_at_ms)}
            self._send(player_id, "rematch_offer", body)

    def challenged(self, player_id: str, body: dict[str, Any]) -> None:
        """A challenge was made to the player (challenges.py): `{"challenge": Challenge}`."""
        self._send(player_id, "challenge", body)

    def challenge_declined(self, player_id: str, body: dict[str, Any]) -> None:
        """The player's challenge was declined: `{"challenge": Challenge}`, its `decline_reason` set."""
        self._send(player_id, "challenge_declined", body)
