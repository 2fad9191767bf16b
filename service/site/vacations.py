"""Correspondence vacations: a player's correspondence clocks paused for some days, from a yearly bank.

`POST /players/me/vacation {"days": n}` takes n days from the player's bank
(`VACATION_DAYS` a calendar year, UTC, of the store's clock) and pauses its
correspondence clocks until then; `DELETE` ends it early and gives back the
whole days not yet begun (a day begun is used). Real-time games never pause.

Two steps, as on a Redis Cluster the player's slot and each game's are
apart (as challenges.py and rated_games.py do it):
1. the player's vacation and its bank, one script in the player's slot
   (storage/lua/player_vacation.lua): two racing requests, on any
   instances, charge the bank once, and only one vacation runs at a time;
2. each game, by the game's own compare-and-set (GamePlay.pause): a game
   whose clock runs for the player has its deadline moved by the part of
   the vacation its turn spends in it, once however often it is asked.

A game that hands the player the turn during the vacation is paused too:
its clock starts at the vacation's end (`Vacations.committed`, a listener of
every game, in whatever process commits the move). Should a process die
between the steps, the timekeeper repairs it: before a correspondence game
is lost on time it asks this listener (`Vacations.pause_of`) whether the
running seat's player is on vacation, and pauses the game instead. A crash
while ending a vacation early can leave a game paused until the vacation's
first end: the player keeps time it gave back, never loses any.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from service.games import GamePlay, Refusal
from service.games.clock import rfc3339_ms
from service.games.listeners import GameListener
from service.games.records import GameRecord
from service.languages import Plural, Text
from service.storage import PlayerStore, StorageError

from .players import PlayerRecord

log = logging.getLogger(__name__)


class VacationDaysShort(Refusal):
    """More vacation days asked for than this year's bank holds."""

    code = "vacation_days_short"

    def __init__(self, days: int, left: int):
        super().__init__(
            Plural(
                "You asked for {days} days of vacation, and {left} day is left in this year's bank.",
                "You asked for {days} days of vacation, and {left} days are left in this year's bank.",
                "left",
                {"days": days, "left": left},
            )
        )


class VacationActive(Refusal):
    """A vacation asked for while one runs."""

    code = "vacation_active"

    def __init__(self, until_ms: int):
        super().__init__(
            Text(
                "Your vacation runs until {until}: end it (DELETE /players/me/vacation) before you start another.",
                {"until": rfc3339_ms(until_ms)},
            )
        )


class NoVacation(Refusal):
    """A vacation ended while none runs."""

    code = "no_vacation"

    def __init__(self) -> None:
        super().__init__(Text("You are not on vacation."))


@dataclass(frozen=True, slots=True)
class Vacation:
    """A vacation as the player sees it, and the games it paused."""

    since_ms: int
    until_ms: int
    days_left: int
    games: list[str]
    days_returned: int | None = None  # an early end: the days given back

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "since": rfc3339_ms(self.since_ms),
            "until": rfc3339_ms(self.until_ms),
            "vacation_days_left": self.days_left,
            "games": self.games,
        }
        if self.days_returned is not None:
            doc["days_returned"] = self.days_returned
        return doc


class Vacations:
    """The players' vacations on `store`, pausing their games through `play`, from a bank of `bank_days` a year."""

    def __init__(self, store: PlayerStore, play: GamePlay, bank_days: int):
        self.store = store
        self.play = play
        self.bank_days = bank_days

    def start(self, player: PlayerRecord, days: int) -> Vacation:
        """Take `days` from the player's bank and pause its correspondence games; the refusals above."""
        found = self.store.vacation(player.id, "start", self.bank_days, days)
        if found[0] == "short":
            raise VacationDaysShort(days, found[1])
        if found[0] == "active":
            raise VacationActive(found[2])
        _started, since, until, left = found
        return Vacation(since, until, left, self._pause_games(player.id, since, until))

    def end(self, player: PlayerRecord) -> Vacation:
        """End the player's vacation now: its games' clocks run again, the days not begun go back to the bank."""
        found = self.store.vacation(player.id, "end", self.bank_days)
        if found[0] == "none":
            raise NoVacation()
        _ended, since, _until, now, back, left = found
        return Vacation(since, now, left, self._pause_games(player.id, since, now), days_returned=back)

    def days_left(self, player: PlayerRecord) -> tuple[int, int | None]:
        """(the days left in the player's bank this year, until when its vacation runs: None for none)."""
        found = self.store.vacation(player.id, "read", self.bank_days)
        if found[0] == "on":
            return found[3], found[2]
        return found[1], None

    def _pause_games(self, player_id: str, since_ms: int, until_ms: int) -> list[str]:
        """Pause (or, ended early, shorten the pause of) each of the player's games its vacation holds."""
        return [
            game_id
            for game_id in self.store.games(player_id)
            if self.play.pause(game_id, player_id, since_ms, until_ms)
        ]


class VacationPauses(GameListener):
    """Pauses the games whose clock starts, or would run out, during their player's vacation (a listener of every game)."""

    def __init__(self, store: PlayerStore, play: GamePlay):
        self.store = store
        self.play = play

    def committed(self, before: GameRecord, after: GameRecord, version: int, result: Any) -> None:
        """A correspondence move handed the turn to a player on vacation: its clock starts when the vacation ends."""
        held = self.pause_of(after)
        if held is not None:
            try:
                self.play.pause(after.id, *held)
            except (Refusal, StorageError) as error:  # the timekeeper pauses it before the deadline
                log.warning("a game was not paused for a vacation: %s", error)

    def pause_of(self, record: GameRecord) -> tuple[str, int, int] | None:
        """The vacation (player, since, until) the running correspondence seat's player is on, None for none.

        One read of the player's vacation, for correspondence games with a
        player in turn only; a pause the record already holds costs none.
        """
        clock, settings = record.clock_now, record.clock
        if settings is None or settings.realtime or clock is None or clock.running is None:
            return None
        player_id = record.seats[clock.running].player_id
        if player_id is None:
            return None
        try:
            found = self.store.vacation(player_id, "read", 0)  # (the bank's days are not read here)
        except StorageError as error:
            log.warning("a player's vacation could not be read: %s", error)
            return None
        pause = record.pause
        if found[0] != "on" or (
            pause is not None and (pause.since_ms, pause.until_ms) == (found[1], found[2])
        ):
            return None
        return player_id, found[1], found[2]
