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
from dataclasses import dataclass, replace
from typing import Any

from service.engine import GameState, state_from_dict, state_to_dict
from service.ratings import Settlement

from .clock import ClockSettings, ClockState
from .jsontext import compact, parse

RECORD_FORMAT = 1
DEFAULT_NAMES = ("Player 1", "Player 2")
NO_BOTS: tuple[None, None] = (None, None)
NO_PLAYERS: tuple[None, None] = (None, None)
NO_OPEN_SEATS = (False, False)
NO_BOT_ACCOUNTS = (False, False)


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


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a game: who plays it and what acts for it."""

    name: str
    # SHA-256 of the seat's token; None for a bot's seat and an open one: no token was handed out.
    token_hash: str | None = None
    bot: str | None = None  # the bot level id; None for a person
    # The player (site/players.py) holding the seat, None for none, and the
    # hash of that player's token, so the player token acts for the seat.
    player_id: str | None = None
    player_hash: str | None = None
    # A seat nobody holds yet, taken by the first joiner (site/lobby.py).
    open: bool = False
    # Held by a bot account (an outside engine that moves through the API); `bot` stays None:
    # the service's own workers never play it.
    bot_account: bool = False


@dataclass(frozen=True, slots=True)
class Offer:
    """A seat's pending offer to the other (site/offers.py): a rematch or a takeback, void from `expires_at_ms` on."""

    kind: str  # "rematch" or "takeback"
    seat: int  # the seat that offered
    version: int  # the game's version it was made at: a takeback offer holds for that version only
    expires_at_ms: int  # the store's time (epoch ms) it lapses at

    def to_json(self) -> list[Any]:
        return [self.kind, self.seat, self.version, self.expires_at_ms]

    @classmethod
    def from_json(cls, doc: list[Any]) -> Offer:
        kind, seat, version, expires_at_ms = doc
        return cls(kind, seat, version, expires_at_ms)


@dataclass(frozen=True, slots=True)
class Pause:
    """A correspondence seat's clock paused for its player's vacation in the turn it runs (GamePlay.pause).

    `since_ms`..`until_ms` is the vacation (until: its end, or when it was
    ended early); `shift_ms` is how far it moved this turn's deadline, so a
    vacation ended early takes back what it gave and no more.
    """

    seat: int
    since_ms: int
    until_ms: int
    shift_ms: int

    def to_json(self) -> list[int]:
        return [self.seat, self.since_ms, self.until_ms, self.shift_ms]

    @classmethod
    def from_json(cls, doc: list[int]) -> Pause:
        seat, since_ms, until_ms, shift_ms = doc
        return cls(seat, since_ms, until_ms, shift_ms)


