"""Rematches: the next game of a finished one, with the seats swapped, created once however many ask at once.

Asking is an offer (offers.py): the next game is made only when the other
seat accepts, or at once against a bot. The acceptance claims the finished
game's `next_game` with one compare-and-set on that game (GamePlay.amend:
its version stays), which also ends the offer: two seats asking at once, on
any instances, cannot both claim it; the loser reads the claim and answers
with the same game. The next game's id is chosen before the claim and
everything about it follows from the finished game (the same clock, time
board and `rated`; the seats swapped, so each person's token, seat or
player, acts for its new seat; the seat that did not start now starts, so
`first_player` keeps its number), so creating it is idempotent: the claimer
creates it at once, and should it die first, the next call finds the claim
without its game and creates it (GameExists for whoever comes second). Both
players hear it start (`game_start`, notices.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from service.games.jsontext import compact
from service.games.kept import GameCopy
from service.games.play import GamePlay
from service.games.records import GameRecord, Seat, new_game_id
from service.games.refusals import GameNotFound
from service.games.values import Holder, Seating
from service.games.views import game_view
from service.games.writes import Write
from service.storage import GameExists, Stored


@dataclass(frozen=True, slots=True)
class Rematched:
    """The next game (its Game body) and the caller's seat in it."""

    game_id: str
    view: str
    seat: int
    created: bool  # by this call; False: accepted before


class Rematches:
    """Claiming and creating the rematch of a finished game."""

    def __init__(self, play: GamePlay):
        self.play = play

    def claim(self, game: GameCopy, seat: int, event: Callable[[str], str]) -> Write[Rematched]:
        """The write claiming `game`'s `next_game` (ending its offer) for `seat`, which then creates it.

        `event`: the offer's event on the game's stream, given the next game's id.
        """
        next_id = new_game_id()
        claimed = replace(game.record, next_game=next_id, offer=None)

        def created(_stored: Stored) -> Rematched:
            return self.answer(claimed, next_id, seat, created=True)

        view = compact(game_view(claimed, game.version))
        return Write.amended(game, claimed, view, created, event(next_id))

    def answer(self, finished: GameRecord, next_id: str, seat: int, *, created: bool) -> Rematched:
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
    return Holder(seat.player_id, seat.name, seat.player_hash, seat.bot_account)
