"""Players, the lobby and joining an open seat, on the game store and the stores beside it.

Joining is one compare-and-set on the game alone (GamePlay.amend writing
GameStore.take_seat, one script on the game's slot): two joiners who read the same copy of the game
cannot both win, whatever instance each runs on; the loser is given the game
as stored now, judged again, and finds the seat taken (`409 seat_taken`).

The lobby's index (storage/lobby.py) lives in another slot, so it cannot be
changed in the same script: it is repaired by design instead. An entry is a
hint; listing checks each against its game's view and drops those no longer
open, so a joiner who crashes after the take and before the index's update
leaves a stale entry that the next listing removes, never a full game
shown as open.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, NoReturn

from service.games.answers import decode_joined, encode_joined
from service.games.clock import start
from service.games.jsontext import Fragment, compact, parse
from service.games.kept import GameCopy
from service.games.play import GamePlay, recorded_answer
from service.games.records import NO_BOTS, GameRecord, seated, token_hash
from service.games.refusals import (
    GameNotFound,
    InvalidToken,
    PlayerNotFound,
    PlayerRequired,
    RatedNotPossible,
    SeatTaken,
    TooManyWaiting,
)
from service.games.values import Created, Holder, IdempotencyKey, Seating
from service.games.views import game_view
from service.games.writes import Write, clock_check, clock_log
from service.languages import Plural, Text
from service.storage import (
    ClockRefused,
    IdempotencyAnswer,
    LobbyIndex,
    PlayerStore,
    SeatChange,
    SeatExpired,
    StorageError,
    Stored,
)

from .bot_accounts import CREATE_GAME, JOIN, only_challenges
from .listing import PAGE_SIZE, NewestRead, Page, newest_page
from .player_feed import PlayerFeed
from .players import PlayerRecord, authenticated, check_player_id, new_player

# Expired entries dropped (and their games aborted) per listing.
EXPIRE_BATCH = 50


@dataclass(frozen=True, slots=True)
class Joined:
    """A seat taken: the game after it, the seat and its token (shown once)."""

    view: str
    seat: int
    token: str


class Players:
    """Creating, reading and recognising players."""

    def __init__(self, store: PlayerStore):
        self.store = store

    def create(self, name: str, bot: bool = False) -> tuple[PlayerRecord, str]:
        """A new player (a bot account when `bot`) and its token (shown once)."""
        player, token = new_player(name, bot)
        if not self.store.create(player.id, player.encode()):
            raise RuntimeError("a player with a fresh random id already exists")
        return player, token

    def find(self, player_id: str) -> PlayerRecord | None:
        text = self.store.load(player_id)
        return None if text is None else PlayerRecord.decode(text)

    def get(self, player_id: str) -> PlayerRecord:
        """The player, or PlayerNotFound."""
        check_player_id(player_id)
        player = self.find(player_id)
        if player is None:
            raise PlayerNotFound(player_id)
        return player

    def shown_rating(self, player_id: str | None) -> int | None:
        """The player's rating as lists show it (rounded); None for no player, or one not found."""
        player = None if player_id is None else self.find(player_id)
        return None if player is None else round(player.rating.rating)

    def authenticate(self, token: str | None) -> PlayerRecord:
        """The player whose token this is: MissingToken, InvalidToken otherwise."""
        return authenticated(token, self.find)

    def issue_ticket(self, player: PlayerRecord) -> str:
        """A one-use ticket for the player's event stream (`?ticket=`), valid 60 s: a token never goes in a URL."""
        ticket = secrets.token_urlsafe(32)
        self.store.issue_ticket(token_hash(ticket), player.id)
        return ticket

    def use_tickets(self, tickets: list[str]) -> dict[str, PlayerRecord | None]:
        """Use up every ticket named (each is gone from now on): the player of each, None when unknown, used or expired."""
        used = {}
        for ticket in dict.fromkeys(tickets):
            player_id = self.store.redeem_ticket(token_hash(ticket))
            used[ticket] = None if player_id is None else self.find(player_id)
        return used

    @staticmethod
    def ticket_holder(player: PlayerRecord | None) -> PlayerRecord:
        """The player a used ticket named; InvalidToken for None (the ticket was unknown, used or expired)."""
        if player is None:
            raise InvalidToken(
                Text(
                    "This stream ticket is unknown, used or expired:"
                    " ask POST /players/me/stream-tickets for another."
                )
            )
        return player

    def follow(self, player: PlayerRecord, after: str | None, idle_seconds: float) -> PlayerFeed:
        """The player's events after the one named `after` (None: from now); see player_feed.py."""
        return PlayerFeed.open(self.store, player.id, after, idle_seconds)

    def games(self, player: PlayerRecord, play: GamePlay, status: str | None) -> list[dict[str, Any]]:
        """The player's games (status "active", "finished" or None: both), awaiting its move first, then by
        least time left (the clock's deadline; none last), then the most recently changed."""
        found = []
        for game_id in self.store.games(player.id):
            try:
                text = play.view(game_id).view
            except GameNotFound:
                continue  # expired
            view = parse(text)
            seats = [s for s in (0, 1) if view["players"][s].get("player_id") == player.id]
            if not seats or (status is not None and view["status"] != status):
                continue
            seat = seats[0]
            my_turn = (
                view["status"] == "active"
                and view["turn"] == seat
                and not any(p.get("open") for p in view["players"])
            )
            clock = view.get("clock")
            deadline = clock.get("deadline") if isinstance(clock, dict) else None
            entry = {"game": Fragment(text), "seat": seat, "my_turn": my_turn, "deadline": deadline}
            found.append((view["updated_at"], entry))
        # Most recently changed first, then (a stable sort) by turn and deadline.
        found.sort(key=lambda pair: pair[0], reverse=True)
        found.sort(
            key=lambda pair: (not pair[1]["my_turn"], pair[1]["deadline"] is None, pair[1]["deadline"] or "")
        )
        return [entry for _changed, entry in found]


