"""The game-play core as every process builds it: the web app, the bot workers, the timekeepers, the tests.

One place registers the site's listeners (listeners.py in the core): a new
feature that follows games adds its listener here, and every process that
commits a game tells it, whichever ends the game (a move over HTTP, a bot's
move, a timeout).
"""

from __future__ import annotations

from service.games import GamePlay, KeptCopies
from service.storage import Storage

from .notices import PlayerNotices
from .rated_games import RatedGames


def game_play(storage: Storage, kept: KeptCopies) -> GamePlay:
    """The core on `storage`, keeping copies in `kept`, with the site's listeners registered.

    Rated games first: their settlement is applied before the players hear of the end.
    """
    play = GamePlay(storage.games, kept, storage.bot_jobs, storage.deadlines)
    play.listen(RatedGames(storage.players, storage.ratings, storage.games.now_ms))
    play.listen(PlayerNotices(storage.players, storage.games.now_ms))
    return play
