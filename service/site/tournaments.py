"""Tournaments: organised, joined, started, paired round by round and finished, exactly once on any instances.

The state machine is pure (tournament_records.py). `Tournaments` applies it
to the stored tournament with one compare-and-set on its key (and its events
in the same step, storage/tournaments.py): the version judged on must still
be the stored one, so of racing changes on any instances, on a Redis
Cluster too, one wins and the others are judged again on what won. A round
is paired by the change that moves `round` on, so it is paired once however
many timekeepers (or an organiser's early start) race to do it.

Games. A round's game ids are chosen when it is paired and stored with it;
its games are created right after (GamePlay.create under those ids: a game
created twice is GameExists, done), by whoever paired it. Should that
process die first, the timekeepers' next look at the tournament (the due
index: tournament_runner.py) creates the missing ones; that look also
records the result of any game that ended without its result reaching the
tournament (the process that ended it died before this module's listener
ran). So every game of a paired round exists, and every result is recorded
once, whichever process dies where.

The listener (`committed`) hears every game's commits but reads nothing of
a game that goes on, nor of one without the `tournament` tag: it costs a
move nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.games.clock import ClockSettings
from service.games.jsontext import compact
from service.games.listeners import GameListener
from service.games.play import GamePlay
from service.games.records import GameRecord, TournamentTag, could_be_game_id, new_game_id
from service.games.refusals import GameNotFound, Refusal
from service.languages import Text
from service.storage import StorageError
from service.storage.tournaments import StoredTournament, TournamentBook

from .bot_accounts import TOURNAMENT, only_challenges
from .listing import Page, newest_page
from .lobby import Players
from .players import PlayerRecord
from .tournament_games import start_game
from .tournament_records import (
    CANCELLED,
    FINISHED,
    ROUND_ROBIN,
    RUNNING,
    SWISS,
    UPCOMING,
    Board,
    Change,
    Entrant,
    PlayerRef,
    StartsAtOutOfRange,
    Tournament,
    TournamentInvalid,
    TournamentNotFound,
    begun,
    cancelled,
    joined,
    next_paired,
    result_recorded,
    withdrawn,
)

log = logging.getLogger(__name__)

# Compare-and-set rounds before giving up. Each lost round is another change that won: with a
# round's games ending together (a 512-player swiss: 256 of them), results queue up on one key.
MOST_ROUNDS = 200
# The contract's bounds on starts_at, from the store's time now.
EARLIEST_START_MS = 60 * 1000
LATEST_START_MS = 30 * 24 * 3600 * 1000
MAX_ROUND_ROBIN_PLAYERS = 20
# Seconds between a round's end and the next one's pairing, unless asked otherwise.
DEFAULT_PAUSE_S = 30
# How often a round being played is looked at for games missing or ended unheard (a repair,
# rarely needed: tournament_runner.py).
REPAIR_MS = 5_000
# How long an ended tournament stays readable, as long as a game is kept by default.
KEEP_MS = 30 * 24 * 3600 * 1000
# An upcoming list's score: soonest first, read highest first as the lists are (listing.py).
UPCOMING_BASE_MS = 10**13


@dataclass(frozen=True, slots=True)
class TournamentRequest:
    """What POST /tournaments asks for, as the body gave it (checked against each other by `create`)."""

    name: str
    system: str
    rounds: int | None
    double: bool
    clock: ClockSettings
    rated: bool
    starts_ms: int
    max_players: int
    min_rating: int | None
    max_rating: int | None
    pause_s: int
    listed: bool


def check_request(wanted: TournamentRequest, now_ms: int) -> None:
    """Refuse what the spec's schema lets through but the contract does not: a start too soon or too
    late, and fields that do not fit together."""
    if not now_ms + EARLIEST_START_MS <= wanted.starts_ms <= now_ms + LATEST_START_MS:
        raise StartsAtOutOfRange(
            Text("starts_at must be between 60 seconds and 30 days from now (the service's clock).")
        )
    if wanted.system == SWISS and wanted.rounds is None:
        raise TournamentInvalid(Text("A swiss tournament needs its number of rounds (1 to 15)."))
    if wanted.system == ROUND_ROBIN and wanted.rounds is not None:
        raise TournamentInvalid(
            Text("A round robin has no rounds to give: every pair plays once (twice with double).")
        )
    if wanted.system == ROUND_ROBIN and wanted.max_players > MAX_ROUND_ROBIN_PLAYERS:
        raise TournamentInvalid(
            Text("A round robin takes at most {count} players.", {"count": MAX_ROUND_ROBIN_PLAYERS})
        )
    if wanted.double and wanted.system != ROUND_ROBIN:
        raise TournamentInvalid(Text("Only a round robin can be double."))
    low, high = wanted.min_rating, wanted.max_rating
    if low is not None and high is not None and low > high:
        raise TournamentInvalid(Text("min_rating is above max_rating: nobody could join."))


def list_score(tournament: Tournament) -> int:
    """Where a tournament sits in its status's list, read highest first: upcoming by the start, soonest
    first; running by when it began; finished or cancelled by when it ended."""
    if tournament.status == UPCOMING:
        return UPCOMING_BASE_MS - tournament.starts_ms
    if tournament.status == RUNNING:
        return tournament.started_ms or tournament.starts_ms
    return tournament.ended_ms or tournament.starts_ms


def list_of(status: str) -> str:
    """The list a status is shown in: a cancelled tournament among the finished."""
    return FINISHED if status == CANCELLED else status


class Tournaments(GameListener):
    """Organising, joining, starting, pairing and following tournaments; the listener of their games."""

    def __init__(self, book: TournamentBook, players: Players, play: GamePlay, *, keep_ms: int = KEEP_MS):
        self.book = book
        self.players = players
        self.play = play
        # How long an ended tournament stays readable.
        self.keep_ms = keep_ms

    # --- the API's operations ----------------------------------------------

    def create(self, organiser: PlayerRecord, wanted: TournamentRequest) -> dict[str, Any]:
        """A new upcoming tournament organised by `organiser`; its Tournament body. The request is judged
        by check_request (the API's, before this is called)."""
        only_challenges(organiser, TOURNAMENT)
        tournament = Tournament(
            id=new_game_id(),
            name=wanted.name,
            system=wanted.system,
            double=wanted.double,
            rounds=wanted.rounds,
            clock=wanted.clock.to_json(),
            rated=wanted.rated,
            starts_ms=wanted.starts_ms,
            max_players=wanted.max_players,
            min_rating=wanted.min_rating,
            max_rating=wanted.max_rating,
            pause_s=wanted.pause_s,
            listed=wanted.listed,
            organiser=PlayerRef(organiser.id, organiser.name),
            created_ms=self.play.now_ms(),
        )
        # The hints first (the module docstring of storage/tournaments.py): a crash after them
        # leaves entries that name no tournament, which are dropped when read.
        self.book.due.schedule(tournament.id, tournament.starts_ms)
        self.index(tournament)
        made = self.book.swap(tournament.id, 0, tournament.encode(), tournament.status, [])
        if not made.done:
            raise RuntimeError("a tournament with a fresh random id already exists")
        return tournament.view()

    def get(self, tournament_id: str) -> dict[str, Any]:
        return self.load(tournament_id).view()

    def load(self, tournament_id: str) -> Tournament:
        return Tournament.decode(self._load(tournament_id).text)

    def page(self, status: str, cursor: str | None) -> Page:
        """A page of the listed tournaments of `status` (upcoming, running, finished: with the cancelled)."""

        def read(before_ms: int | None, count: int) -> list[tuple[str, int]]:
            return self.book.newest(status, before_ms, count)

        def entry_of(tournament_id: str) -> dict[str, Any] | None:
            stored = self.book.load(tournament_id)
            tournament = None if stored is None else Tournament.decode(stored.text)
            if tournament is None or list_of(tournament.status) != status:
                # A hint its tournament has left (or never made): the tournament's own list has it.
                self.book.unindex(tournament_id, status)
                return None
            return tournament.summary()

        found = newest_page(read, entry_of, cursor)
        return Page(found.games, found.next)

    def join(self, tournament_id: str, player: PlayerRecord) -> dict[str, Any]:
        only_challenges(player, TOURNAMENT)
        entrant = Entrant(player.id, player.name, round(player.rating.rating))
        return self._change(tournament_id, lambda t, _now: joined(t, entrant)).view()

    def withdraw(self, tournament_id: str, player: PlayerRecord) -> dict[str, Any]:
        return self._change(tournament_id, lambda t, _now: withdrawn(t, player.id)).view()

    def cancel(self, tournament_id: str, player: PlayerRecord) -> dict[str, Any]:
        return self._change(tournament_id, lambda t, now: cancelled(t, player.id, now)).view()

    def start(self, tournament_id: str, player: PlayerRecord) -> dict[str, Any]:
        """The organiser starts it now: the first round paired and its games created."""
        after = self._change(tournament_id, lambda t, now: begun(t, player.id, now))
        self.create_games(after)
        return after.view()

    # --- rounds and results ------------------------------------------------

    def record_result(self, tournament_id: str, round_number: int, record: GameRecord) -> Tournament:
        """Record the result of a finished game of the tournament's round (once: recorded again, nothing)."""
        winner, margin = result_of(record)
        return self._change(
            tournament_id,
            lambda t, now: result_recorded(t, round_number, record.id, winner, margin, now),
        )

    def create_games(self, tournament: Tournament) -> None:
        """Create the current round's games (each under its chosen id; one that exists is left as it is)."""
        if tournament.status != RUNNING or not tournament.played:
            return
        played = tournament.played[-1]
        for board in played.boards:
            if board.game is not None and board.winner is None:
                self._create_game(tournament, played.number, board)

    def _create_game(self, tournament: Tournament, round_number: int, board: Board) -> None:
        assert board.game is not None and board.second is not None
        first, second = self.players.find(board.first), self.players.find(board.second)
        if first is None or second is None:  # players are kept for good: never, short of a lost store
            log.error("a player of game %s of tournament %s is gone", board.game, tournament.id)
            return
        start_game(
            self.play,
            board.game,
            (first, second),
            ClockSettings.from_json(tournament.clock),
            rated=tournament.rated,
            tournament=TournamentTag(tournament.id, round_number),
        )

    def repair(self, tournament: Tournament) -> Tournament:
        """Make the current round whole: every game created, every ended game's result recorded."""
        if tournament.status != RUNNING or not tournament.played:
            return tournament
        played = tournament.played[-1]
        for board in played.boards:
            if board.game is None or board.winner is not None:
                continue
            try:
                game = self.play.load(board.game)
            except GameNotFound:
                self._create_game(tournament, played.number, board)
                continue
            if game.record.state.result is not None:
                tournament = self.record_result(tournament.id, played.number, game.record)
        return tournament

    def pair_next(self, tournament_id: str) -> Tournament:
        """The next round paired if it is due (once: the round number is the fence), its games created."""
        after = self._change(tournament_id, lambda t, now: next_paired(t, now))
        self.create_games(after)
        return after

    def begin(self, tournament_id: str) -> Tournament:
        """Started by the service at `starts_at` (cancelled with fewer than 2 players), its games created."""
        after = self._change(tournament_id, lambda t, now: begun(t, None, now))
        self.create_games(after)
        return after

    # --- the listener --------------------------------------------------------

    def committed(self, before: GameRecord, after: GameRecord, version: int, result: Any) -> None:
        """A game ended: when it is a tournament's, its result goes to the tournament (a failure is left to
        the timekeepers' repair, tournament_runner.py)."""
        if result is None:
            return
        tag = after.tournament
        if tag is None:
            return
        try:
            self.record_result(tag.id, tag.round, after)
        except (StorageError, Refusal) as error:
            log.warning("the result of game %s waits for the repair: %s", after.id, error)
        except Exception:  # the game's end is stored and answered whatever befalls its tournament
            log.exception("the result of game %s waits for the repair", after.id)

    # --- the compare-and-set ----------------------------------------------

    def _load(self, tournament_id: str) -> StoredTournament:
        stored = self.book.load(tournament_id) if could_be_game_id(tournament_id) else None
        if stored is None:
            raise TournamentNotFound()
        return stored

    def _change(self, tournament_id: str, judge: Callable[[Tournament, int], Change | None]) -> Tournament:
        """Judge the change on the tournament as stored and write it with its events in one compare-and-set,
        judging again on what won when another change came first; the tournament after it."""
        stored = self._load(tournament_id)
        for _round in range(MOST_ROUNDS):
            before = Tournament.decode(stored.text)
            now_ms = self.play.now_ms()
            change = judge(before, now_ms)
            if change is None:
                return before
            after = change.after
            ended = after.status in (FINISHED, CANCELLED)
            # The hints before the write: the timekeepers pair the next round when it is due, and
            # look at an ended tournament at once (to list it where it now belongs, and forget it).
            if after.next_round_ms is not None:
                self.book.due.schedule(after.id, after.next_round_ms)
            elif ended and after.ended_ms is not None:
                self.book.due.schedule(after.id, after.ended_ms)
            elif after.round > before.round:
                # A round paired (an organiser's early start among them): its first repair look,
                # should the process die before it has made the round's games.
                self.book.due.schedule(after.id, now_ms + REPAIR_MS)
            swapped = self.book.swap(
                after.id,
                stored.version,
                after.encode(),
                after.status,
                [(kind, compact(data)) for kind, data in change.events],
                keep_until_ms=(after.ended_ms or 0) + self.keep_ms if ended else 0,
            )
            if swapped.done:
                if after.status != before.status:
                    self.index(after)
                    if after.listed and list_of(before.status) != list_of(after.status):
                        self.book.unindex(after.id, list_of(before.status))
                return after
            if swapped.stored is None:
                raise TournamentNotFound()
            stored = swapped.stored
        raise RuntimeError("a tournament changed under every compare-and-set")

    def index(self, tournament: Tournament) -> None:
        """Put a listed tournament on its status's list (again: it is a set)."""
        if tournament.listed:
            self.book.index(tournament.id, list_of(tournament.status), list_score(tournament))


def result_of(record: GameRecord) -> tuple[str, int]:
    """A finished tournament game's winner ("first" is seat 0) and margin (seat 0's score minus seat 1's).

    A tournament's game never ends without a winner (a first move not made in
    time loses it); were one to, the seat whose move it was loses.
    """
    outcome = record.state.result
    assert outcome is not None
    winner = outcome.winner
    if winner is None:
        winner = 1 - (record.state.turn or 0)
    return ("first" if winner == 0 else "second"), outcome.scores[0] - outcome.scores[1]
