"""A tournament as stored, and the pure state machine every change to it goes through.

A tournament is `upcoming` (players join and withdraw), then `running`
(rounds are paired and played), then `finished`; or `cancelled` before it
starts (by its organiser, or by the service at `starts_at` with fewer than 2
players). Each function here takes the tournament as stored and the store's
time and returns a `Change`: the tournament after it and the events its
stream gets (tournaments.py writes both with one compare-and-set), or
None when there is nothing to change (joining twice, a result recorded
already: the caller writes nothing). A refusal is raised as a `Refusal`.

Rounds. A round's boards are chosen when it is paired, each with the id of
the game to be played (`new_game_id`), so its games can be created by
whoever comes first after the pairing is stored (GameExists: done). A bye
(`second` None) is a win for `first` at once; in a round robin a board with
a withdrawn player is decided without a game (the other wins; both
withdrawn: nobody scores). A round is over when every game of it has a
winner; the next is paired `pause_s` later (`next_round_ms`), and the round
number in the record is the fence that pairs each round once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from service.games.clock import rfc3339_ms
from service.games.jsontext import compact, parse
from service.games.records import new_game_id
from service.games.refusals import Refusal
from service.languages import Text
from service.pairing import Outcome, Pairing, round_robin, standings, swiss_round, within_the_rules

TOURNAMENT_FORMAT = 1
SWISS, ROUND_ROBIN = "swiss", "round_robin"
UPCOMING, RUNNING, FINISHED, CANCELLED = "upcoming", "running", "finished", "cancelled"


class TournamentNotFound(Refusal):
    code = "tournament_not_found"

    def __init__(self) -> None:
        super().__init__(Text("No tournament has this id."))


class NotOrganiser(Refusal):
    code = "not_organiser"


class RatingOutOfRange(Refusal):
    code = "rating_out_of_range"


class TournamentFull(Refusal):
    code = "tournament_full"


class TournamentStarted(Refusal):
    code = "tournament_started"


class TournamentOver(Refusal):
    code = "tournament_over"

    def __init__(self) -> None:
        super().__init__(Text("This tournament is over: it finished or was cancelled."))


class NotInTournament(Refusal):
    code = "not_in_tournament"

    def __init__(self) -> None:
        super().__init__(Text("You are not a player of this tournament."))


class StartsAtOutOfRange(Refusal):
    code = "starts_at_out_of_range"


class TournamentInvalid(Refusal):
    code = "tournament_invalid"


class TooFewPlayers(Refusal):
    code = "too_few_players"

    def __init__(self) -> None:
        super().__init__(Text("A tournament needs at least 2 players to start."))


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of the tournament: its id, name and rating when it joined; withdrawn after the start."""

    id: str
    name: str
    rating: int
    withdrawn: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "rating": self.rating, "withdrawn": self.withdrawn}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Entrant:
        return cls(doc["id"], doc["name"], doc["rating"], doc["withdrawn"])


@dataclass(frozen=True, slots=True)
class Board:
    """One pairing of a round: `first` moves first (seat 0); `second` None is a bye.

    `game`: the id of the game it is played in, None when it is not played
    (a bye, a withdrawn player's). `winner`: "first" or "second", None
    while it is played (or when neither scores: both withdrawn).
    """

    first: str
    second: str | None
    game: str | None
    winner: str | None = None
    margin: int | None = None

    @property
    def decided(self) -> bool:
        """Whether it needs nothing more: a result, or no game to wait for."""
        return self.winner is not None or self.game is None

    def to_json(self) -> list[Any]:
        return [self.first, self.second, self.game, self.winner, self.margin]

    @classmethod
    def from_json(cls, doc: list[Any]) -> Board:
        return cls(*doc)


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    started_ms: int
    boards: tuple[Board, ...]

    @property
    def finished(self) -> bool:
        return all(board.decided for board in self.boards)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "started_ms": self.started_ms,
            "boards": [board.to_json() for board in self.boards],
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Round:
        return cls(doc["number"], doc["started_ms"], tuple(Board.from_json(b) for b in doc["boards"]))


