"""Challenges: a player asks a named player (or whoever has the link) for a game; accepted, declined,
withdrawn or expired, exactly once.

The state machine is pure (`accepted`, `declined`, `withdrawn`, `Challenge.status_at`): a pending
challenge ends once, by the first of an accept, a decline, its challenger's withdrawal, or its expiry
(the store's clock reaching `expires_ms`); an ended one never changes again. `Challenges` applies it to
the stored challenge with one compare-and-set on the challenge's key (storage/challenges.py): the
version judged on must still be the stored one and the store's clock still before the expiry, so on
any instances, on a Redis Cluster too, one of the racing requests wins and the others are judged
again on what won (`409 challenge_not_pending`). Expiry writes nothing: a pending challenge past its
time is expired for every reader and refused by every change.

Only an accepted challenge makes a game, and creating it is idempotent, as for seeks and rematches:
its id is chosen when the challenge is made, and everything about it follows from the accepted
challenge (the players, the seats, the clock, `rated`, the hash of the acceptor's seat token, minted
before the accept). The acceptor creates it at once; should it die first, whoever reads the challenge
next (GET /challenges/{id}, the acceptor asking again) finds the game missing and creates it
(GameExists for whoever comes second). Both players hear `game_start` from the game's creation
(notices.py); the challenged player hears `challenge`, the challenger `challenge_declined`.

An accept that would start a game between two bot accounts first takes a place in each one's day
(bot_accounts.py, BOT_GAMES_PER_DAY): refused there, the challenge stays pending and no game is made.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from service.games.clock import ClockSettings, rfc3339_ms
from service.games.jsontext import compact, parse
from service.games.play import GamePlay
from service.games.records import DEFAULT_NAMES, could_be_game_id, new_game_id, new_seat_token, token_hash
from service.games.refusals import GameNotFound, PlayerRequired, RatedNotPossible, Refusal, TooManyWaiting
from service.games.values import Seating
from service.languages import Text
from service.storage import GameExists
from service.storage.challenges import ChallengeBook, StoredChallenge

from .blocks import PlayerBlocks, TargetsSelf
from .bot_accounts import BotGameCap, bot_ids
from .lobby import Players
from .notices import PlayerNotices
from .players import PlayerRecord

CHALLENGE_FORMAT = 1
DECLINE_REASONS = ("generic", "later", "too_fast", "too_slow", "rated", "casual")
# Pending challenges one player has made at once (the contract's number: a cap on abuse, not a setting).
CHALLENGES_PER_PLAYER = 20
# A correspondence challenge waits this long (its moves take days).
CORRESPONDENCE_TTL_MS = 7 * 24 * 3600 * 1000
# How long a challenge stays readable after its expiry (GET /challenges/{id} names its game).
KEEP_MS = 3600 * 1000
# Compare-and-set rounds before giving up: each lost round means another request ended the
# challenge, so the second round is judged on an ended one and refused.
MOST_ROUNDS = 5


class ChallengeNotFound(Refusal):
    code = "challenge_not_found"

    def __init__(self) -> None:
        super().__init__(
            Text("No challenge has this id (challenges are readable an hour after they expire).")
        )


class ChallengeNotPending(Refusal):
    """The challenge has ended: accepted, declined, withdrawn or expired."""

    code = "challenge_not_pending"

    def __init__(self, status: str):
        self.status = status
        super().__init__(_ENDED[status])


_ENDED = {
    "accepted": Text("This challenge has been accepted already: it is over."),
    "declined": Text("This challenge has been declined: it is over."),
    "cancelled": Text("This challenge has been withdrawn by its challenger: it is over."),
    "expired": Text("This challenge has expired: nobody answered it in time."),
}


class NotYourChallenge(Refusal):
    code = "not_your_challenge"


class Blocked(Refusal):
    code = "blocked"

    def __init__(self) -> None:
        super().__init__(Text("This player does not take challenges from you."))


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a challenge: a player (its id and rating when made), or a guest's name (an open challenge's
    acceptor)."""

    player_id: str | None
    name: str
    rating: int | None = None
    bot: bool = False

    @classmethod
    def of(cls, player: PlayerRecord) -> Side:
        return cls(player.id, player.name, round(player.rating.rating), player.bot)

    def to_json(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name, "rating": self.rating, "bot": self.bot}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Side:
        return cls(doc["player_id"], doc["name"], doc["rating"], doc["bot"])


