"""Rematches: the next game of a finished one, with the seats swapped, created once however many ask at once.

The first call claims the finished game's `next_game` with one
compare-and-set on that game (GamePlay.amend: its version stays): two seats
asking at once, on any instances, cannot both claim it; the loser reads the
claim and answers with the same game. The next game's id is chosen before
the claim and everything about it follows from the finished game (the same
clock, time board and `rated`; the seats swapped, so each person's token,
seat or player, acts for its new seat; the seat that did not start now
starts, so `first_player` keeps its number), so creating it is idempotent:
the claimer creates it at once, and should it die first, the next call finds
the claim without its game and creates it (GameExists for whoever comes
second). A bot seat needs no asking: the game is there at once. The other
seat's player hears of it as `rematch` on its stream (notices.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from service.games.jsontext import compact
from service.games.kept import GameCopy
from service.games.play import GamePlay
from service.games.records import GameRecord, Seat, new_game_id
from service.games.refusals import (
    GameNotFinished,
    GameNotFound,
    InvalidToken,
    MissingToken,
    SeatNeverTaken,
)
from service.games.values import Holder, Seating
from service.games.views import game_view
from service.games.writes import Unchanged, Write
from service.storage import GameExists, Stored

from .notices import PlayerNotices


@dataclass(frozen=True, slots=True)
class Rematched:
    """The next game (its Game body) and the caller's seat in it."""

    game_id: str
    view: str
    seat: int
    created: bool  # by this call (the first); False: asked for before


class Rematches:
    """Asking for the rematch of a finished game."""

    def __init__(self, play: GamePlay, notices: PlayerNotices):
        self.play = play
        self.notices = notices

    def rematch(self, game_id: str, token: str | None) -> Rematched:
        """The next game of `game_id` for the holder of `token` (a seat's or its player's), created on first asking."""
        if token is None:
            raise MissingToken()

        def claim(game: GameCopy) -> Write[Rematched] | Unchanged[Rematched]:
            record = game.record
            seat = record.seat_of(token)
            if seat is None:
                raise InvalidToken()
            if not record.state.finished:
                raise GameNotFinished.for_rematch()
            if record.open_seat is not None:
                # Aborted with its seat still open: the swapped seats would hold nobody.
                raise SeatNeverTaken()
            if record.next_game is not None:
                return Unchanged(self._answer(record, record.next_game, seat, created=False))
            next_id = new_game_id()
            claimed = replace(record, next_game=next_id)

            def claimed_first(_stored: Stored) -> Rematched:
                answer = self._answer(claimed, next_id, seat, created=True)
                self.notices.rematch_offered(claimed, 1 - seat, next_id)
                return answer

            return Write.amended(game, claimed, compact(game_view(claimed, game.version)), claimed_first)

        return self.play.amend(game_id, claim)

    def _answer(self, finished: GameRecord, next_id: str, seat: int, *, created: bool) -> Rematched:
        """The next game, created now if its claimer did not live to; the caller's seat in it is the other."""
        try:
            view = self.play.view(next_id).view
        except GameNotFound:
            view = self._create(finished, next_id)
        return Rematched(next_id, view, 1 - seat, created)

    def _create(self, finished: GameRecord, next_id: str) -> str:
        state = finished.state
        # Each seat's holders of the finished game hold the other seat now, and each
        # person's token of it acts for its new seat: no new secret to hand out.
        first, second = finished.seats
        try:
            created = self.play.create(
                (second.name, first.name),
                (second.bot, first.bot),
                clock=finished.clock,
                seating=Seating(
                    (_holder(second), _holder(first)),
                    rated=finished.rated,
                    game_id=next_id,
                    token_hashes=(second.token_hash, first.token_hash),
                ),
                first_player=state.first_player,
                time_board=state.time_board,
            )
        except GameExists:
            return self.play.view(next_id).view
        return created.view


def _holder(seat: Seat) -> Holder | None:
    """The player holding `seat`, as a new game's seating names it; None for a seat no player holds."""
    if seat.player_id is None or seat.player_hash is None:
        return None
    return Holder(seat.player_id, seat.name, seat.player_hash)
