"""What the API stores for a game: the engine's state plus the game's metadata.

The engine owns its state format (`state_to_dict`); this module wraps it with
what only the service knows (id, player names, seat token hashes, times) and
is the single place that encodes and decodes the stored text.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from service.engine import GameState, state_from_dict, state_to_dict
from service.ratings import Settlement

from .clock import ClockSettings, ClockState
from .jsontext import compact, parse

RECORD_FORMAT = 1
DEFAULT_NAMES = ("Player 1", "Player 2")
NO_BOTS: tuple[None, None] = (None, None)
NO_PLAYERS: tuple[None, None] = (None, None)
NO_OPEN_SEATS = (False, False)
T = TypeVar("T")


GAME_ID_BYTES = 16
# The form of every id new_game_id gives: 16 bytes in unpadded base64url.
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{22}\Z")


def new_game_id() -> str:
    """An unguessable game id: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(GAME_ID_BYTES)


def could_be_game_id(text: str) -> bool:
    """Whether `text` has the form of an id new_game_id gives; any other names no game."""
    return _GAME_ID.match(text) is not None


def new_seat_token() -> str:
    """A seat's bearer token: 256 random bits, shown once at creation."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """SHA-256 of a token: all that is ever stored of it."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now_rfc3339() -> str:
    """The current UTC time, to the second, as RFC 3339."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRecord:
    """One game as stored: engine state and service metadata (built with keywords: nine fields)."""

    id: str
    names: tuple[str, str]
    # None for a bot seat: it has no token.
    token_hashes: tuple[str | None, str | None]
    created_at: str
    updated_at: str | None  # None only in a replayed past version whose move time is not stored
    state: GameState
    # What replaying the game needs beyond the state (GamePlay.view_at): the
    # starting circle of a game set up from a patch order (a seeded one
    # derives it from its seed), and when each move was accepted, oldest first.
    patch_order: tuple[int, ...] | None = None
    move_times: tuple[str | None, ...] = ()
    # Each seat's bot level id, None for a person.
    bots: tuple[str | None, str | None] = NO_BOTS
    # The time control (None: no clock) and the clock as of this version. The
    # earlier versions' clocks are the store's clock log (GameStore.load_clock),
    # which only a past view reads; `clock_past` holds them, oldest first in
    # the record's form (ClockState.log), only in a record stored before the
    # log moved out of it, until its next move hands them to the store.
    clock: ClockSettings | None = None
    clock_now: ClockState | None = None
    clock_past: tuple[Sequence[int | None], ...] = ()

    @property
    def clock_state(self) -> ClockState | None:
        """The clock as of this version (None without one)."""
        return self.clock_now

    # The player (site/players.py) holding each seat, None for none, and the
    # hash of that player's token, so the player token acts for the seat.
    player_ids: tuple[str | None, str | None] = NO_PLAYERS
    player_hashes: tuple[str | None, str | None] = NO_PLAYERS
    # Open seats: a seat nobody holds yet, taken by the first joiner (GamePlay.join).
    open_seats: tuple[bool, bool] = NO_OPEN_SEATS
    # Whether the game is shown in the lobby while a seat is open, and until
    # when (epoch milliseconds; 0 without an open seat).
    listed: bool = True
    open_until_ms: int = 0
    # A rated game (both seats players, a clock set) updates both ratings once it ends (ratings.py).
    rated: bool = False
    # Of a finished rated game: what its end did to both ratings (ratings.Settlement), decided in its final commit.
    settlement: Settlement | None = None
    # Of a finished game: the id of its rematch (rematch.py), once asked for.
    next_game: str | None = None

    def seat_of(self, token: str) -> int | None:
        """The seat whose token (or whose player's token) this is, compared in constant time; None if neither."""
        digest = token_hash(token)
        seat = None
        for candidate in (0, 1):
            for stored in (self.token_hashes[candidate], self.player_hashes[candidate]):
                if stored is not None and hmac.compare_digest(digest, stored):
                    seat = candidate
        return seat

    @property
    def open_seat(self) -> int | None:
        """The first seat still open, or None."""
        for seat in (0, 1):
            if self.open_seats[seat]:
                return seat
        return None

    @property
    def bot_in_turn(self) -> str | None:
        """The level of the bot whose turn it is; None when a person is in turn, the game is over, or not full.

        A bot never moves against a seat still open: its turn starts with the join (lobby.py).
        """
        turn = self.state.turn
        return None if turn is None or True in self.open_seats else self.bots[turn]

    @property
    def has_person(self) -> bool:
        """Whether a person plays at least one seat."""
        return None in self.bots

    def advanced(self, state: GameState, clock: ClockState | None = None) -> GameRecord:
        """The record after a move produced `state` (and, with a clock, left it as `clock` says)."""
        # Built directly: dataclasses.replace costs more than the rest of this, on every move.
        now = now_rfc3339()
        # A game stored before move times were kept has none for its early moves.
        times = self.move_times + (None,) * (state.moves_played - 1 - len(self.move_times)) + (now,)
        return GameRecord(
            id=self.id,
            names=self.names,
            token_hashes=self.token_hashes,
            created_at=self.created_at,
            updated_at=now,
            state=state,
            patch_order=self.patch_order,
            move_times=times,
            bots=self.bots,
            clock=self.clock,
            clock_now=self.clock_now if clock is None else clock,
            # With a clock, the commit hands the earlier clocks to the store's log (play.py).
            clock_past=self.clock_past if clock is None else (),
            player_ids=self.player_ids,
            player_hashes=self.player_hashes,
            open_seats=self.open_seats,
            listed=self.listed,
            open_until_ms=self.open_until_ms,
            rated=self.rated,
            settlement=self.settlement,
            next_game=self.next_game,
        )

    def encode(self) -> str:
        """The stored text."""
        return compact(
            {
                "format": RECORD_FORMAT,
                "id": self.id,
                "names": list(self.names),
                "token_hashes": list(self.token_hashes),
                "created_at": self.created_at,
                "updated_at": self.updated_at,
                "patch_order": None if self.patch_order is None else list(self.patch_order),
                "move_times": list(self.move_times),
                "engine": state_to_dict(self.state),
                # Left out of a game between people: records written before bots existed read the same.
                **({"bots": list(self.bots)} if self.bots != NO_BOTS else {}),
                # Left out without a clock, likewise.
                **(
                    {
                        "clock": self.clock.to_json(),
                        "clock_log": [*self.clock_past, self.clock_now.log],
                    }
                    if self.clock is not None and self.clock_now is not None
                    else {}
                ),
                # Left out of a game with no player identities or open seats, for the same reason.
                **(
                    {"player_ids": list(self.player_ids), "player_hashes": list(self.player_hashes)}
                    if self.player_ids != NO_PLAYERS
                    else {}
                ),
                **(
                    {
                        "open_seats": list(self.open_seats),
                        "listed": self.listed,
                        "open_until_ms": self.open_until_ms,
                    }
                    if self.open_until_ms
                    else {}
                ),
                **({"rated": True} if self.rated else {}),
                **({"settlement": self.settlement.to_json()} if self.settlement is not None else {}),
                **({"next_game": self.next_game} if self.next_game is not None else {}),
            }
        )

    @classmethod
    def decode(cls, text: str) -> GameRecord:
        """Read the stored text back."""
        doc = parse(text)
        if doc.get("format") != RECORD_FORMAT:
            raise ValueError(f"unknown game record format {doc.get('format')!r}")
        return cls(
            id=doc["id"],
            names=tuple(doc["names"]),
            token_hashes=tuple(doc["token_hashes"]),
            created_at=doc["created_at"],
            updated_at=doc["updated_at"],
            state=state_from_dict(doc["engine"]),
            # Records written before these were kept have neither.
            patch_order=None if doc.get("patch_order") is None else tuple(doc["patch_order"]),
            move_times=tuple(doc.get("move_times", ())),
            bots=tuple(doc.get("bots", NO_BOTS)),
            clock=None if doc.get("clock") is None else ClockSettings.from_json(doc["clock"]),
            **_clock_of(doc.get("clock_log")),
            player_ids=tuple(doc.get("player_ids", NO_PLAYERS)),
            player_hashes=tuple(doc.get("player_hashes", NO_PLAYERS)),
            open_seats=tuple(doc.get("open_seats", NO_OPEN_SEATS)),
            listed=doc.get("listed", True),
            open_until_ms=doc.get("open_until_ms", 0),
            rated=bool(doc.get("rated", False)),
            settlement=None if doc.get("settlement") is None else Settlement.from_json(doc["settlement"]),
            next_game=doc.get("next_game"),
        )


def _clock_of(log: list[list[int | None]] | None) -> dict[str, Any]:
    """The record's clock fields from its stored log."""
    if not log:
        return {}
    return {"clock_now": ClockState.from_log(log[-1]), "clock_past": tuple(log[:-1])}


def create_record(
    state: GameState,
    names: tuple[str, str],
    bots: tuple[str | None, str | None] = NO_BOTS,
    clock: ClockState | None = None,
    settings: ClockSettings | None = None,
    *,
    players: tuple[str | None, str | None] = NO_PLAYERS,
    player_hashes: tuple[str | None, str | None] = NO_PLAYERS,
    open_seats: tuple[bool, bool] = NO_OPEN_SEATS,
    listed: bool = True,
    open_until_ms: int = 0,
    rated: bool = False,
    game_id: str | None = None,
) -> tuple[GameRecord, list[str | None]]:
    """A fresh record for `state` and the seat tokens (never stored): None for a bot's seat and an open one.

    With a clock: its `settings` and its `clock` at the creation (clock.start, at its time).
    `players`, `player_hashes`: the player holding each seat and its token's
    hash; `open_seats`: the seats left for a joiner, until `open_until_ms`.
    `game_id`: the id chosen beforehand (a seek's pairing names its game), else a new one.
    """
    tokens = [None if bot is not None or empty else new_seat_token() for bot, empty in zip(bots, open_seats)]
    created = now_rfc3339()
    record = GameRecord(
        id=game_id or new_game_id(),
        names=names,
        token_hashes=(
            None if tokens[0] is None else token_hash(tokens[0]),
            None if tokens[1] is None else token_hash(tokens[1]),
        ),
        created_at=created,
        updated_at=created,
        state=state,
        patch_order=None if state.seed is not None else state.circle,
        bots=bots,
        clock=settings,
        clock_now=clock,
        player_ids=players,
        player_hashes=player_hashes,
        open_seats=open_seats,
        listed=listed,
        open_until_ms=open_until_ms if True in open_seats else 0,
        rated=rated,
    )
    return record, tokens


def seated(
    record: GameRecord, seat: int, name: str, player_id: str | None, player_hash: str | None
) -> tuple[GameRecord, str]:
    """The record with its open `seat` taken by `name` (and that player, if any), and the seat's new token."""
    token = new_seat_token()

    def put(pair: tuple[T, T], value: T) -> tuple[T, T]:
        return (value, pair[1]) if seat == 0 else (pair[0], value)

    open_seats = put(record.open_seats, False)
    return (
        replace(
            record,
            names=put(record.names, name),
            token_hashes=put(record.token_hashes, token_hash(token)),
            player_ids=put(record.player_ids, player_id),
            player_hashes=put(record.player_hashes, player_hash),
            open_seats=open_seats,
        ),
        token,
    )
