"""The rules of bot accounts (issue 40): an outside engine plays as a player, in challenges only, and
two of them meet at most BOT_GAMES_PER_DAY times a day each.

A bot account (`POST /players` with `"bot": true`) moves, answers challenges and offers through the
same API as anyone. What it may not do is meet players by chance or in bulk: seeks, lobby games of
its own or joined, tournaments. Its player token is refused there with `403 bot_account`
(`only_challenges`); a game it creates without that token holds no seat of it and is no concern here.

Two engines that challenge each other could play without end, so a game between two bot accounts
takes a place in each one's day: the places taken in the last 24 hours of the store's clock, one
sorted set in each bot's own slot (storage/players.py, lua/player_bot_game.lua, which checks and
takes a place in one step). A rolling day rather than the calendar's: no burst of a whole second
day's games at midnight UTC. A game between a bot and a person takes none.

A place is taken before the step that would start the game (a challenge's accept, a rematch
offer's), so the step is refused (`429 bot_games_per_day`, with the seconds until a place frees)
with nothing changed, and two steps racing on any instances cannot both pass a full day: each
bot's script runs alone. The two bots live in two slots, so the places are taken one after the
other, the first given back when the second bot has none. Each attempt takes places of its own
(a fresh id), kept when its step made the game and given back otherwise, so a racing attempt
that lost never gives back the winner's. A process that dies between the two leaves its places
taken for the day: the cap then errs on the side of fewer games.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from service.games.records import new_game_id
from service.games.refusals import Refusal
from service.languages import Plural, Text
from service.storage import PlayerStore, StorageError

from .players import PlayerRecord

DAY_MS = 24 * 3600 * 1000


class BotAccount(Refusal):
    """A bot account's player token where only people play: a seek, a seat of a new game, a join, a tournament."""

    code = "bot_account"


SEEK = Text("A bot account plays challenges only: it cannot seek a game. Challenge a player instead.")
CREATE_GAME = Text(
    "A bot account plays challenges only: it cannot hold a seat of a game it creates. Challenge a "
    "player instead (POST /challenges), or create the game without the bot's token."
)
JOIN = Text("A bot account plays challenges only: it cannot join an open game. Challenge its host instead.")
TOURNAMENT = Text("A bot account plays challenges only: it cannot organise or join a tournament.")


def only_challenges(player: PlayerRecord | None, refused: Text) -> None:
    """BotAccount, saying `refused`, when `player` is a bot account."""
    if player is not None and player.bot:
        raise BotAccount(refused)


class BotGamesPerDay(Refusal):
    """A game between two bot accounts asked for while one of them has played its day's share."""

    code = "bot_games_per_day"

    def __init__(self, limit: int, retry_after_ms: int):
        seconds = max(1, math.ceil(retry_after_ms / 1000))
        super().__init__(
            Plural(
                "A bot account plays at most {limit} game a day against other bot accounts, and one of "
                "these two has: try again in {seconds} seconds, or play a person.",
                "A bot account plays at most {limit} games a day against other bot accounts, and one of "
                "these two has: try again in {seconds} seconds, or play a person.",
                "limit",
                {"limit": limit, "seconds": seconds},
            )
        )
        self.headers = {"Retry-After": str(seconds)}


@dataclass
class BotGamePlaces:
    """The places one request's attempts take in bot accounts' days; the last attempt's are kept when
    `made` says its step made the game, every other given back."""

    cap: BotGameCap
    made: bool = False
    taken: list[list[tuple[str, str]]] = field(default_factory=list)

    def take(self, bot_ids: list[str]) -> None:
        """Before an attempt at a game whose players include the bot accounts `bot_ids`: when both players
        are, a place in each one's day (BotGamesPerDay, with nothing kept, when either has none left)."""
        if len(bot_ids) != 2:
            return
        place_id = new_game_id()
        attempt: list[tuple[str, str]] = []
        for bot_id in bot_ids:
            wait_ms = self.cap.store.take_bot_game(bot_id, place_id, DAY_MS, self.cap.limit)
            if wait_ms:
                self._give_back([attempt])
                raise BotGamesPerDay(self.cap.limit, wait_ms)
            attempt.append((bot_id, place_id))
        self.taken.append(attempt)

    def settle(self) -> None:
        """Keep the last attempt's places if it made the game; give back the rest."""
        self._give_back(self.taken[:-1] if self.made else self.taken)

    def _give_back(self, attempts: list[list[tuple[str, str]]]) -> None:
        for attempt in attempts:
            for bot_id, place_id in attempt:
                self.cap.store.give_back_bot_game(bot_id, place_id)


class BotGameCap:
    """BOT_GAMES_PER_DAY: the games each bot account plays against other bot accounts in a day."""

    def __init__(self, store: PlayerStore, limit: int):
        self.store = store
        self.limit = limit

    @contextmanager
    def attempts(self) -> Iterator[BotGamePlaces]:
        """The places a step takes (`take` before each attempt, `made` once it made the game), settled when
        it ends; a step the store failed keeps them (its outcome is unknown, and the store is down)."""
        places = BotGamePlaces(self)
        try:
            yield places
        except StorageError:
            raise
        except BaseException:
            places.made = False
            places.settle()
            raise
        places.settle()


def bot_ids(*players: tuple[str | None, bool]) -> list[str]:
    """The ids of the bot accounts among a game's players, each given as its id and whether it is one."""
    return [player_id for player_id, bot in players if bot and player_id is not None]
