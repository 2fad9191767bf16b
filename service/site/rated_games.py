"""Rated games: each finished rated game updates both players' Glicko-2 ratings exactly once.

The update is decided with the result, in the game's final commit, whatever
ends it (a move, a resignation, a timeout: its final commit asks `settle`, listeners.py):
the new ratings, computed from the players' ratings as read just before, are
stored in the game's record (`settlement`) and shown as `result.rating_diff`.
Only a game both seats played in is rated (as lichess rates nothing before
each side has moved): one resigned, lost on time or aborted before that
ends with no settlement, `result.rated: false`, so two identities cannot
farm ratings from games nobody played.
A retried or racing request cannot decide it twice: only one commit makes a
given version final, and the compare-and-set refuses the others.

The players live in other slots than the game on a Redis Cluster, so no
script can change the game and both players together. Applying the
settlement to each player is therefore its own idempotent step
(lua/player_rate.lua: a per-player set of the rated games applied; a game
already in it changes nothing), and a crash between the game's final
commit and those steps is repaired by a queue written before the commit
(storage/ratings.py, `ratings:pending`, as the bot queue's job is written
before the commit that hands a bot its turn):

1. before the final commit, the game's id is queued;
2. the commit stores the result with its settlement (or is refused: then
   no settlement exists, and the queued id is dropped as stale);
3. the settlement is applied to each player (once each), then the id leaves
   the queue.

Whoever reads ratings (a profile, the leaderboard) first drains ids queued
more than REPAIR_AFTER_MS ago: it applies their games' settlements, which
changes nothing for a player already updated. So a crash anywhere leaves a
settlement applied late, never twice, never lost.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from service.engine import GameState
from service.games.listeners import GameListener
from service.games.records import GameRecord
from service.ratings import settle
from service.storage import PlayerStore, RatingBook, StorageError

from .players import PlayerRecord

log = logging.getLogger(__name__)

# A rated game's players rank on the leaderboard once they have this many rated games.
LEADERBOARD_MIN_GAMES = 5
LEADERBOARD_SIZE = 100
# A queued settlement older than this has outlived its commit: a reader applies it.
REPAIR_AFTER_MS = 30_000
REPAIR_BATCH = 20


def played_by_both(state: GameState) -> bool:
    """Whether each seat has made a move of the game's own (not a resignation, a timeout or an abort).

    Every such move takes its seat's token along the time track (an advance
    goes past the other token, and every patch costs at least one space),
    while the ends a player or a clock decides move no token: a seat has
    moved exactly when its token has left the start.
    """
    return all(player.position > 0 for player in state.players)


class RatedGames(GameListener):
    """Deciding, applying and repairing rated games' settlements, and the leaderboard (a listener of every game)."""

    def __init__(self, players: PlayerStore, book: RatingBook, now_ms: Callable[[], int]):
        self.players = players
        self.book = book
        # The store's clock (GameStore.now_ms): every time the site keeps is the store's.
        self.now_ms = now_ms

    def _player(self, player_id: str) -> PlayerRecord | None:
        text = self.players.load(player_id)
        return None if text is None else PlayerRecord.decode(text)

    def settle(self, record: GameRecord) -> GameRecord:
        """The final record of a rated game with its settlement (queued first, step 1); others unchanged."""
        outcome = record.state.result
        first, second = (seat.player_id for seat in record.seats)
        if (
            not record.rated
            or record.settlement is not None
            or outcome is None
            or outcome.winner is None  # aborted: nobody played, nothing to rate
            or not played_by_both(record.state)
            or first is None
            or second is None
        ):
            return record
        players = self._player(first), self._player(second)
        if players[0] is None or players[1] is None:
            return record
        settlement = settle((first, second), (players[0].rating, players[1].rating), outcome.winner)
        self.book.queue(record.id, self.now_ms())
        return replace(record, settlement=settlement)

    def committed(self, before: GameRecord, after: GameRecord, version: int, result: Any) -> None:
        """A final commit stored a settlement: apply it (step 3)."""
        if after.settlement is not None:
            self.apply(after)

    def apply(self, record: GameRecord) -> None:
        """Apply a committed settlement to both players, each once (step 3); a store error leaves it to the repair."""
        settlement = record.settlement
        if settlement is None:
            return
        try:
            for seat in (0, 1):
                after = settlement.after[seat]
                player_id = settlement.players[seat]
                self.players.apply_rating(
                    player_id, record.id, (after.rating, after.rd, after.volatility), settlement.diff[seat]
                )
                player = self._player(player_id)
                if player is not None and player.rated_games >= LEADERBOARD_MIN_GAMES:
                    self.book.rank(player_id, player.rating.rating)
            self.book.done(record.id)
        except StorageError as error:
            log.warning("a rated game's ratings wait for the repair: the store failed (%s)", error)

    def repair(self, load: Callable[[str], GameRecord | None]) -> None:
        """Apply the settlements queued long ago whose appliers may have died (`load`: a game's record or None)."""
        for game_id in self.book.pending_before(self.now_ms() - REPAIR_AFTER_MS, REPAIR_BATCH):
            record = load(game_id)
            if record is None or record.settlement is None:
                self.book.done(game_id)  # gone, or its final commit never happened
            else:
                self.apply(record)

    def leaderboard(self) -> list[PlayerRecord]:
        """The top LEADERBOARD_SIZE players by rating with at least LEADERBOARD_MIN_GAMES rated games."""
        found = []
        for player_id in self.book.top(LEADERBOARD_SIZE):
            player = self._player(player_id)
            if player is not None and player.rated_games >= LEADERBOARD_MIN_GAMES:
                found.append(player)
        return sorted(found, key=lambda player: player.rating.rating, reverse=True)
