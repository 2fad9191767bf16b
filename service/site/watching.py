"""Watching: the lists of games being played and of finished ones, all or a player's (GET /games?status=active|finished).

`GameListsKeeper`, a listener of every game (registered in core.py), keeps
the lists (storage/game_lists.py) at the three moments a game changes list:
its play begins (created with both seats held, or its open seat taken), and
it ends. An ordinary move costs it nothing but one look at `result`.

The lists live in slots of their own, apart from the games, so they are
hints, as the lobby's index is: a process that dies between a game's change
and the lists' leaves them behind it. `Watching` reads a list, judges each
entry against its game's view, and repairs what it meets: a game gone
(expired) is dropped, and a game found finished on an active list leaves it
for its players' finished lists.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from service.games.jsontext import parse
from service.games.listeners import GameListener
from service.games.play import GamePlay
from service.games.records import GameRecord
from service.games.refusals import GameNotFound
from service.storage import GameList, GameLists, StorageError

from .listing import PAGE_SIZE, Page, newest_page
from .lobby import Players

log = logging.getLogger(__name__)


class GameListsKeeper(GameListener):
    """Puts games on the lists when their play begins, and moves them when they end."""

    def __init__(self, lists: GameLists, now_ms: Callable[[], int]):
        self.lists = lists
        # The store's clock (GameStore.now_ms): every time the site keeps is the store's.
        self.now_ms = now_ms

    def created(self, record: GameRecord) -> None:
        if record.open_seat is None:
            self._begun(record)

    def seat_taken(self, record: GameRecord, seat: int) -> None:
        if record.open_seat is None:
            self._begun(record)

    def committed(self, before: GameRecord, after: GameRecord, version: int, result: Any) -> None:
        # A game that never began (its open seat's time up) was on no list.
        if result is not None and before.open_seat is None:
            players = [seat.player_id for seat in after.seats if seat.player_id is not None]
            _guarded(lambda: self.ended(after.id, players, self.now_ms()))

    def _begun(self, record: GameRecord) -> None:
        def add() -> None:
            at_ms = self.now_ms()
            lists = self.lists
            lists.add(lists.active, record.id, at_ms)
            if record.rated:
                lists.add(lists.active_rated, record.id, at_ms)
            for seat in record.seats:
                if seat.player_id is not None:
                    lists.add(lists.player_active(seat.player_id), record.id, at_ms)

        _guarded(add)

    def ended(self, game_id: str, players: list[str], at_ms: int) -> None:
        """The game ended at `at_ms`: off the active lists, onto the finished ones (one call per slot)."""
        lists = self.lists
        lists.add(lists.finished, game_id, at_ms, off=(lists.active, lists.active_rated))
        for player_id in players:
            lists.add(lists.player_finished(player_id), game_id, at_ms, off=(lists.player_active(player_id),))


def _guarded(change: Callable[[], None]) -> None:
    """A store error in a list never fails the request whose change to the game is stored."""
    try:
        change()
    except StorageError as error:
        log.warning("the lists of games were left behind a game: the store failed (%s)", error)


class Watching:
    """Pages of the lists: games being played and finished games (all, rated, a player's)."""

    def __init__(self, play: GamePlay, players: Players, keeper: GameListsKeeper):
        self.play = play
        self.players = players
        self.keeper = keeper
        self.lists = keeper.lists

    def active(self, cursor: str | None, player_id: str | None = None, rated: bool = False) -> Page:
        """Games being played, newest first (by when play began); a player's only, rated only, when asked."""
        if player_id is not None:
            self.players.get(player_id)  # PlayerNotFound
            listed = self.lists.player_active(player_id)
        else:
            listed = self.lists.active_rated if rated else self.lists.active
        return self._page(listed, "active", cursor, rated)

    def finished(self, cursor: str | None, player_id: str | None = None, rated: bool = False) -> Page:
        """Finished games, newest first (by when they ended): the latest KEPT_GAMES, or a player's; rated only when asked."""
        if player_id is not None:
            self.players.get(player_id)  # PlayerNotFound
            listed = self.lists.player_finished(player_id)
        else:
            listed = self.lists.finished
        return self._page(listed, "finished", cursor, rated)

    def _page(self, listed: GameList, status: str, cursor: str | None, rated: bool) -> Page:
        stale: list[str] = []
        ratings: dict[str, int | None] = {}  # a player's games show its rating many times

        def entry_of(game_id: str) -> dict[str, Any] | None:
            try:
                view = parse(self.play.view(game_id).view)
            except GameNotFound:
                stale.append(game_id)  # expired
                return None
            if view["status"] != status:
                stale.append(game_id)
                if view["status"] == "finished":
                    self._repair_end(view)
                return None
            if rated and not view["rated"]:
                return None
            return self._entry(view, ratings)

        page = newest_page(
            lambda before_ms, count: self.lists.newest(listed, before_ms, count), entry_of, cursor, PAGE_SIZE
        )
        self.lists.remove(listed, *stale)
        return page

    def _repair_end(self, view: dict[str, Any]) -> None:
        """A game met finished on an active list: its end never reached the lists; it does now."""
        ended_ms = int(datetime.fromisoformat(view["updated_at"]).timestamp() * 1000)
        players = [p["player_id"] for p in view["players"] if p.get("player_id")]
        _guarded(lambda: self.keeper.ended(view["id"], players, ended_ms))

    def _entry(self, view: dict[str, Any], ratings: dict[str, int | None]) -> dict[str, Any]:
        """A game as the lists show it: its players (name, rating), turn, clock, version and result."""
        shown = []
        for player in view["players"]:
            player_id = player.get("player_id")
            if player_id is not None and player_id not in ratings:
                ratings[player_id] = self.players.shown_rating(player_id)
            shown.append(
                {
                    "name": player["name"],
                    "player_id": player_id,
                    "bot": player.get("bot"),
                    "rating": None if player_id is None else ratings[player_id],
                    "score": player["score"],
                }
            )
        return {
            "id": view["id"],
            "version": view["version"],
            "status": view["status"],
            "players": shown,
            "turn": view["turn"],
            "moves_played": view["moves_played"],
            "clock": view.get("clock"),
            "rated": bool(view.get("rated", False)),
            "result": view.get("result"),
            "created_at": view["created_at"],
            "updated_at": view["updated_at"],
        }