@dataclass(frozen=True, slots=True, kw_only=True)
class Challenge:
    """One challenge as stored: who asked whom, for what, and how it stands."""

    id: str
    challenger: Side
    to: Side | None  # None: open, for whoever has the link
    clock: dict[str, Any] | None  # ClockSettings.to_json(); None: no clock
    rated: bool
    seat: int | None  # the challenger's seat as asked; None: drawn
    challenger_seat: int  # the challenger's seat in the game, drawn when made if not asked
    status: str  # "pending", "accepted", "declined", "cancelled" (withdrawn)
    decline_reason: str | None = None
    game: str  # the game's id, chosen when made; shown once accepted
    created_ms: int
    expires_ms: int
    acceptor: Side | None = None
    acceptor_hash: str | None = None  # the hash of the acceptor's seat token, minted before the accept

    def status_at(self, now_ms: int) -> str:
        """The status at the store's time `now_ms`: a pending challenge past its expiry is expired."""
        if self.status == "pending" and now_ms >= self.expires_ms:
            return "expired"
        return self.status

    def _terms(self) -> dict[str, Any]:
        """What was asked, as both the stored text and the Challenge body give it."""
        return {
            "id": self.id,
            "from": self.challenger.to_json(),
            "to": None if self.to is None else self.to.to_json(),
            "clock": self.clock,
            "rated": self.rated,
            "seat": self.seat,
            "decline_reason": self.decline_reason,
        }

    def view(self, now_ms: int) -> dict[str, Any]:
        """The Challenge body at the store's time `now_ms`."""
        status = self.status_at(now_ms)
        return {
            **self._terms(),
            "status": status,
            "game": self.game if status == "accepted" else None,
            "created_at": rfc3339_ms(self.created_ms),
            "expires_at": rfc3339_ms(self.expires_ms),
        }

    def encode(self) -> str:
        return compact(
            {
                "format": CHALLENGE_FORMAT,
                **self._terms(),
                "challenger_seat": self.challenger_seat,
                "status": self.status,
                "game": self.game,
                "created_ms": self.created_ms,
                "expires_ms": self.expires_ms,
                "acceptor": None if self.acceptor is None else self.acceptor.to_json(),
                "acceptor_hash": self.acceptor_hash,
            }
        )

    @classmethod
    def decode(cls, text: str) -> Challenge:
        doc = parse(text)
        if doc.get("format") != CHALLENGE_FORMAT:
            raise ValueError(f"unknown challenge record format {doc.get('format')!r}")
        return cls(
            id=doc["id"],
            challenger=Side.from_json(doc["from"]),
            to=None if doc["to"] is None else Side.from_json(doc["to"]),
            clock=doc["clock"],
            rated=doc["rated"],
            seat=doc["seat"],
            challenger_seat=doc["challenger_seat"],
            status=doc["status"],
            decline_reason=doc["decline_reason"],
            game=doc["game"],
            created_ms=doc["created_ms"],
            expires_ms=doc["expires_ms"],
            acceptor=None if doc["acceptor"] is None else Side.from_json(doc["acceptor"]),
            acceptor_hash=doc["acceptor_hash"],
        )


def _pending(challenge: Challenge, now_ms: int) -> None:
    status = challenge.status_at(now_ms)
    if status != "pending":
        raise ChallengeNotPending(status)


def accepted(challenge: Challenge, now_ms: int, acceptor: Side, seat_token_hash: str) -> Challenge:
    """The challenge accepted by `acceptor` (a player, or a guest's name for an open unrated one), whose seat
    token has the hash `seat_token_hash`."""
    if challenge.to is not None and acceptor.player_id != challenge.to.player_id:
        raise NotYourChallenge(Text("This challenge is for another player: only they may accept it."))
    if acceptor.player_id is not None and acceptor.player_id == challenge.challenger.player_id:
        raise TargetsSelf(Text("This is your own challenge: someone else has to accept it."))
    _pending(challenge, now_ms)
    if challenge.rated and acceptor.player_id is None:
        raise PlayerRequired()
    return replace(challenge, status="accepted", acceptor=acceptor, acceptor_hash=seat_token_hash)


def declined(challenge: Challenge, now_ms: int, player_id: str, reason: str) -> Challenge:
    """The challenge declined by the player it was made to, for `reason` (one of DECLINE_REASONS)."""
    if challenge.to is None or challenge.to.player_id != player_id:
        raise NotYourChallenge(
            Text("Only the challenged player may decline a challenge (an open one: nobody; let it expire).")
        )
    _pending(challenge, now_ms)
    return replace(challenge, status="declined", decline_reason=reason)


def withdrawn(challenge: Challenge, now_ms: int, player_id: str) -> Challenge:
    """The challenge withdrawn by its challenger."""
    if challenge.challenger.player_id != player_id:
        raise NotYourChallenge(Text("Only the challenger may withdraw a challenge."))
    _pending(challenge, now_ms)
    return replace(challenge, status="cancelled")


@dataclass(frozen=True, slots=True)
class AcceptedGame:
    """An accepted challenge's game (its Game body), the acceptor's seat and the seat token minted for it
    (None: asked again by its player, whose own token acts for the seat)."""

    game_id: str
    view: str
    seat: int
    token: str | None