@dataclass(frozen=True, slots=True)
class PlayerRef:
    id: str
    name: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name}


@dataclass(frozen=True, slots=True, kw_only=True)
class Tournament:
    """One tournament as stored."""

    id: str
    name: str
    system: str  # SWISS or ROUND_ROBIN
    double: bool
    rounds: int | None  # swiss: as asked; round robin: None until its schedule is made at the start
    clock: dict[str, Any]  # ClockSettings.to_json()
    rated: bool
    starts_ms: int
    max_players: int
    min_rating: int | None
    max_rating: int | None
    pause_s: int
    listed: bool
    organiser: PlayerRef
    created_ms: int
    status: str = UPCOMING
    players: tuple[Entrant, ...] = ()
    played: tuple[Round, ...] = ()
    # When the next round is to be paired (the round before is over); None: none is waiting.
    next_round_ms: int | None = None
    # A round robin's every round, paired at the start: (first, second or None) per board.
    schedule: tuple[tuple[tuple[str, str | None], ...], ...] | None = None
    started_ms: int | None = None
    ended_ms: int | None = None

    # --- what it is -----------------------------------------------------

    @property
    def round(self) -> int:
        """The current round's number; 0 before the first."""
        return len(self.played)

    @property
    def planned_rounds(self) -> int:
        """The rounds it has: a swiss's as asked; a round robin's from its schedule, or (before the start)
        from the players so far."""
        if self.rounds is not None:
            return self.rounds
        if self.schedule is not None:
            return len(self.schedule)
        count = len(self.players)
        once = count - 1 if count % 2 == 0 else count
        return max(1, once * (2 if self.double else 1))

    def entrant(self, player_id: str) -> Entrant | None:
        for entrant in self.players:
            if entrant.id == player_id:
                return entrant
        return None

    def board_of(self, round_number: int, game_id: str) -> Board | None:
        if not 1 <= round_number <= len(self.played):
            return None
        for board in self.played[round_number - 1].boards:
            if board.game == game_id:
                return board
        return None

    def outcomes(self) -> list[list[Outcome]]:
        """Every round's decided boards as the pairing package takes them (a board nobody scores left out)."""
        past = []
        for played in self.played:
            outcomes = []
            for board in played.boards:
                if board.second is None:
                    outcomes.append(Outcome(board.first, None, None, 0))
                elif board.winner is not None:
                    winner = board.first if board.winner == "first" else board.second
                    outcomes.append(Outcome(board.first, board.second, winner, board.margin or 0))
            past.append(outcomes)
        return past

    def standings_view(self) -> list[dict[str, Any]]:
        """The standings, best first (none before the start)."""
        if self.status == UPCOMING or (self.status == CANCELLED and not self.played):
            return []
        names = {entrant.id: entrant.name for entrant in self.players}
        return [
            {
                "rank": standing.rank,
                "player": {"id": standing.player, "name": names.get(standing.player, "")},
                "points": standing.points,
                "buchholz": standing.buchholz,
                "sonneborn_berger": standing.sonneborn_berger,
                "margin": standing.margin,
            }
            for standing in standings([entrant.id for entrant in self.players], self.outcomes())
        ]

    # --- as the API shows it --------------------------------------------

    def _ref(self, player_id: str | None) -> dict[str, str] | None:
        if player_id is None:
            return None
        entrant = self.entrant(player_id)
        return {"id": player_id, "name": "" if entrant is None else entrant.name}

    def board_view(self, board: Board) -> dict[str, Any]:
        return {
            "first": self._ref(board.first),
            "second": self._ref(board.second),
            "game": board.game,
            "winner": board.winner,
            "margin": board.margin,
        }

    def round_view(self, played: Round) -> dict[str, Any]:
        return {
            "number": played.number,
            "status": "finished" if played.finished else "playing",
            "started_at": rfc3339_ms(played.started_ms),
            "pairings": [self.board_view(board) for board in played.boards],
        }

    def _terms(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "system": self.system,
            "double": self.double,
            "rounds": self.planned_rounds,
            "clock": self.clock,
            "rated": self.rated,
            "starts_at": rfc3339_ms(self.starts_ms),
            "max_players": self.max_players,
            "min_rating": self.min_rating,
            "max_rating": self.max_rating,
        }

    def view(self) -> dict[str, Any]:
        """The `Tournament` body."""
        due = self.starts_ms if self.status == UPCOMING else self.next_round_ms
        return {
            **self._terms(),
            "pause_s": self.pause_s,
            "listed": self.listed,
            "organiser": self.organiser.to_json(),
            "status": self.status,
            "players": [entrant.to_json() for entrant in self.players],
            "round": self.round,
            "next_round_at": None if due is None else rfc3339_ms(due),
            "standings": self.standings_view(),
            "round_pairings": [self.round_view(played) for played in self.played],
        }

    def summary(self) -> dict[str, Any]:
        """The `TournamentSummary` of the lists."""
        return {
            **self._terms(),
            "organiser": self.organiser.to_json(),
            "status": self.status,
            "player_count": len(self.players),
            "round": self.round,
        }

    # --- as stored ------------------------------------------------------

    def encode(self) -> str:
        return compact(
            {
                "format": TOURNAMENT_FORMAT,
                "id": self.id,
                "name": self.name,
                "system": self.system,
                "double": self.double,
                "rounds": self.rounds,
                "clock": self.clock,
                "rated": self.rated,
                "starts_ms": self.starts_ms,
                "max_players": self.max_players,
                "min_rating": self.min_rating,
                "max_rating": self.max_rating,
                "pause_s": self.pause_s,
                "listed": self.listed,
                "organiser": self.organiser.to_json(),
                "created_ms": self.created_ms,
                "status": self.status,
                "players": [entrant.to_json() for entrant in self.players],
                "played": [played.to_json() for played in self.played],
                "next_round_ms": self.next_round_ms,
                "schedule": None
                if self.schedule is None
                else [[list(pair) for pair in boards] for boards in self.schedule],
                "started_ms": self.started_ms,
                "ended_ms": self.ended_ms,
            }
        )

    @classmethod
    def decode(cls, text: str) -> Tournament:
        doc = parse(text)
        if doc.get("format") != TOURNAMENT_FORMAT:
            raise ValueError(f"unknown tournament record format {doc.get('format')!r}")
        schedule = doc["schedule"]
        return cls(
            id=doc["id"],
            name=doc["name"],
            system=doc["system"],
            double=doc["double"],
            rounds=doc["rounds"],
            clock=doc["clock"],
            rated=doc["rated"],
            starts_ms=doc["starts_ms"],
            max_players=doc["max_players"],
            min_rating=doc["min_rating"],
            max_rating=doc["max_rating"],
            pause_s=doc["pause_s"],
            listed=doc["listed"],
            organiser=PlayerRef(**doc["organiser"]),
            created_ms=doc["created_ms"],
            status=doc["status"],
            players=tuple(Entrant.from_json(e) for e in doc["players"]),
            played=tuple(Round.from_json(r) for r in doc["played"]),
            next_round_ms=doc["next_round_ms"],
            schedule=None
            if schedule is None
            else tuple(tuple((pair[0], pair[1]) for pair in boards) for boards in schedule),
            started_ms=doc["started_ms"],
            ended_ms=doc["ended_ms"],
        )


