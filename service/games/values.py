"""What the core's callers hand GamePlay and get back: who holds a new game's seats, the conditions
and keys a move comes with, and the answers of a creation, a move and an expiry.

Plain values with no behaviour of their own, so the site (service/site) and
the API can build and read them without reaching into the core's workings.
"""

from __future__ import annotations

from dataclasses import dataclass

from .records import NO_OPEN_SEATS, TournamentTag


@dataclass(frozen=True, slots=True)
class Created:
    """A new game: its id, its Game view, and the seat tokens (shown once)."""

    game_id: str
    view: str
    tokens: list[str | None]  # None for a bot's seat


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a seat beyond its name, as the site knows it: an identity, its name, the hash of its token.

    The seat bears the holder's name, and the holder's token acts for it
    beside the seat's own (GameRecord.seat_of). Not a `Seat`: a holder is a
    player, who may hold seats of many games; a seat is one game's place,
    which a holder fills (its `player_id`, `player_hash`) or not.
    """

    id: str
    name: str
    token_hash: str
    bot: bool = False  # a bot account's (an outside engine's), which the service does not play


@dataclass(frozen=True, slots=True)
class Seating:
    """Who holds a new game's seats beyond names and bots, as the caller prepared them."""

    holders: tuple[Holder | None, Holder | None] = (None, None)
    open_seats: tuple[bool, bool] = NO_OPEN_SEATS
    listed: bool = True
    open_until_ms: int = 0  # epoch ms: when an open seat's time in the lobby is up
    # With a clock and a seat open: the clock's only deadline, this long after the creation
    # (the join starts the clock afresh); None: the time control's own.
    open_for_ms: int | None = None
    rated: bool = False
    game_id: str | None = None  # the id chosen beforehand; None: a new one
    # The hashes of tokens that already act for the seats (a rematch: each person's of the
    # finished game): no new seat token is made. None: new ones.
    token_hashes: tuple[str | None, str | None] | None = None
    # False: no seat token is made for a seat a player holds; its player's token alone acts for
    # it (a tournament's games: nobody is there to be shown one). Bots' and open seats have none anyway.
    seat_tokens: bool = True
    # The tournament and round the game is paired in (GameRecord.tournament), None for none.
    tournament: TournamentTag | None = None
    # A first move not made by its deadline loses on time instead of aborting (GameRecord.first_move_forfeit).
    first_move_forfeit: bool = False


# The seating of a game whose seats are names and bots alone (GamePlay.create's default).
PLAIN_SEATING = Seating()


@dataclass(frozen=True, slots=True)
class Committed:
    """A stored move: the game after it and the move's number in the history."""

    game_id: str
    version: int
    number: int
    view: str  # the Game body after the move, as stored
    # With a clock: the time of the commit (the later of the store's clock and its reckoning).
    at_ms: int | None = None


@dataclass(frozen=True, slots=True)
class Expiry:
    """What `GamePlay.expire` found: the timeout applied, a later look to wait for, or nothing to do."""

    applied: Committed | None = None
    reason: str | None = None  # applied: "timeout" or "aborted"
    lag_ms: int | None = None  # applied: from the deadline to the commit
    # Not yet: when to look at the game again (its deadline, or a low-time notice owed before it).
    next_look_ms: int | None = None


@dataclass(frozen=True, slots=True)
class VersionCondition:
    """The versions a move may apply to, and what named them (for the refusal's message)."""

    versions: frozenset[str] | None  # the versions named, as text; None: any ("*")
    source: str  # "If-Match"

    def holds(self, version: int) -> bool:
        return self.versions is None or str(version) in self.versions


@dataclass(frozen=True, slots=True)
class IdempotencyKey:
    """An Idempotency-Key as the store names it, and the fingerprint of the request's body."""

    key: str
    fingerprint: str  # one line