class Challenges:
    """Making, reading, answering and listing challenges, and starting the games they make."""

    def __init__(
        self,
        book: ChallengeBook,
        blocks: PlayerBlocks,
        players: Players,
        play: GamePlay,
        notices: PlayerNotices,
        bot_games: BotGameCap,
        *,
        ttl_seconds: int,
        most_pending: int,
    ):
        self.book = book
        # BOT_GAMES_PER_DAY: an accept that would start a game between two bot accounts takes a place first.
        self.bot_games = bot_games
        self.blocks = blocks
        self.players = players
        self.play = play
        self.notices = notices
        self.ttl_ms = ttl_seconds * 1000
        # Pending outgoing challenges one player holds at once (CHALLENGES_PER_PLAYER).
        self.most_pending = most_pending

    def create(
        self,
        player: PlayerRecord,
        to_id: str | None,
        clock: ClockSettings | None,
        rated: bool,
        seat: int | None,
    ) -> dict[str, Any]:
        """A new pending challenge from `player` (to the player `to_id`, None: open); its Challenge body."""
        to = None
        if to_id is not None:
            if to_id == player.id:
                raise TargetsSelf(Text("You cannot challenge yourself."))
            to = Side.of(self.players.get(to_id))
            if self.blocks.blocks(to_id, player.id):
                raise Blocked()
        if rated and clock is None:
            raise RatedNotPossible(Text("A rated challenge needs a clock: rated games are played on one."))
        now = self.play.now_ms()
        ttl = self.ttl_ms if clock is None or clock.realtime else CORRESPONDENCE_TTL_MS
        challenge = Challenge(
            id=new_game_id(),
            challenger=Side.of(player),
            to=to,
            clock=None if clock is None else clock.to_json(),
            rated=rated,
            seat=seat,
            challenger_seat=secrets.randbelow(2) if seat is None else seat,
            status="pending",
            game=new_game_id(),
            created_ms=now,
            expires_ms=now + ttl,
        )
        self._prune(player.id, "out", now)
        held = self.book.reserve(player.id, challenge.id, challenge.expires_ms, self.most_pending)
        if held is not None:
            raise TooManyWaiting(
                Text(
                    "You already have {count} challenges waiting for an answer, as many as a player may: "
                    "withdraw one, or wait until one is answered or expires.",
                    {"count": held},
                )
            )
        made = self.book.swap(
            challenge.id,
            0,
            challenge.encode(),
            "pending",
            before_ms=None,
            keep_until_ms=_kept_until(challenge),
        )
        if not made.done:
            raise RuntimeError("a challenge with a fresh random id already exists")
        view = challenge.view(now)
        if to is not None and to.player_id is not None:
            self.book.list_incoming(to.player_id, challenge.id, challenge.expires_ms)
            self.notices.challenged(to.player_id, {"challenge": view})
        return view

    def get(self, challenge_id: str) -> dict[str, Any]:
        """The Challenge body; an accepted challenge's game is created if its acceptor did not live to."""
        challenge = Challenge.decode(self._load(challenge_id).text)
        if challenge.status == "accepted":
            self._start(challenge)
        return challenge.view(self.play.now_ms())

    def accept(self, challenge_id: str, player: PlayerRecord | None, name: str | None) -> AcceptedGame:
        """Accept as `player`, or (no player) as a guest under `name`: the game it makes, the seat and its token."""
        stored = self._load(challenge_id)
        before = Challenge.decode(stored.text)
        if before.status == "accepted" and player is not None and _accepted_by(before, player):
            # Asked again by its acceptor (a lost answer): the same game, the player's token acts for the seat.
            return AcceptedGame(before.game, self._start(before), 1 - before.challenger_seat, None)
        if player is not None and self.blocks.blocks(before.challenger.player_id or "", player.id):
            raise Blocked()
        # A guest with no name is named after its seat, as a joiner of a lobby game is.
        guest_name = name or DEFAULT_NAMES[1 - before.challenger_seat]
        acceptor = Side.of(player) if player is not None else Side(None, guest_name)
        seat_token = new_seat_token()

        def accept(challenge: Challenge, now_ms: int) -> Challenge:
            return accepted(challenge, now_ms, acceptor, token_hash(seat_token))

        # Judged once on the challenge as read, so that a refused accept never costs a bot a place.
        accept(before, self.play.now_ms())
        with self.bot_games.attempts() as places:
            places.take(bot_ids(_account(before.challenger), _account(acceptor)))
            after = self._change(stored, accept)
            places.made = True
        self._unlist(after)
        return AcceptedGame(after.game, self._start(after), 1 - after.challenger_seat, seat_token)

    def decline(self, challenge_id: str, player: PlayerRecord, reason: str) -> dict[str, Any]:
        after = self._change(
            self._load(challenge_id), lambda challenge, now: declined(challenge, now, player.id, reason)
        )
        self._unlist(after)
        view = after.view(self.play.now_ms())
        if after.challenger.player_id is not None:
            self.notices.challenge_declined(after.challenger.player_id, {"challenge": view})
        return view

    def withdraw(self, challenge_id: str, player: PlayerRecord) -> dict[str, Any]:
        after = self._change(
            self._load(challenge_id), lambda challenge, now: withdrawn(challenge, now, player.id)
        )
        self._unlist(after)
        return after.view(self.play.now_ms())

    def pending(self, player: PlayerRecord) -> dict[str, list[dict[str, Any]]]:
        """The player's pending challenges, incoming and outgoing, the soonest to expire first."""
        now = self.play.now_ms()
        return {
            "incoming": [c.view(now) for c in self._prune(player.id, "in", now)],
            "outgoing": [c.view(now) for c in self._prune(player.id, "out", now)],
        }

    def _prune(self, player_id: str, side: str, now_ms: int) -> list[Challenge]:
        """The pending challenges of the player's `side` list; the entries of ended ones leave the list."""
        pending, ended = [], []
        for challenge_id in self.book.listed(player_id, side, now_ms):
            stored = self.book.load(challenge_id)
            challenge = None if stored is None else Challenge.decode(stored.text)
            if challenge is not None and challenge.status_at(now_ms) == "pending":
                pending.append(challenge)
            else:
                ended.append(challenge_id)
        self.book.unlist(player_id, side, *ended)
        return pending

    def _unlist(self, challenge: Challenge) -> None:
        """Take an ended challenge off both players' lists (hints: a lost call is repaired by the next listing)."""
        if challenge.challenger.player_id is not None:
            self.book.unlist(challenge.challenger.player_id, "out", challenge.id)
        if challenge.to is not None and challenge.to.player_id is not None:
            self.book.unlist(challenge.to.player_id, "in", challenge.id)

    def _load(self, challenge_id: str) -> StoredChallenge:
        stored = self.book.load(challenge_id) if could_be_game_id(challenge_id) else None
        if stored is None:
            raise ChallengeNotFound()
        return stored

    def _change(self, stored: StoredChallenge, judge: Callable[[Challenge, int], Challenge]) -> Challenge:
        """Judge the change on the challenge as stored and write it with one compare-and-set, judging again
        on what won when another change came first; the challenge after it."""
        for _round in range(MOST_ROUNDS):
            challenge = Challenge.decode(stored.text)
            after = judge(challenge, self.play.now_ms())
            swapped = self.book.swap(
                challenge.id,
                stored.version,
                after.encode(),
                after.status,
                before_ms=challenge.expires_ms,
                keep_until_ms=_kept_until(after),
            )
            if swapped.done:
                return after
            if swapped.stored is None:
                raise ChallengeNotFound()
            if swapped.late:
                raise ChallengeNotPending("expired")
            stored = swapped.stored
        raise RuntimeError(
            "a challenge changed under every compare-and-set: no change ends a challenge twice"
        )

    def _start(self, challenge: Challenge) -> str:
        """Create the accepted challenge's game under its chosen id, once; its Game body."""
        try:
            return self.play.view(challenge.game).view
        except GameNotFound:
            pass
        acceptor = challenge.acceptor
        assert acceptor is not None  # only an accepted challenge makes a game
        challenger = self.players.find(challenge.challenger.player_id or "")
        joined = None if acceptor.player_id is None else self.players.find(acceptor.player_id)
        sides = [
            (challenge.challenger.name, None if challenger is None else challenger.holder(), None),
            (acceptor.name, None if joined is None else joined.holder(), challenge.acceptor_hash),
        ]
        if challenge.challenger_seat == 1:
            sides.reverse()
        (name0, holder0, hash0), (name1, holder1, hash1) = sides
        clock = None if challenge.clock is None else ClockSettings.from_json(challenge.clock)
        try:
            created = self.play.create(
                (name0, name1),
                clock=clock,
                seating=Seating(
                    (holder0, holder1),
                    rated=challenge.rated,
                    game_id=challenge.game,
                    token_hashes=(hash0, hash1),
                ),
            )
        except GameExists:
            return self.play.view(challenge.game).view
        return created.view


def _account(side: Side) -> tuple[str | None, bool]:
    """A side as bot_ids takes it: its player's id, and whether that player is a bot account."""
    return side.player_id, side.bot


def _accepted_by(challenge: Challenge, player: PlayerRecord) -> bool:
    return challenge.acceptor is not None and challenge.acceptor.player_id == player.id


def _kept_until(challenge: Challenge) -> int:
    return challenge.expires_ms + KEEP_MS