class Lobby:
    """Open games: creating them, listing the listed ones, and joining a seat."""

    def __init__(self, play: GamePlay, players: Players, index: LobbyIndex, ttl_seconds: int, most_open: int):
        self.play = play
        self.players = players
        self.index = index
        self.ttl_ms = ttl_seconds * 1000
        # Open games one holder (a player, or a client address without one) has at once (OPEN_GAMES_PER_PLAYER).
        self.most_open = most_open

    def create(
        self,
        names: tuple[str, str],
        bots: tuple[str | None, str | None] = NO_BOTS,
        *,
        owner: PlayerRecord | None = None,
        open_seats: tuple[bool, bool] = (False, False),
        listed: bool = True,
        rated: bool = False,
        client: str = "",
        **setup: Any,
    ) -> Created:
        """A new game (GamePlay.create) whose open seats, if any, wait LOBBY_TTL_SECONDS; listed in the lobby when asked.

        `rated`: a rated lobby game, whose creator's player holds one seat and whose other seat is open
        for a player to join, on a clock (RatedNotPossible otherwise).
        """
        only_challenges(owner, CREATE_GAME)
        if rated:
            _check_rated(owner, bots, open_seats, setup.get("clock"))
        opened = self.play.now_ms()  # the store's clock: take_seat.lua judges the seat's time on it
        holder = f"player:{owner.id}" if owner is not None else f"client:{client}"
        if True in open_seats:
            self._check_open_games(holder, opened)
        open_until_ms = opened + self.ttl_ms if True in open_seats else 0
        seating = Seating(
            _owned(owner, bots, open_seats),
            open_seats,
            listed,
            open_until_ms,
            # While a seat waits, a clock's only deadline is the lobby's: the timekeepers
            # abort the game then, as a game whose first move never came (the join starts
            # the clock afresh).
            open_for_ms=max(open_until_ms - self.play.now_ms(), 1) if True in open_seats else None,
            rated=rated,
        )
        created = self.play.create(names, bots, client=client, seating=seating, **setup)
        if True in open_seats:
            self.index.hold(holder, created.game_id, opened + self.ttl_ms)
        if True in open_seats and listed:
            # After the game: an entry whose game is not there yet would be dropped by a reader.
            self.index.add(created.game_id, opened)
        return created

    def _check_open_games(self, holder: str, now_ms: int) -> None:
        """TooManyWaiting when the holder already has `most_open` games with a seat nobody took (issue 36:
        one client made 3,000 open games in 16 s, and a real one fell to page 61 of the lobby).

        Counted then and there, not in one atomic step (the games live in slots of their own): requests
        of one holder racing each other may each pass it, so a holder may end a few over, one per request
        in flight. A cap on abuse, not an exact count; RATE_LIMIT_GAMES bounds the rest.
        """
        held = self.index.held(holder, now_ms)
        closed = [game_id for game_id in held if not self._still_open(game_id)]
        self.index.release(holder, *closed)
        if len(held) - len(closed) >= self.most_open:
            raise TooManyWaiting(
                Plural(
                    "You already have {count} open game that nobody has joined, as many as you may: "
                    "wait until it is joined or its time in the lobby is up.",
                    "You already have {count} open games that nobody has joined, as many as you may: "
                    "wait until one is joined or its time in the lobby is up.",
                    "count",
                    {"count": len(held) - len(closed)},
                )
            )

    def _still_open(self, game_id: str) -> bool:
        try:
            view = parse(self.play.view(game_id).view)
        except GameNotFound:
            return False
        return view["status"] == "active" and any(p.get("open") for p in view["players"])

    def join_keyed(
        self,
        game_id: str,
        token: str | None,
        name: str | None,
        key: IdempotencyKey,
        secret: str,
        *,
        client: str = "",
    ) -> Joined:
        """`join` under an Idempotency-Key: the seat taken is recorded with the take; a retry gets it back, token included.

        `secret`: what seals the seat token in the record (answers.py): the
        request's own secrets, which the store never sees. The player's
        token is checked first (a 401 claims nothing). A key already
        claimed answers its join again, or IdempotencyKeyReused (another
        body) or IdempotencyKeyInUse (the first request still runs). Only a
        seat taken is recorded: a refusal frees the key, and a retry is
        judged afresh (the seat is taken by then, or the game gone).
        """
        player = self._joiner(token)
        game, existing = self.play.claim_key(game_id, key)
        if existing is not None:
            answer = decode_joined(recorded_answer(existing, key))
            return Joined(answer.view, answer.seat, answer.token(secret))
        try:
            return self._join(game_id, player, name, client, game, (key, secret))
        except StorageError:
            raise  # the store just failed: the in-progress marker expires on its own
        except BaseException:
            self.play.release_key(game_id, key)
            raise

    def join(self, game_id: str, token: str | None, name: str | None, *, client: str = "") -> Joined:
        """Take the game's first open seat, as the player of `token` (if any) or under `name`.

        SeatTaken when none is open (another joiner won it, the lobby's time
        is up) or the player already holds a seat of it. A join that fills
        the game with a bot in turn queues that bot's job before the take,
        as a move does (GamePlay.hand_turn), in `client`'s share: a worker
        that finds the seat still open when its wait is up fences the take
        (botworker/worker.py), which is then judged again here and queues
        a job of its own.
        """
        return self._join(game_id, self._joiner(token), name, client, self.play.load(game_id))

    def _joiner(self, token: str | None) -> PlayerRecord | None:
        """The player joining with `token` (None: a guest under a name); a bot account is refused."""
        player = self.players.authenticate(token) if token is not None else None
        only_challenges(player, JOIN)
        return player

    def _join(
        self,
        game_id: str,
        player: PlayerRecord | None,
        name: str | None,
        client: str,
        game: GameCopy,
        keyed: tuple[IdempotencyKey, str] | None = None,
    ) -> Joined:
        """Take the first open seat of `game` (as just read) for `player` or `name`; `keyed`: the key and its secret."""

        def take(game: GameCopy) -> Write[Joined]:
            record = game.record
            seat = self._open_seat(record, player)
            if record.rated and player is None:
                raise PlayerRequired()
            joined_name = player.name if player is not None else (name or f"Player {seat + 1}")
            after, seat_token = seated(
                record,
                seat,
                joined_name,
                None if player is None else player.id,
                None if player is None else player.token_hash,
            )
            # The clock starts when the last seat is taken, at the store's time of the take.
            settings = after.clock if after.open_seat is None else None
            starting = settings is not None
            if settings is not None:
                after = replace(after, clock_now=start(settings, self.play.now_ms()))
            view = compact(game_view(after, game.version))
            text = after.encode()
            answer = None
            if keyed is not None:
                key, secret = keyed
                answer = IdempotencyAnswer(
                    key.key, key.fingerprint, encode_joined(seat, view, seat_token, secret)
                )
            self.play.hand_turn(after, game.version, client)
            change = SeatChange(
                game_id=game_id,
                version=game.version,
                revision=game.revision,
                state=text,
                view=view,
                open_until_ms=record.open_until_ms,
                clock=clock_check(after.clock_now) if starting else None,
                clock_log=clock_log(after.clock_now) if starting else None,
                answer=answer,
            )

            def taken(_stored: Stored) -> Joined:
                if after.open_seat is None:
                    self.index.remove(game_id)
                return Joined(view, seat, seat_token)

            clock_now = after.clock_now
            return Write(
                after,
                game.version,
                text,
                lambda store: store.take_seat(change),
                taken,
                heard=lambda listener: listener.seat_taken(after, seat),
                refused=partial(self._lobby_time_up, game_id),
                deadline_ms=clock_now.deadline_ms if starting and clock_now is not None else None,
            )

        return self.play.amend(game_id, take, start=game)

    def _lobby_time_up(self, game_id: str, _refused: ClockRefused | SeatExpired) -> NoReturn:
        """The take came when the open seat's time in the lobby was up: the game is aborted (if no timekeeper did)."""
        self.play.abort_unjoined(game_id)
        self.index.remove(game_id)
        raise SeatTaken(Text("The open seat's time in the lobby is up: nobody can join this game now."))

    @staticmethod
    def _open_seat(record: GameRecord, player: PlayerRecord | None) -> int:
        seat = record.open_seat
        if seat is None or record.state.finished:
            raise SeatTaken(
                Text(
                    "This game has no open seat: another joiner took it, it never had one, or it was aborted."
                )
            )
        if player is not None and any(seat.player_id == player.id for seat in record.seats):
            raise SeatTaken(Text("You already hold a seat of this game: the other is for an opponent."))
        return seat

    def open_games(
        self,
        cursor: str | None,
        host_id: str | None = None,
        rated: bool = False,
        hidden: frozenset[str] = frozenset(),
    ) -> Page:
        """Listed games with an open seat, newest first, PAGE_SIZE a page after `cursor` (opaque; None: the first);
        only those the player `host_id` waits in (PlayerNotFound for no such player), only rated ones, when asked;
        none whose waiting player is in `hidden` (the ones the caller blocks)."""
        self._expire()
        stale: list[str] = []

        def entry_of(game_id: str) -> dict[str, Any] | None:
            entry = self._entry(game_id)
            if entry is None:
                stale.append(game_id)
            elif (rated and not entry["rated"]) or entry["host"]["player_id"] in hidden:
                return None
            return entry

        read = self.index.newest if host_id is None else self._hosted_by(host_id)
        page = newest_page(read, entry_of, cursor, PAGE_SIZE)
        self.index.remove(*stale)
        return page

    def _hosted_by(self, player_id: str) -> NewestRead:
        """The lobby's entries of one player's open games, read from the games it holds open
        (OPEN_GAMES_PER_PLAYER at most), not by going through the whole lobby."""
        self.players.get(player_id)
        held = self.index.held(f"player:{player_id}", self.play.now_ms())
        listed = sorted(self.index.opened(held), key=lambda entry: (entry[1], entry[0]), reverse=True)

        def read(before_ms: int | None, count: int) -> list[tuple[str, int]]:
            return [(gid, ms) for gid, ms in listed if before_ms is None or ms <= before_ms][:count]

        return read

    def _expire(self) -> None:
        """Drop the entries whose seat's time is up, aborting their games (a clocked one's timekeeper does)."""
        expired = self.index.older_than(self.play.now_ms() - self.ttl_ms, EXPIRE_BATCH)
        for game_id in expired:
            self.play.abort_unjoined(game_id)
        self.index.remove(*expired)

    def _entry(self, game_id: str) -> dict[str, Any] | None:
        """The lobby's entry for a game, checked against the game itself; None when it is no longer open."""
        try:
            found = self.play.view(game_id)
        except GameNotFound:
            return None
        view = parse(found.view)
        players = view["players"]
        seat = next((s for s in (0, 1) if players[s].get("open")), None)
        if seat is None or view["status"] != "active":
            return None
        host = players[1 - seat]
        rating = self.players.shown_rating(host.get("player_id"))
        return {
            "id": game_id,
            "seat": seat,
            "created_at": view["created_at"],
            "clock": view.get("clock"),
            "rated": bool(view.get("rated", False)),
            "host": {"name": host["name"], "player_id": host.get("player_id"), "rating": rating},
        }


def _owned(
    owner: PlayerRecord | None, bots: tuple[str | None, str | None], open_seats: tuple[bool, bool]
) -> tuple[Holder | None, Holder | None]:
    """The holder of each seat of a new game: the creator's player holds the first seat that is a person's and not open."""
    if owner is not None:
        for seat in (0, 1):
            if bots[seat] is None and not open_seats[seat]:
                return (owner.holder(), None) if seat == 0 else (None, owner.holder())
    return (None, None)


def _check_rated(
    owner: PlayerRecord | None,
    bots: tuple[str | None, str | None],
    open_seats: tuple[bool, bool],
    clock: object,
) -> None:
    """RatedNotPossible unless a rated lobby game can be: a clock, the creator a player, one seat open, no bot."""
    if clock is None:
        raise RatedNotPossible(Text('A rated game needs a clock: give one, or leave out "rated".'))
    if owner is None:
        raise RatedNotPossible(
            Text("A rated game is made with a player token: send yours (POST /players makes one).")
        )
    if open_seats.count(True) != 1 or bots != NO_BOTS:
        raise RatedNotPossible(
            Text("A rated lobby game has your seat and one open seat for another player, and no bot.")
        )