@dataclass(frozen=True, slots=True)
class Change:
    """A tournament after a change, and the events (kind, data) its stream gets with it."""

    after: Tournament
    events: tuple[tuple[str, dict[str, Any]], ...] = ()


# --- before the start --------------------------------------------------------


def _not_over(tournament: Tournament) -> None:
    if tournament.status in (FINISHED, CANCELLED):
        raise TournamentOver()


def joined(tournament: Tournament, entrant: Entrant) -> Change | None:
    """`entrant` joins (None: it is in already)."""
    _not_over(tournament)
    if tournament.status != UPCOMING:
        raise TournamentStarted(Text("This tournament has started: it takes no more players."))
    if tournament.entrant(entrant.id) is not None:
        return None
    low, high = tournament.min_rating, tournament.max_rating
    if (low is not None and entrant.rating < low) or (high is not None and entrant.rating > high):
        raise RatingOutOfRange(
            Text(
                "Your rating, {rating}, is outside this tournament's bounds ({low} to {high}).",
                {
                    "rating": entrant.rating,
                    "low": "-" if low is None else low,
                    "high": "-" if high is None else high,
                },
            )
        )
    if len(tournament.players) >= tournament.max_players:
        raise TournamentFull(
            Text("This tournament is full: {count} players.", {"count": tournament.max_players})
        )
    return Change(replace(tournament, players=(*tournament.players, entrant)))