@dataclass(frozen=True, slots=True)
class TournamentTag:
    """The tournament a game was paired in and its round: all the core knows of tournaments.

    The core stores it and shows it (Game.tournament, the players' `game_start`);
    what it means is the tournament module's (site/tournaments.py), which hears
    the game's end as a listener of every game.
    """

    id: str
    round: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "round": self.round}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> TournamentTag:
        return cls(doc["id"], doc["round"])


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRecord:
    """One game as stored: engine state and service metadata (built with keywords)."""

    id: str
    seats: tuple[Seat, Seat]
    created_at: str
    updated_at: str
    state: GameState
    # What replaying the game needs beyond the state (GamePlay.view_at): the
    # starting circle of a game set up from a patch order (a seeded one
    # derives it from its seed), and when each move was accepted, oldest first.
    patch_order: tuple[int, ...] | None = None
    move_times: tuple[str, ...] = ()
    # The time control (None: no clock) and the clock as of this version. The
    # earlier versions' clocks are the store's clock log (GameStore.load_clock),
    # which only a past view reads.
    clock: ClockSettings | None = None
    clock_now: ClockState | None = None

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
    # The one pending offer of a seat to the other (site/offers.py); a move voids it (`advanced` leaves it out).
    offer: Offer | None = None
    # The tournament and round the game was paired in (site/tournaments.py); None for any other game.
    tournament: TournamentTag | None = None
    # Whether a first move not made by the first-move deadline loses the game on time for the seat
    # to move instead of aborting it (GamePlay.expire): a tournament's games, where a player who
    # does not turn up loses. A rule of the game's end, so a field of its own: the tag above says
    # where the game belongs and the core reads no rule into it; and not a clock setting, because
    # ClockSettings is the time control players send and see (Game.clock), which rematches and
    # seeks repeat, while this is decided by whoever creates the game.
    first_move_forfeit: bool = False
    # Which seats' players were told their time runs low (`low_time`, once per game and seat): set
    # by the compare-and-set that tells them (GamePlay), so no two processes tell one twice.
    low_time_told: tuple[bool, bool] = (False, False)
    # The running seat's clock paused this turn (a vacation); a move ends the turn, and it (`advanced` leaves it out).
    pause: Pause | None = None

    def seat_of(self, token: str) -> int | None:
        """The seat whose token (or whose player's token) this is, compared in constant time; None if neither."""
        digest = token_hash(token)
        found = None
        for index, seat in enumerate(self.seats):
            for stored in (seat.token_hash, seat.player_hash):
                if stored is not None and hmac.compare_digest(digest, stored):
                    found = index
        return found

    @property
    def open_seat(self) -> int | None:
        """The first seat still open, or None."""
        for index, seat in enumerate(self.seats):
            if seat.open:
                return index
        return None

    @property
    def bot_in_turn(self) -> str | None:
        """The level of the bot whose turn it is; None when a person is in turn, the game is over, or not full.

        A bot never moves against a seat still open: its turn starts with the join (lobby.py).
        """
        turn = self.state.turn
        first, second = self.seats
        return None if turn is None or first.open or second.open else self.seats[turn].bot

    @property
    def has_bot(self) -> bool:
        """Whether a bot plays at least one seat."""
        return self.seats[0].bot is not None or self.seats[1].bot is not None

    @property
    def has_person(self) -> bool:
        """Whether a person plays at least one seat."""
        return self.seats[0].bot is None or self.seats[1].bot is None

    def owes_low_time(self, seat: int) -> bool:
        """Whether the seat's player is still to be told its time runs low (a service bot's seat never is)."""
        return self.seats[seat].player_id is not None and not self.low_time_told[seat]

    def low_time_now_told(self, seat: int) -> GameRecord:
        """The record with the seat's player told of its low time."""
        told = (True, self.low_time_told[1]) if seat == 0 else (self.low_time_told[0], True)
        return replace(self, low_time_told=told)

    def with_seat(self, index: int, seat: Seat) -> GameRecord:
        """The record with its seat `index` replaced by `seat`."""
        return replace(self, seats=(seat, self.seats[1]) if index == 0 else (self.seats[0], seat))

    def advanced(self, state: GameState, clock: ClockState | None = None) -> GameRecord:
        """The record after a move produced `state` (and, with a clock, left it as `clock` says); no offer stands."""
        # Built directly: dataclasses.replace costs more than the rest of this, on every move.
        now = now_rfc3339()
        return GameRecord(
            id=self.id,
            seats=self.seats,
            created_at=self.created_at,
            updated_at=now,
            state=state,
            patch_order=self.patch_order,
            move_times=self.move_times + (now,),
            clock=self.clock,
            clock_now=self.clock_now if clock is None else clock,
            listed=self.listed,
            open_until_ms=self.open_until_ms,
            rated=self.rated,
            settlement=self.settlement,
            next_game=self.next_game,
            tournament=self.tournament,
            first_move_forfeit=self.first_move_forfeit,
            low_time_told=self.low_time_told,
        )

    def encode(self) -> str:
        """The stored text: each seat's fields in lists of both seats' (the form records had before `Seat`)."""
        first, second = self.seats
        return compact(
            {
                "format": RECORD_FORMAT,
                "id": self.id,
                "names": [first.name, second.name],
                "token_hashes": [first.token_hash, second.token_hash],
                "created_at": self.created_at,
                "updated_at": self.updated_at,
                "patch_order": None if self.patch_order is None else list(self.patch_order),
                "move_times": list(self.move_times),
                "engine": state_to_dict(self.state),
                # Left out of a game between people: records written before bots existed read the same.
                **(
                    {"bots": [first.bot, second.bot]}
                    if first.bot is not None or second.bot is not None
                    else {}
                ),
                # Left out without a clock, likewise. The clock as of this version is
                # the last entry of a list, as when the record held every version's.
                **(
                    {"clock": self.clock.to_json(), "clock_log": [self.clock_now.log]}
                    if self.clock is not None and self.clock_now is not None
                    else {}
                ),
                # Left out of a game with no player identities or open seats, for the same reason.
                **(
                    {
                        "player_ids": [first.player_id, second.player_id],
                        "player_hashes": [first.player_hash, second.player_hash],
                    }
                    if first.player_id is not None or second.player_id is not None
                    else {}
                ),
                **(
                    {"bot_accounts": [first.bot_account, second.bot_account]}
                    if first.bot_account or second.bot_account
                    else {}
                ),
                **(
                    {
                        "open_seats": [first.open, second.open],
                        "listed": self.listed,
                        "open_until_ms": self.open_until_ms,
                    }
                    if self.open_until_ms
                    else {}
                ),
                **({"rated": True} if self.rated else {}),
                **({"settlement": self.settlement.to_json()} if self.settlement is not None else {}),
                **({"next_game": self.next_game} if self.next_game is not None else {}),
                **({"offer": self.offer.to_json()} if self.offer is not None else {}),
                # Left out of every other game, which reads as it did before tournaments.
                **({"tournament": self.tournament.to_json()} if self.tournament is not None else {}),
                **({"first_move_forfeit": True} if self.first_move_forfeit else {}),
                **({"low_time_told": list(self.low_time_told)} if any(self.low_time_told) else {}),
                **({"pause": self.pause.to_json()} if self.pause is not None else {}),
            }
        )

    @classmethod
    def decode(cls, text: str) -> GameRecord:
        """Read the stored text back."""
        doc = parse(text)
        if doc.get("format") != RECORD_FORMAT:
            raise ValueError(f"unknown game record format {doc.get('format')!r}")
        first, second = (
            Seat(*fields)
            for fields in zip(
                doc["names"],
                doc["token_hashes"],
                doc.get("bots", NO_BOTS),
                doc.get("player_ids", NO_PLAYERS),
                doc.get("player_hashes", NO_PLAYERS),
                doc.get("open_seats", NO_OPEN_SEATS),
                doc.get("bot_accounts", NO_BOT_ACCOUNTS),
                strict=True,
            )
        )
        return cls(
            id=doc["id"],
            seats=(first, second),
            created_at=doc["created_at"],
            updated_at=doc["updated_at"],
            state=state_from_dict(doc["engine"]),
            patch_order=None if doc["patch_order"] is None else tuple(doc["patch_order"]),
            move_times=tuple(doc["move_times"]),
            clock=None if doc.get("clock") is None else ClockSettings.from_json(doc["clock"]),
            **_clock_of(doc.get("clock_log")),
            listed=doc.get("listed", True),
            open_until_ms=doc.get("open_until_ms", 0),
            rated=bool(doc.get("rated", False)),
            settlement=None if doc.get("settlement") is None else Settlement.from_json(doc["settlement"]),
            next_game=doc.get("next_game"),
            offer=None if doc.get("offer") is None else Offer.from_json(doc["offer"]),
            tournament=None if doc.get("tournament") is None else TournamentTag.from_json(doc["tournament"]),
            first_move_forfeit=bool(doc.get("first_move_forfeit", False)),
            low_time_told=_told(doc.get("low_time_told")),
            pause=None if doc.get("pause") is None else Pause.from_json(doc["pause"]),
        )


