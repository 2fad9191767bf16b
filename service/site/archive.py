"""A player's finished games for export (GET /players/{id}/games.ndjson): each game with its record, newest first.

Read from the player's list of finished games (storage/game_lists.py, kept
by watching.py's listener), by when each game ended, a page at a time, so
the answer is streamed a game after another and never held whole. Each line
is a JSON object: the Game body and the game's record (docs/records.md).
Like every reader of the lists, it judges each entry against its game: a
game gone or not finished is left out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from service.games.jsontext import Fragment, compact, parse
from service.games.record_games import game_record
from service.games.refusals import GameNotFound

from .listing import newest_page
from .watching import Watching

# Games judged (each read, its record written) before their lines go out.
PAGE_SIZE = 20


@dataclass(frozen=True, slots=True)
class ArchiveQuery:
    """Which of a player's finished games: ended in [since_ms, until_ms] (None: no bound), rated or not (None: both)."""

    since_ms: int | None = None
    until_ms: int | None = None
    rated: bool | None = None
    most: int | None = None


def finished_lines(watching: Watching, player_id: str, query: ArchiveQuery) -> Iterator[str]:
    """The player's finished games as NDJSON lines, newest first; PlayerNotFound before the first."""
    watching.players.get(player_id)
    listed = watching.lists.player_finished(player_id)
    play = watching.play

    def read(before_ms: int | None, count: int) -> list[tuple[str, int]]:
        top = before_ms if before_ms is not None else query.until_ms
        found = watching.lists.newest(listed, top, count)
        # Newest first: past `since` the list has nothing more to give.
        return [(game_id, ms) for game_id, ms in found if query.since_ms is None or ms >= query.since_ms]

    def line_of(game_id: str) -> dict[str, Any] | None:
        try:
            found = play.view(game_id)
            view = parse(found.view)
            if view["status"] != "finished" or query.rated not in (None, view["rated"]):
                return None
            return {"line": compact({"game": Fragment(found.view), "record": game_record(play, game_id)})}
        except GameNotFound:
            return None  # expired since it was listed

    def lines() -> Iterator[str]:
        sent, cursor = 0, None
        while True:
            page = newest_page(read, line_of, cursor, PAGE_SIZE)
            for entry in page.games:
                yield entry["line"] + "\n"
                sent += 1
                if sent == query.most:
                    return
            if page.next is None:
                return
            cursor = page.next

    return lines()