def withdrawn(tournament: Tournament, player_id: str) -> Change | None:
    """The player leaves: before the start off the list, after it marked withdrawn (None: it has already)."""
    _not_over(tournament)
    entrant = tournament.entrant(player_id)
    if entrant is None:
        raise NotInTournament()
    if tournament.status == UPCOMING:
        return Change(replace(tournament, players=tuple(p for p in tournament.players if p.id != player_id)))
    if entrant.withdrawn:
        return None
    players = tuple(replace(p, withdrawn=True) if p.id == player_id else p for p in tournament.players)
    return Change(replace(tournament, players=players))


def _organiser_only(tournament: Tournament, by: str | None, what: Text) -> None:
    if by is not None and by != tournament.organiser.id:
        raise NotOrganiser(what)


def cancelled(tournament: Tournament, by: str | None, now_ms: int) -> Change | None:
    """Cancelled by its organiser `by` (None: by the service, at the start with too few players)."""
    _organiser_only(tournament, by, Text("Only the tournament's organiser may cancel it."))
    if tournament.status == CANCELLED:
        return None
    _not_over(tournament)
    if tournament.status != UPCOMING:
        raise TournamentStarted(Text("This tournament has started: it can no longer be cancelled."))
    return Change(replace(tournament, status=CANCELLED, ended_ms=now_ms), (("cancelled", {}),))


def begun(tournament: Tournament, by: str | None, now_ms: int) -> Change | None:
    """Started by its organiser `by` before `starts_at`, or by the service (None) at it: the first round paired.

    The service cancels it when fewer than 2 players joined; its organiser is
    refused (`too_few_players`). None when the service finds it started.
    """
    _organiser_only(tournament, by, Text("Only the tournament's organiser may start it early."))
    _not_over(tournament)
    if tournament.status != UPCOMING:
        if by is None:
            return None
        raise TournamentStarted(Text("This tournament has started already."))
    if len(tournament.players) < 2:
        if by is not None:
            raise TooFewPlayers()
        return cancelled(tournament, None, now_ms)
    running = replace(tournament, status=RUNNING, started_ms=now_ms)
    if tournament.system == ROUND_ROBIN:
        seeded = sorted(tournament.players, key=lambda p: (-p.rating, p.id))
        every = round_robin([p.id for p in seeded], tournament.double)
        schedule = tuple(tuple((p.first, p.second) for p in boards) for boards in every)
        running = replace(running, schedule=schedule)
    return _paired(running, now_ms, ())


# --- rounds ------------------------------------------------------------------


def next_paired(tournament: Tournament, now_ms: int) -> Change | None:
    """The next round paired, if one is due now (None: none is, or another pairing came first)."""
    if tournament.status != RUNNING or tournament.next_round_ms is None or now_ms < tournament.next_round_ms:
        return None
    return _paired(replace(tournament, next_round_ms=None), now_ms, ())


