"""A seat choosing its own name: the guest of an invite link names itself when it opens the link.

The host of a game with a friend types a name for the friend's seat (or
none: `Player 2`), but the friend is the one who knows it: the holder of a
seat's token may name that seat with `POST /games/{id}/seat` while the game
is played. A player's seat bears the player's own name (its profile), so it
is not renamed here. The name is stored with one compare-and-set on the game
(GamePlay.amend, as a rematch's claim is): its version stays, as a join's
does, and the next version's answers and events show the name.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from service.games.jsontext import compact
from service.games.kept import GameCopy
from service.games.play import GamePlay, seat_of_token
from service.games.refusals import NameFixed
from service.games.views import game_view
from service.games.writes import Unchanged, Write
from service.languages import Text


@dataclass(frozen=True, slots=True)
class Named:
    """The seat named and the game's view with its new name."""

    seat: int
    view: str


class SeatNames:
    """Naming a seat by its holder."""

    def __init__(self, play: GamePlay):
        self.play = play

    def name(self, game_id: str, token: str | None, name: str) -> Named:
        """Name the seat of `token` (a seat's or its player's): NameFixed for a player's seat or a finished game."""

        def naming(game: GameCopy) -> Write[Named] | Unchanged[Named]:
            record = game.record
            seat = seat_of_token(record, token)
            if record.seats[seat].player_id is not None:
                raise NameFixed(Text("This seat is a player's: it bears the name the player chose."))
            if record.state.finished:
                raise NameFixed(Text("The game is over: its seats' names are as they were played."))
            if record.seats[seat].name == name:
                return Unchanged(Named(seat, compact(game_view(record, game.version))))
            named = record.with_seat(seat, replace(record.seats[seat], name=name))
            view = compact(game_view(named, game.version))
            return Write.amended(game, named, view, lambda _stored: Named(seat, view))

        return self.play.amend(game_id, naming)
