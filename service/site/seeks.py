"""Quick pairing: a player's seek for a game with a clock, paired with another's at once, exactly once, on any instance.

Posting a seek is one script on the seeks' slot (storage/seeks.py): it drops
the expired seeks, and either pairs the new seek with the oldest compatible
one (the same clock and `rated`: one pool each; another player, neither of
the two blocking the other (blocks.py); each rating within the other's
range) or leaves it waiting. Two racing posts are
serialised by Redis: a waiting seek is paired once, and a cancelled or
expired one never (it has left the pool).

The game the pairing names is created after it, in the game's own slot: on
a Redis Cluster no script spans both. Its id is chosen before the pairing
and stored with both seeks, and everything else about it follows from the
seeks (the clock, `rated`, the older seek's player in seat 0), so creating
it is idempotent: the poster creates it at once, and should the poster die
first, whoever reads either seek (GET /seeks/{id}) finds the game missing
and creates it (GameExists for whoever comes second). Each seeker hears of
it as `game_start` on its player stream (notices.py).
"""

from __future__ import annotations

import hashlib
from typing import Any

from service.games.clock import ClockSettings, rfc3339_ms
from service.games.jsontext import compact, parse
from service.games.play import GamePlay
from service.games.records import DEFAULT_NAMES, could_be_game_id, new_game_id
from service.games.refusals import GameNotFound, SeekNotFound, TooManyWaiting
from service.games.values import Seating
from service.languages import Plural
from service.storage import GameExists, SeekPool, StoredSeek

from .bot_accounts import SEEK, only_challenges
from .lobby import Players
from .players import PlayerRecord

# A seek pairs with ratings this far from its player's (either way) by default.
DEFAULT_RANGE = 500


def pool_of(clock: ClockSettings, rated: bool) -> str:
    """The pool of seeks that may pair with each other: the same clock (as Game.clock shows it) and `rated`."""
    key = compact({"clock": clock.to_json(), "rated": rated})
    return hashlib.sha256(key.encode()).hexdigest()[:24]


class Seeks:
    """Posting, reading and cancelling a player's seeks, and starting the games they pair into."""

    def __init__(self, pool: SeekPool, players: Players, play: GamePlay, ttl_seconds: int, most_waiting: int):
        self.pool = pool
        self.players = players
        self.play = play
        self.ttl_ms = ttl_seconds * 1000
        # Seeks one player keeps waiting at once (SEEKS_PER_PLAYER); a seek paired at once never waits.
        self.most_waiting = most_waiting

    def post(
        self, player: PlayerRecord, clock: ClockSettings, rated: bool, rating_range: int | None
    ) -> dict[str, Any]:
        """Seek a game: paired at once with a compatible waiting seek (its game started), or left waiting."""
        only_challenges(player, SEEK)
        seek_id, game_id = new_game_id(), new_game_id()
        pairing = self.pool.post(
            seek_id=seek_id,
            pool=pool_of(clock, rated),
            player_id=player.id,
            rating=round(player.rating.rating),
            rating_range=DEFAULT_RANGE if rating_range is None else rating_range,
            ttl_ms=self.ttl_ms,
            game_id=game_id,
            spec=compact({"clock": clock.to_json(), "rated": rated}),
            most_waiting=self.most_waiting,
        )
        if pairing.refused_waiting is not None:
            raise TooManyWaiting(
                Plural(
                    "You already have {count} seek waiting, as many as a player may: cancel it, "
                    "or wait until it is paired or expires.",
                    "You already have {count} seeks waiting, as many as a player may: cancel one, "
                    "or wait until one is paired or expires.",
                    "count",
                    {"count": pairing.refused_waiting},
                )
            )
        if pairing.partner_player is not None:
            self._start(game_id, pairing.partner_player, player.id, clock, rated)
        return self.get(player, seek_id)

    def get(self, player: PlayerRecord, seek_id: str) -> dict[str, Any]:
        """The player's seek (SeekNotFound for another's, or none); a paired seek's missing game is started."""
        seek = self._load(player, seek_id)
        if seek.status == "paired" and seek.game is not None:
            try:
                self.play.view(seek.game)
            except GameNotFound:
                # The poster died between the pairing and the game: start it now.
                spec = parse(seek.spec)
                opponent = seek.opponent or ""
                seats = (seek.player, opponent) if seek.seat == 0 else (opponent, seek.player)
                self._start(
                    seek.game, seats[0], seats[1], ClockSettings.from_json(spec["clock"]), spec["rated"]
                )
        return _view(seek, self.play.now_ms())

    def cancel(self, player: PlayerRecord, seek_id: str) -> dict[str, Any]:
        """Cancel the player's seek if it still waits: from now on no pairing takes it. The seek as it is after."""
        seek = self._load(player, seek_id)
        spec = parse(seek.spec)
        cancelled = self.pool.cancel(
            seek_id, pool_of(ClockSettings.from_json(spec["clock"]), spec["rated"]), player.id
        )
        if cancelled is None:
            raise SeekNotFound()
        return _view(cancelled, self.play.now_ms())

    def _load(self, player: PlayerRecord, seek_id: str) -> StoredSeek:
        seek = self.pool.load(seek_id) if could_be_game_id(seek_id) else None
        if seek is None or seek.player != player.id:
            raise SeekNotFound()
        return seek

    def _start(self, game_id: str, seat0: str, seat1: str, clock: ClockSettings, rated: bool) -> None:
        """Create the paired game under its chosen id, once (GameExists: it was created already)."""
        first, second = self.players.find(seat0), self.players.find(seat1)
        holders = (None if first is None else first.holder(), None if second is None else second.holder())
        try:
            self.play.create(
                DEFAULT_NAMES,
                clock=clock,
                seating=Seating(holders=holders, rated=rated, game_id=game_id),
            )
        except GameExists:
            pass


def _view(seek: StoredSeek, now_ms: int) -> dict[str, Any]:
    """A seek as the API shows it at `now_ms`, the store's time (its scripts time seeks on it)."""
    spec = parse(seek.spec)
    status = seek.status
    if status == "waiting" and seek.expires_ms <= now_ms:
        status = "expired"
    return {
        "id": seek.id,
        "clock": spec["clock"],
        "rated": spec["rated"],
        "range": seek.range,
        "status": status,
        "game": seek.game if status == "paired" else None,
        "created_at": rfc3339_ms(seek.created_ms),
        "expires_at": rfc3339_ms(seek.expires_ms),
    }