def _told(told: list[bool] | None) -> tuple[bool, bool]:
    return (False, False) if told is None else (bool(told[0]), bool(told[1]))


def _clock_of(log: list[list[int | None]] | None) -> dict[str, Any]:
    """The record's clock as of its version from its stored log: the log's last entry."""
    if not log:
        return {}
    return {"clock_now": ClockState.from_log(log[-1])}


def create_record(
    state: GameState,
    seats: tuple[Seat, Seat],
    clock: ClockState | None = None,
    settings: ClockSettings | None = None,
    *,
    listed: bool = True,
    open_until_ms: int = 0,
    rated: bool = False,
    game_id: str | None = None,
    seat_tokens: bool = True,
    tournament: TournamentTag | None = None,
    first_move_forfeit: bool = False,
) -> tuple[GameRecord, list[str | None]]:
    """A fresh record for `state` and the seat tokens (never stored): None for a bot's seat, an open one,
    one whose token acts already (a rematch's: it comes with its hash), and, without `seat_tokens`, a
    seat a player holds (its player's token alone acts for it).

    Each other seat of `seats` gets a new token, whose hash it keeps.
    With a clock: its `settings` and its `clock` at the creation (clock.start, at its time).
    `open_until_ms`: until when an open seat waits for a joiner.
    `game_id`: the id chosen beforehand (a seek's pairing names its game), else a new one.
    `tournament`, `first_move_forfeit`: as GameRecord has them.
    """
    tokens = [
        None
        if seat.bot is not None
        or seat.open
        or seat.token_hash is not None
        or (not seat_tokens and seat.player_hash is not None)
        else new_seat_token()
        for seat in seats
    ]
    first, second = (
        seat if token is None else replace(seat, token_hash=token_hash(token))
        for seat, token in zip(seats, tokens, strict=True)
    )
    created = now_rfc3339()
    record = GameRecord(
        id=game_id or new_game_id(),
        seats=(first, second),
        created_at=created,
        updated_at=created,
        state=state,
        patch_order=None if state.seed is not None else state.circle,
        clock=settings,
        clock_now=clock,
        listed=listed,
        open_until_ms=open_until_ms if first.open or second.open else 0,
        rated=rated,
        tournament=tournament,
        first_move_forfeit=first_move_forfeit,
    )
    return record, tokens


def seated(
    record: GameRecord, seat: int, name: str, player_id: str | None, player_hash: str | None
) -> tuple[GameRecord, str]:
    """The record with its open `seat` taken by `name` (and that player, if any), and the seat's new token."""
    token = new_seat_token()
    taken = replace(
        record.seats[seat],
        name=name,
        token_hash=token_hash(token),
        player_id=player_id,
        player_hash=player_hash,
        open=False,
    )
    return record.with_seat(seat, taken), token
