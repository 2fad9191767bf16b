"""Offers between the two seats of a game: a rematch or a takeback is asked for by one and given by the other.

A game holds at most one pending offer, on its record (GameRecord.offer):
its kind, the seat that made it, the version it was made at and when it
lapses (the store's time, OFFER_TTL_SECONDS on). Every step is one
compare-and-set on the game (GamePlay.amend), so whatever races (both seats
asking at once, an acceptance and a withdrawal, a takeback and the next
move), on any instances, one outcome is stored and the others are judged
again on it. An offer stands only at the version it was made at: any move
voids it (GameRecord.advanced leaves it out), which is how a takeback
racing the next move ends with exactly one of them.

Asking (`ask`, the state machine `judge`): with no offer standing, the
asker's is written (`202`), unless the other seat is a bot level's, which
accepts at once (a bot account's seat is a player's: it answers through the
API); the asker's own offer standing, the same is answered again; the
other seat's standing, asking accepts it. Answering `DELETE` (`dismiss`):
the offerer withdraws, the other declines. Each change is told on the
game's stream as `event: offer` (a takeback given is an `event: move`), and
a rematch offer on the other seat's player stream (`rematch_offer`).

A rematch accepted between two bot accounts first takes a place in each
one's day (bot_accounts.py, BOT_GAMES_PER_DAY); refused there, the offer
stands and no game is made.

Takebacks are for casual play: refused in rated games and in tournament
games, in finished games, before any move, and to a seat that did not act
last (what a takeback undoes: takebacks.py in the core). A tournament's game
has no rematch either: the tournament pairs its players.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any

from service.games.jsontext import compact
from service.games.kept import GameCopy
from service.games.play import GamePlay, seat_of_token
from service.games.records import GameRecord, Offer
from service.games.refusals import (
    GameNotFinished,
    GameNotStarted,
    OfferNotFound,
    SeatNeverTaken,
    TakebackNotAllowed,
    TournamentGame,
)
from service.games.values import Committed
from service.games.views import game_view, offer_view
from service.games.writes import Unchanged, Write

from .bot_accounts import BotGameCap, BotGamePlaces, bot_ids
from .notices import PlayerNotices
from .rematch import Rematched, Rematches

REMATCH = "rematch"
TAKEBACK = "takeback"


class Step(enum.Enum):
    """What asking does, given the offer that stands."""

    OFFER = "offer"  # none stands: make one
    PENDING = "pending"  # the asker's own stands: the same, answered again
    ACCEPT = "accept"  # the other seat's stands: asking gives what it asks


def standing(offer: Offer | None, kind: str, version: int, now_ms: int) -> Offer | None:
    """`offer` if it is of `kind`, made at `version` and not lapsed by `now_ms` (the store's time); else None."""
    if offer is None or offer.kind != kind or offer.version != version or now_ms >= offer.expires_at_ms:
        return None
    return offer


def judge(offer: Offer | None, kind: str, seat: int, version: int, now_ms: int) -> Step:
    """What `seat` asking for `kind` at `version` at `now_ms` does, given the game's `offer`."""
    found = standing(offer, kind, version, now_ms)
    if found is None:
        return Step.OFFER
    return Step.PENDING if found.seat == seat else Step.ACCEPT


def dismissal(offer: Offer | None, kind: str, seat: int, version: int, now_ms: int) -> str | None:
    """What `seat` saying no to the `kind` offer does: "withdrawn" (its own), "declined" (the other's), None (none stands)."""
    found = standing(offer, kind, version, now_ms)
    if found is None:
        return None
    return "withdrawn" if found.seat == seat else "declined"


@dataclass(frozen=True, slots=True)
class Offered:
    """An offer standing, made by this call or before: what the asker is answered (`202`)."""

    offer: Offer

    def body(self) -> dict[str, Any]:
        return {"offer": offer_view(self.offer)}


def offer_event(offer: Offer, status: str, **more: Any) -> str:
    """The data of the game stream's `event: offer`: the offer and what became of it."""
    return compact({**offer_view(offer), "status": status, **more})


class Offers:
    """Asking for, accepting, declining and withdrawing a game's rematch and takeback offers."""

    def __init__(self, play: GamePlay, notices: PlayerNotices, ttl_seconds: int, bot_games: BotGameCap):
        self.play = play
        self.notices = notices
        self.rematches = Rematches(play)
        self.ttl_ms = ttl_seconds * 1000
        # BOT_GAMES_PER_DAY: a rematch accepted between two bot accounts takes a place first.
        self.bot_games = bot_games

    def _offer(self, game: GameCopy, kind: str, seat: int, now_ms: int) -> Write[Offered]:
        """The write of `seat`'s new `kind` offer on `game`, in place of any lapsed one."""
        offer = Offer(kind, seat, game.version, now_ms + self.ttl_ms)
        offered = replace(game.record, offer=offer)

        def made(_stored: object) -> Offered:
            if kind == REMATCH:
                self.notices.rematch_offer(offered, 1 - seat, offer)
            return Offered(offer)

        view = compact(game_view(offered, game.version))
        return Write.amended(game, offered, view, made, offer_event(offer, "pending"))

    # --- rematch ----------------------------------------------------------------

    def rematch(self, game_id: str, token: str | None) -> Offered | Rematched:
        """`POST /games/{id}/rematch`: an offer, the other's accepted (the next game), or the next game made before."""
        with self.bot_games.attempts() as places:
            made = self._rematch(game_id, token, places)
            # Only the claim that won creates the next game: a lost one's rerun answers the winner's.
            places.made = isinstance(made, Rematched) and made.created
        return made

    def _rematch(self, game_id: str, token: str | None, places: BotGamePlaces) -> Offered | Rematched:
        def ask(game: GameCopy) -> Write[Offered | Rematched] | Unchanged[Offered | Rematched]:
            record = game.record
            seat = seat_of_token(record, token)
            if record.tournament is not None:
                raise TournamentGame()
            if not record.state.finished:
                raise GameNotFinished.for_rematch()
            if record.open_seat is not None:
                # Aborted with its seat still open: the swapped seats would hold nobody.
                raise SeatNeverTaken()
            if record.next_game is not None:
                made: Offered | Rematched = self.rematches.answer(
                    record, record.next_game, seat, created=False
                )
                return Unchanged(made)
            now_ms = self.play.now_ms()
            step = judge(record.offer, REMATCH, seat, game.version, now_ms)
            if step is Step.PENDING:
                assert record.offer is not None
                return Unchanged(Offered(record.offer))
            # A bot account's seat is a player's (its `bot` is None): it answers offers through the API.
            if step is Step.ACCEPT or record.seats[1 - seat].bot is not None:
                by = record.offer if step is Step.ACCEPT else Offer(REMATCH, seat, game.version, now_ms)
                assert by is not None
                places.take(bot_ids(*((held.player_id, held.bot_account) for held in record.seats)))
                return self.rematches.claim(
                    game, seat, lambda next_id: offer_event(by, "accepted", next_game=next_id)
                )
            return self._offer(game, REMATCH, seat, now_ms)

        return self.play.amend(game_id, ask)

    # --- takeback -------------------------------------------------------------

    def takeback(self, game_id: str, token: str | None, client: str = "") -> Offered | Committed:
        """`POST /games/{id}/takeback`: an offer, or the other's accepted (the new version Committed)."""

        def ask(game: GameCopy) -> Write[Offered | Committed] | Unchanged[Offered | Committed]:
            record = game.record
            seat = seat_of_token(record, token)
            _allowed(record)
            now_ms = self.play.now_ms()
            step = judge(record.offer, TAKEBACK, seat, game.version, now_ms)
            if step is Step.PENDING:
                assert record.offer is not None
                return Unchanged(Offered(record.offer))
            turn = self.play.last_turn(game_id, game)
            if turn is None:
                raise TakebackNotAllowed.nothing_played()
            if step is Step.ACCEPT:
                # The offer stands at this version only: its turn is still the last one.
                return self.play.take_back(game_id, game, turn, client, _committed)
            if turn.seat != seat:
                raise TakebackNotAllowed.not_last(turn.seat)
            if record.seats[1 - seat].bot is not None:
                return self.play.take_back(game_id, game, turn, client, _committed)  # a bot accepts at once
            return self._offer(game, TAKEBACK, seat, now_ms)

        return self.play.amend(game_id, ask)

    # --- saying no ----------------------------------------------------------------

    def dismiss(self, game_id: str, token: str | None, kind: str) -> dict[str, Any]:
        """`DELETE /games/{id}/<kind>`: the offer withdrawn by its seat or declined by the other, with what became
        of it (its `status`); OfferNotFound if none stands."""

        def say_no(game: GameCopy) -> Write[dict[str, Any]]:
            record = game.record
            seat = seat_of_token(record, token)
            status = dismissal(record.offer, kind, seat, game.version, self.play.now_ms())
            if status is None or record.offer is None:
                raise OfferNotFound(kind)
            offer = record.offer
            cleared = replace(record, offer=None)
            view = compact(game_view(cleared, game.version))
            answer = {**offer_view(offer), "status": status}
            return Write.amended(game, cleared, view, lambda _stored: answer, compact(answer))

        return self.play.amend(game_id, say_no)


def _allowed(record: GameRecord) -> None:
    """Refuse a takeback in a game that has none: a tournament's, rated, finished, or not started."""
    if record.tournament is not None:
        raise TakebackNotAllowed.tournament()
    if record.rated:
        raise TakebackNotAllowed.rated()
    if record.state.finished:
        raise TakebackNotAllowed.finished()
    if record.open_seat is not None:
        raise GameNotStarted()


def _committed(committed: Committed) -> Committed:
    return committed
