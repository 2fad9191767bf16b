"""Pages of an index of games newest first, with a cursor: the lobby's (lobby.py) and the lists of watching.py.

An index is a sorted set of game ids scored by a time in ms, read newest
first (ZREVRANGEBYSCORE: by score, then by id, both descending). A page's
cursor names its last entry, `<ms>.<id>`, and the next page starts after it,
so entries added or dropped between two pages neither repeat nor skip the
others. Each entry is judged as the page is made (its game read): the index
is a hint, and an entry its game no longer belongs with is left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PAGE_SIZE = 50

# (game id, ms) of up to `count` entries, newest first, scored at or before a ms (None: any).
NewestRead = Callable[[int | None, int], list[tuple[str, int]]]


@dataclass(frozen=True, slots=True)
class Page:
    """One page: its entries, newest first, and the cursor of the next (None: the last)."""

    games: list[dict[str, Any]]
    next: str | None


def newest_page(
    read: NewestRead,
    entry_of: Callable[[str], dict[str, Any] | None],
    cursor: str | None,
    size: int = PAGE_SIZE,
) -> Page:
    """The page after `cursor` (opaque; None: the first) of the index `read` reads, `size` entries at most.

    `entry_of` makes a game's entry, or None to leave it out (a stale entry
    is the caller's to drop: it knows why it is left out).
    """
    position = _parse_cursor(cursor)
    games: list[dict[str, Any]] = []
    last: tuple[int, str] | None = None
    more = False
    want = 2 * size
    while not more:
        batch = read(None if position is None else position[0], want)
        fresh = [(ms, gid) for gid, ms in batch if position is None or (ms, gid) < position]
        for ms, game_id in fresh:
            entry = entry_of(game_id)
            if entry is None:
                continue
            if len(games) == size:
                more = True
                break
            games.append(entry)
            last = (ms, game_id)
        # A short batch is the end of the index; one with nothing new, a run of
        # more than `want` games of the same millisecond (left for the next page).
        if len(batch) < want or not fresh:
            break
        position = fresh[-1]
    return Page(games, _cursor(last) if more and last is not None else None)


def _cursor(position: tuple[int, str]) -> str:
    return f"{position[0]}.{position[1]}"


def _parse_cursor(cursor: str | None) -> tuple[int, str] | None:
    """(ms, game id) of the last entry of the page before; None for the first page or a cursor not ours."""
    if not cursor:
        return None
    ms, dot, game_id = cursor.partition(".")
    if not dot or not ms.isdigit():
        return None
    return int(ms), game_id