def _paired(tournament: Tournament, now_ms: int, events: tuple[tuple[str, dict[str, Any]], ...]) -> Change:
    """Round `round + 1` paired and begun; the tournament finished instead when there is none to play."""
    number = tournament.round + 1
    boards = _boards(tournament, number)
    if boards is None:
        return _ended(tournament, now_ms, events)
    played = Round(number, now_ms, tuple(boards))
    after = replace(tournament, played=(*tournament.played, played))
    events = (*events, ("round_start", {"round": number, "pairings": [after.board_view(b) for b in boards]}))
    if played.finished:  # nothing to play: every board a bye or decided by a withdrawal
        return _round_over(after, now_ms, events)
    return Change(after, events)


def _boards(tournament: Tournament, number: int) -> list[Board] | None:
    """The boards of round `number`, None when there is no such round to play."""
    if number > tournament.planned_rounds:
        return None
    if tournament.schedule is not None:
        withdrawn_ids = {p.id for p in tournament.players if p.withdrawn}
        return [_scheduled(first, second, withdrawn_ids) for first, second in tournament.schedule[number - 1]]
    active = [p for p in tournament.players if not p.withdrawn]
    if len(active) < 2:
        return None
    past = tournament.outcomes()
    pairings: Sequence[Pairing] = swiss_round(
        [p.id for p in active], past, {p.id: float(p.rating) for p in active}
    )
    if not within_the_rules(pairings, past):
        # The field is too small for its rounds: every round left would pair two players again or
        # give someone a second bye, which the contract never does, so the tournament ends here.
        return None
    return [
        Board(
            p.first,
            p.second,
            None if p.second is None else new_game_id(),
            "first" if p.second is None else None,
        )
        for p in pairings
    ]


def _scheduled(first: str, second: str | None, withdrawn_ids: set[str]) -> Board:
    """A round robin's board: a bye, a game, or decided by a withdrawal without one."""
    if second is None:
        return Board(first, None, None, "first")
    gone = (first in withdrawn_ids, second in withdrawn_ids)
    if gone == (False, False):
        return Board(first, second, new_game_id())
    if gone == (True, True):
        return Board(first, second, None)
    return Board(first, second, None, "second" if gone[0] else "first")


def result_recorded(
    tournament: Tournament, round_number: int, game_id: str, winner: str, margin: int, now_ms: int
) -> Change | None:
    """A game of the tournament ended: `winner` ("first"/"second"), `margin` first's score minus second's.

    None when it is no game of that round or its result is in already (a
    listener and a timekeeper's repair may both bring it).
    """
    board = tournament.board_of(round_number, game_id)
    if board is None or board.winner is not None or tournament.status != RUNNING:
        return None
    index = round_number - 1
    played = tournament.played[index]
    boards = tuple(
        replace(b, winner=winner, margin=margin) if b.game == game_id else b for b in played.boards
    )
    rounds = list(tournament.played)
    rounds[index] = replace(played, boards=boards)
    after = replace(tournament, played=tuple(rounds))
    events: tuple[tuple[str, dict[str, Any]], ...] = (
        ("game_end", {"round": round_number, "game": game_id, "winner": winner, "margin": margin}),
    )
    if round_number == tournament.round and rounds[index].finished:
        return _round_over(after, now_ms, events)
    return Change(after, events)


def _round_over(
    tournament: Tournament, now_ms: int, events: tuple[tuple[str, dict[str, Any]], ...]
) -> Change:
    """The current round is over: the standings told, then the next round due after the pause, or the end."""
    events = (*events, ("standings", {"standings": tournament.standings_view()}))
    if tournament.round >= tournament.planned_rounds or sum(not p.withdrawn for p in tournament.players) < 2:
        return _ended(tournament, now_ms, events)
    return Change(replace(tournament, next_round_ms=now_ms + tournament.pause_s * 1000), events)


def _ended(tournament: Tournament, now_ms: int, events: tuple[tuple[str, dict[str, Any]], ...]) -> Change:
    after = replace(tournament, status=FINISHED, ended_ms=now_ms, next_round_ms=None)
    return Change(after, (*events, ("finished", {"standings": after.standings_view()})))
