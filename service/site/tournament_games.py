"""A tournament's game between two players, created once under the id the tournament chose for it.

The tournament module (tournaments.py) pairs a round and names each pairing's
game before any exists; whichever process then creates the games (the one
that paired the round, or one that finds a game of it missing after a crash)
calls `start_game` for each, as an accepted challenge's game is started
(challenges.py): the same id and the same values every time, so a second
call finds the game made (GameExists) and answers it. Both players hear
`game_start` with the game's `tournament` (notices.py); their player tokens
play their seats, and no seat token is made (nobody would be shown one).

The core knows the game belongs to a tournament only by its tag
(GameRecord.tournament): shown in the Game, refusing takebacks and rematches
(offers.py). Its first move not made in time loses the game rather than
aborting it (GameRecord.first_move_forfeit, which a tournament's game
always has). Everything else about it is any game's: a rated one is rated
when both seats have moved (rated_games.py).
"""

from __future__ import annotations

from service.games.clock import ClockSettings
from service.games.play import GamePlay
from service.games.records import TournamentTag
from service.games.values import Seating
from service.storage import GameExists

from .players import PlayerRecord


def start_game(
    play: GamePlay,
    game_id: str,
    players: tuple[PlayerRecord, PlayerRecord],
    clock: ClockSettings,
    *,
    rated: bool,
    tournament: TournamentTag,
) -> str:
    """Create the game `game_id` (new_game_id's form) for `players` (seat 0 moves first), once; its Game body.

    The clock starts now: the first move is due `clock.first_move_s` from
    this call's creation. A game already made under `game_id` is answered as
    it is stored (it may have moved on since).
    """
    first, second = players
    try:
        created = play.create(
            (first.name, second.name),
            clock=clock,
            seating=Seating(
                (first.holder(), second.holder()),
                rated=rated,
                game_id=game_id,
                seat_tokens=False,
                tournament=tournament,
                first_move_forfeit=True,
            ),
        )
    except GameExists:
        return play.view(game_id).view
    return created.view
