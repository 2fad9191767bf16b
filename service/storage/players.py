"""Players beside the game store on the same Redis link (not part of its interface): records, games, events, tickets.

Every key of a player carries its id as a hash tag, `<prefix>player:{<id>}...`:
on a Redis Cluster a player's keys share one slot, apart from every game it
plays (the game-play core never needs a script over both):

- `player:{<id>}`: the record, the caller's JSON text (site/players.py);
- `player:{<id>}:games`: sorted set of its game ids by when it joined them,
  the newest MAX_GAMES kept (GET /players/me/games);
- `player:{<id>}:rated`: set of the rated games applied to its rating
  (lua/player_rate.lua: each once);
- `player:{<id>}:events`: its event stream (GET /players/me/events), about
  MAX_EVENTS kept, entry ids the events' ids. An append PUBLISHes `p.<id>` on
  the game events' wake-up channel (wakeups.py): a game id never holds a `.`.
- `player:{<id>}:bot_games`: a bot account's places in games against other
  bot accounts over the last day, by when each was taken on the store's
  clock (lua/player_bot_game.lua; site/bot_accounts.py keeps the cap): one
  script checks and takes a place, so racing accepts on any instances never
  pass the cap together.
- `player:{<id>}:vacation`: its correspondence vacation and the bank's use
  this year (lua/player_vacation.lua), kept like the record.
- `player:{<id>}:webhooks`, `:webhook_on` and `:webhook_log:<hook>`: its
  webhooks, their index and state, and each one's delivery log (webhooks.py).

A stream ticket is `ticket:{<hash>}` (its own slot), the player id, for 60 s,
read and deleted at once (GETDEL). Players themselves do not expire: an
identity is meant to be kept (sizing:
docs/operations.md#memory-and-the-limits-an-internet-facing-deployment-should-turn-on);
their games and events lists are bounded, and expire: the games list with
the games, the events a week after the last.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .connections import RedisLink
from .event_streams import StreamEvent, events_after
from .store import EventWatch
from .wakeups import Wakeups

MAX_GAMES = 200
MAX_EVENTS = 100
# A player's event stream goes a week after its last event (a stream of even
# one event costs about 4.7 KB: Redis allocates its first node whole).
EVENTS_TTL_MS = 7 * 24 * 3600 * 1000
TICKET_TTL_SECONDS = 60
# The player's webhooks' index (storage/webhooks.py), which every notice looks at.
WEBHOOK_INDEX = ":webhook_on"


class Notice(NamedTuple):
    """An event appended to a player's stream: its id, and the player's webhooks that want it (id, event)."""

    id: str
    hooks: list[tuple[str, str]]


def _wake_name(player_id: str) -> str:
    return f"p.{player_id}"


class PlayerStore:
    """Players' texts, game lists, event streams and stream tickets under the link's key prefix."""

    def __init__(
        self, link: RedisLink, wakeups: Wakeups | None = None, *, games_ttl_ms: int = 30 * 24 * 3600 * 1000
    ):
        """`games_ttl_ms`: how long a player's list of games outlives its last game (the games' own TTL)."""
        self._link = link
        self._games_ttl_ms = games_ttl_ms
        self._base = f"{link.prefix}player:"
        self._tickets = f"{link.prefix}ticket:"
        self._wakeups = wakeups

    def key(self, player_id: str) -> str:
        return f"{self._base}{{{player_id}}}"

    def create(self, player_id: str, text: str) -> bool:
        """Store a new player; False (nothing changed) when one already has the id."""
        return bool(self._link.command("create_player", "SET", self.key(player_id), text, "NX"))

    def load(self, player_id: str) -> str | None:
        """The player's text, or None."""
        found: str | None = self._link.command("load_player", "GET", self.key(player_id))
        return found

    def add_game(self, player_id: str, game_id: str, at_ms: int) -> None:
        """Count `game_id` among the player's games (the newest MAX_GAMES are kept)."""
        self._link.script(
            "player_add_game",
            [self.key(player_id) + ":games"],
            [game_id, at_ms, MAX_GAMES, self._games_ttl_ms],
        )

    def games(self, player_id: str) -> list[str]:
        """The player's game ids, newest first."""
        return list(self._link.command("player_games", "ZREVRANGE", self.key(player_id) + ":games", 0, -1))

    def notify(self, player_id: str, kind: str, data: str) -> str:
        """Append an event to the player's stream and wake its readers; the event's id."""
        return self.notice(player_id, kind, data).id

    def notice(self, player_id: str, kind: str, data: str, hook_events: Sequence[str] = ()) -> Notice:
        """Append an event to the player's stream, wake its readers, and find the player's webhooks that
        listen to any of `hook_events` (in the same script: no call more for a player without any)."""
        found = self._link.script(
            "player_notify",
            [self.key(player_id) + ":events", self.key(player_id) + WEBHOOK_INDEX],
            [kind, data, *self.stream_args(player_id), *hook_events],
        )
        return Notice(found[0], [(found[i], found[i + 1]) for i in range(1, len(found), 2)])

    def stream_args(self, player_id: str) -> tuple[int, str, str, int]:
        """What a script that appends to the player's stream is given after the event (lib/notice.lua)."""
        if self._wakeups is None:
            raise RuntimeError("this store was opened without event wake-ups")
        return (MAX_EVENTS, self._wakeups.channel, f"{_wake_name(player_id)} 0", EVENTS_TTL_MS)

    def events_after(self, player_id: str, after: str | None, count: int) -> list[StreamEvent]:
        """Up to `count` events after the one with id `after` (None: the oldest kept on), oldest first."""
        return events_after(self._link, "player_events", self.key(player_id) + ":events", after, count)

    def apply_rating(
        self, player_id: str, game_id: str, after: tuple[float, float, float], diff: float
    ) -> bool | None:
        """Apply a rated game's settlement to the player once (rating, RD, volatility after; the change).

        True when applied now, False when it had been already, None when there is no such player.
        """
        rating, rd, volatility = after
        found = self._link.script(
            "player_rate",
            [self.key(player_id), self.key(player_id) + ":rated"],
            [game_id, repr(rating), repr(rd), repr(volatility), repr(diff)],
        )
        return None if found == -1 else bool(found)

    def vacation(self, player_id: str, action: str, bank_days: int, days: int = 0) -> list[Any]:
        """Start ('start', `days`), end ('end') or read ('read') the player's correspondence vacation.

        One script on the store's clock (lua/player_vacation.lua, whose head
        lists the answers), from a bank of `bank_days` a calendar year.
        """
        found: list[Any] = self._link.script(
            "player_vacation", [self.key(player_id) + ":vacation"], [action, days, bank_days]
        )
        return [found[0], *(int(value) for value in found[1:])]

    def take_bot_game(self, player_id: str, place_id: str, window_ms: int, most: int) -> int:
        """Take a place named `place_id` among the bot account's games against bots in the last `window_ms`:
        0 when taken, else (it holds `most`) the ms until its oldest place leaves the window."""
        found: int = self._link.script(
            "player_bot_game", [self.key(player_id) + ":bot_games"], [place_id, window_ms, most]
        )
        return int(found)

    def give_back_bot_game(self, player_id: str, place_id: str) -> None:
        """Give back a place taken for a game that was not made."""
        self._link.command("player_bot_game_back", "ZREM", self.key(player_id) + ":bot_games", place_id)

    def newest_event_id(self, player_id: str) -> str | None:
        """The id of the player's newest event, or None when it has none."""
        found = self._link.command(
            "player_newest", "XREVRANGE", self.key(player_id) + ":events", "+", "-", "COUNT", 1
        )
        return found[0][0] if found else None

    def watch(self, player_id: str) -> EventWatch:
        """A watch woken by every event appended to the player's stream, in any process."""
        if self._wakeups is None:
            raise RuntimeError("this store was opened without event wake-ups")
        return self._wakeups.watch(_wake_name(player_id))

    def issue_ticket(self, ticket_hash: str, player_id: str) -> None:
        """A one-use stream ticket for the player, valid TICKET_TTL_SECONDS."""
        key = f"{self._tickets}{{{ticket_hash}}}"
        self._link.command("ticket_issue", "SET", key, player_id, "EX", TICKET_TTL_SECONDS)

    def redeem_ticket(self, ticket_hash: str) -> str | None:
        """The player id of the ticket, which is gone from now on; None when unknown, used or expired."""
        found: str | None = self._link.command("ticket_redeem", "GETDEL", f"{self._tickets}{{{ticket_hash}}}")
        return found
