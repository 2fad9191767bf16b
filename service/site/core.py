"""The game-play core as every process builds it: the web app, the bot workers, the timekeepers, the tests.

One place registers the site's listeners (listeners.py in the core): a new
feature that follows games adds its listener here, and every process that
commits a game tells it, whichever ends the game (a move over HTTP, a bot's
move, a timeout).
"""

from __future__ import annotations

from dataclasses import dataclass

from service.games import GamePlay, KeptCopies
from service.storage import Storage
from service.storage.webhooks import DEFAULT_PENDING

from .lobby import Players
from .notices import PlayerNotices
from .rated_games import RatedGames
from .tournaments import Tournaments
from .vacations import VacationPauses
from .watching import GameListsKeeper


@dataclass(frozen=True, slots=True)
class SiteCore:
    """The core and the listeners registered on it, for a process that also calls them (the web app)."""

    play: GamePlay
    ratings: RatedGames
    notices: PlayerNotices
    lists: GameListsKeeper
    tournaments: Tournaments


def site_core(storage: Storage, kept: KeptCopies, webhook_pending: int = DEFAULT_PENDING) -> SiteCore:
    """The core on `storage`, keeping copies in `kept`, with the site's listeners registered.

    `webhook_pending`: WEBHOOK_PENDING, the deliveries that wait per webhook (its notices queue them).
    Rated games first: their settlement is applied before the players hear of the end. Tournaments
    last: a game's result reaches its tournament after its players heard the game end.
    """
    play = GamePlay(storage.games, kept, storage.bot_jobs, storage.deadlines)
    ratings = RatedGames(storage.players, storage.ratings, storage.games.now_ms)
    notices = PlayerNotices(storage.players, storage.games.now_ms, storage.webhooks, webhook_pending)
    lists = GameListsKeeper(storage.game_lists, storage.games.now_ms)
    play.listen(ratings)
    play.listen(notices)
    play.listen(lists)
    tournaments = Tournaments(storage.tournaments, Players(storage.players), play)
    play.listen(tournaments)
    play.listen(VacationPauses(storage.players, play))
    return SiteCore(play, ratings, notices, lists, tournaments)


def game_play(storage: Storage, kept: KeptCopies) -> GamePlay:
    """The core of `site_core`, for a process that calls none of its listeners itself."""
    return site_core(storage, kept).play
