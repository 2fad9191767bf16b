"""A stored game as its record (docs/records.md), and a record replayed into a game to store.

`record_of` writes what a game holds (GameRecord) and its history as the
text of record_text.py; `replay_record` reads such a text and replays it
through the engine into the history entries and final state a stored
game has, each step judged by the engine's own rules, so an illegal move
is refused with the engine's explanation and the line it is on. Both
directions go through the same history form (takebacks.py, views.py), so
a game exported and imported again has the same moves in force, the same
final state and the same result.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from service.engine import (
    ABORTED,
    Abort,
    GameState,
    InvalidSetup,
    Move,
    NotYourTurn,
    Resign,
    RuleError,
    Timeout,
    apply_move,
    move_from_json,
    new_game,
    seeded_patch_order,
)

from .clock import ClockSettings
from .jsontext import parse
from .record_text import (
    NONE_VALUE,
    Action,
    Entry,
    RecordError,
    RecordNotFinished,
    RecordText,
    Tag,
    Takeback,
    format_record,
    parse_record,
)
from .records import DEFAULT_NAMES, GameRecord, Seat, new_game_id, now_rfc3339
from .refusals import no_version
from .takebacks import TAKEBACK, InForce, last_turn, takeback_entry
from .views import history_entry, move_outcome

if TYPE_CHECKING:
    from .play import GamePlay

RUNNING = "*"
ABORTED_RESULT = "aborted"
_WINS = ("1-0", "0-1")


def game_record(play: GamePlay, game_id: str, version: int | None = None) -> str:
    """The record of a stored game at `version` (None: as it is now); VersionNotFound past its version."""
    game = play.load(game_id)
    current = game.version
    wanted = current if version is None else version
    if wanted > current:
        raise no_version(current, wanted)
    entries = play.history(game_id, 0, wanted - 2)[1] if wanted > 1 else []
    return record_of(game.record, entries, finished=wanted == current and game.record.state.finished)


def record_of(record: GameRecord, entries: Iterable[str], finished: bool, more: Iterable[Tag] = ()) -> str:
    """The record of `record`'s game with the history `entries` (its texts, oldest first).

    `finished`: whether the game ends with them (the record's result and
    scores are the game's); a past version of a game never ended. `more`:
    tags written after the record's own (the kept record's, outlive.py).
    """
    return format_record([*_tags(record, finished), *more], [_entry_of(text) for text in entries])


def _entry_of(text: str) -> Entry:
    doc = parse(text)
    action: Action = Takeback() if doc.get("action") == TAKEBACK else move_from_json(doc)
    return Entry(doc["number"], doc["seat"], action)


def _tags(record: GameRecord, finished: bool) -> list[Tag]:
    state = record.state
    first, second = record.seats
    tags = [
        Tag("Event", (_event(record),)),
        Tag("Game", (record.id,)),
        Tag("Date", (record.created_at,)),
        Tag("Players", (first.name, second.name)),
    ]
    if first.player_id is not None or second.player_id is not None:
        tags.append(Tag("PlayerIds", (first.player_id or NONE_VALUE, second.player_id or NONE_VALUE)))
    if first.bot is not None or second.bot is not None:
        tags.append(Tag("Bots", (first.bot or NONE_VALUE, second.bot or NONE_VALUE)))
    settlement = record.settlement
    if settlement is not None and finished:
        before = (
            round(after.rating - diff) for after, diff in zip(settlement.after, settlement.diff, strict=True)
        )
        tags.append(Tag("Ratings", tuple(str(rating) for rating in before)))
    tags.append(Tag("Clock", (_clock(record.clock),)))
    tags.append(Tag("TimeBoard", (state.time_board,)))
    if state.seed is not None:
        tags.append(Tag("Seed", (str(state.seed),)))
    circle = record.patch_order
    if circle is None:
        assert state.seed is not None  # a game keeps its patch order unless it was seeded
        circle = seeded_patch_order(state.seed)
    tags.append(Tag("Circle", (" ".join(str(patch) for patch in circle),)))
    tags.append(Tag("FirstPlayer", (str(state.first_player),)))
    outcome = state.result if finished else None
    if outcome is None:
        tags.append(Tag("Result", (RUNNING,)))
    else:
        tags.append(Tag("Result", (ABORTED_RESULT if outcome.winner is None else _WINS[outcome.winner],)))
        tags.append(Tag("Scores", tuple(str(score) for score in outcome.scores)))
    return tags


def _event(record: GameRecord) -> str:
    if record.tournament is not None:
        return f"Tournament {record.tournament.id}, round {record.tournament.round}"
    return "Rated game" if record.rated else "Casual game"


def _clock(settings: ClockSettings | None) -> str:
    """A time control as the Clock tag writes it: `300+5` (seconds, increment), `3d` (days a move), `-`."""
    if settings is None:
        return NONE_VALUE
    if settings.days_per_move is not None:
        return f"{settings.days_per_move}d"
    return f"{settings.initial_s}+{settings.increment_s}"


@dataclass(frozen=True, slots=True)
class Replayed:
    """A record replayed: the seats' names, the game's setup, its history entries and its final state."""

    names: tuple[str, str]
    setup: dict[str, Any]  # new_game's keywords: seed or patch_order, first_player, time_board
    entries: tuple[str, ...]  # the history's texts, as a game played here stores them
    state: GameState


def imported(replayed: Replayed) -> GameRecord:
    """The stored form of a replayed record: a new id, the seats' names only, no clock, unrated."""
    now = now_rfc3339()
    first, second = replayed.names
    order = replayed.setup.get("patch_order")
    return GameRecord(
        id=new_game_id(),
        seats=(Seat(first), Seat(second)),
        created_at=now,
        updated_at=now,
        state=replayed.state,
        patch_order=None if order is None else tuple(order),
        # Each entry was accepted now: a past version's view reads its time here.
        move_times=(now,) * len(replayed.entries),
    )


def replay_record(text: str) -> Replayed:
    """The game a finished record describes, replayed through the engine; RecordError (RecordNotFinished) if none."""
    read = parse_record(text)
    setup, state = _setup(read)
    # The moves in force at each version (takebacks.py), index v - 1 for version v.
    by_version: list[tuple[InForce, ...]] = [()]
    # The state at each version likewise: a takeback goes back to one, replaying nothing
    # (a record of thousands of takebacks costs no more than as many moves).
    states = [state]
    entries: list[str] = []
    for entry in read.entries:
        if isinstance(entry.action, Takeback):
            turn = last_turn(by_version[-1]) if not state.finished else None
            if turn is None or entry.seat not in (None, turn.seat):
                raise RecordError(
                    "line {line}: {token}: there is no turn of seat {seat} to take back",
                    line=entry.line,
                    token=entry.token,
                    seat=entry.seat if entry.seat is not None else state.turn,
                )
            state = states[turn.to_version - 1]
            by_version.append(by_version[turn.to_version - 1])
            states.append(state)
            entries.append(takeback_entry(entry.number, turn.seat, turn.to_version))
            continue
        move = entry.action
        seat = entry.seat if entry.seat is not None else state.turn
        try:
            after = _played(state, move, seat)
        except RuleError as error:
            raise RecordError(
                "line {line}: {token} cannot be played: {reason}",
                line=entry.line,
                token=entry.token,
                reason=error,
            ) from None
        assert seat is not None  # a move was played: the game was running, a seat in turn
        entries.append(history_entry(entry.number, seat, move, move_outcome(state, after, seat)))
        by_version.append((*by_version[-1], InForce(move, seat, entry.number)))
        states.append(after)
        state = after
    if not state.finished:
        last = read.entries[-1] if read.entries else None
        raise RecordNotFinished(
            "line {line}: the record ends with the game still running: only a finished game is imported",
            line=last.line if last is not None else read.after_tags,
            token=last.token if last is not None else "",
        )
    _check_result(read, state)
    return Replayed(_names(read), setup, tuple(entries), state)


def _played(state: GameState, move: Move, seat: int | None) -> GameState:
    """The state after `seat`'s `move`, judged by the engine (RuleError)."""
    if isinstance(move, Resign):
        # The seat that resigns, not always the one in turn, is the entry's: the replay must know it.
        return apply_move(state, Resign(seat), seat)
    if isinstance(move, (Timeout, Abort)) and state.turn is not None and seat != state.turn:
        # Only the clock of the seat in turn runs, and the history gives a game called off the seat in turn.
        raise NotYourTurn(
            "seat {seat} cannot {action}: it is seat {turn}'s turn",
            seat=repr(seat),
            action=move.action,
            turn=state.turn,
        )
    return apply_move(state, move, seat)


def _setup(read: RecordText) -> tuple[dict[str, Any], GameState]:
    """new_game's keywords from the tags, and the game they set up."""
    setup: dict[str, Any] = {
        "first_player": _number(read, "FirstPlayer"),
        "time_board": _value(read, "TimeBoard"),
    }
    circle_tag, seed_tag = read.tag("Circle"), read.tag("Seed")
    if seed_tag is not None:
        setup["seed"] = _number(read, "Seed")
    elif circle_tag is not None:
        setup["patch_order"] = _circle(circle_tag)
    else:
        raise RecordError(
            "line {line}: tag {token} is missing: the record must say the circle of patches",
            line=read.after_tags,
            token="Circle",
        )
    try:
        state = new_game(**setup)
    except InvalidSetup as error:
        named = next((name for key, name in _SETUP_TAGS.items() if key in error.values), "Circle")
        tag = read.tag(named)
        raise RecordError(
            "line {line}: {token} cannot set a game up: {reason}",
            line=tag.line if tag is not None else 0,
            token=tag.name if tag is not None else "",
            reason=error,
        ) from None
    if seed_tag is not None and circle_tag is not None and _circle(circle_tag) != state.circle:
        raise RecordError(
            "line {line}: tag {token} is not the circle that seed {seed} lays out",
            line=circle_tag.line,
            token="Circle",
            seed=state.seed,
        )
    return setup, state


# The tag behind each value an InvalidSetup names (anything else is the circle's).
_SETUP_TAGS = {"first": "FirstPlayer", "board": "TimeBoard", "seed": "Seed"}


def _value(read: RecordText, name: str) -> str:
    tag = read.tag(name)
    if tag is None:
        raise RecordError(
            "line {line}: tag {token} is missing: the record must say it to be replayed",
            line=read.after_tags,
            token=name,
        )
    return tag.values[0]


def _number(read: RecordText, name: str) -> int:
    value = _value(read, name)
    if not value.isascii() or not value.isdigit():
        tag = read.tag(name)
        raise RecordError(
            "line {line}: tag {token} is {value}, not a whole number",
            line=tag.line if tag is not None else 0,
            token=name,
            value=repr(value),
        )
    return int(value)


def _circle(tag: Tag) -> tuple[int, ...]:
    parts = tag.values[0].split()
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise RecordError(
            "line {line}: tag {token} must list patch ids (whole numbers) with spaces between them",
            line=tag.line,
            token=tag.name,
        )
    return tuple(int(part) for part in parts)


def _names(read: RecordText) -> tuple[str, str]:
    tag = read.tag("Players")
    if tag is None:
        return DEFAULT_NAMES
    for name in tag.values:
        if not 1 <= len(name) <= 40:
            raise RecordError(
                "line {line}: tag {token}: a name has 1 to 40 characters, not {length}",
                line=tag.line,
                token=tag.name,
                length=len(name),
            )
    first, second = tag.values
    return first, second


def _check_result(read: RecordText, state: GameState) -> None:
    """The Result and Scores tags, when given, must be what the moves come to."""
    outcome = state.result
    assert outcome is not None  # finished
    result = ABORTED_RESULT if outcome.reason == ABORTED or outcome.winner is None else _WINS[outcome.winner]
    scores = tuple(str(score) for score in outcome.scores)
    for name, wanted in (("Result", (result,)), ("Scores", scores)):
        tag = read.tag(name)
        if tag is not None and tag.values != wanted:
            raise RecordError(
                "line {line}: tag {token} says {said}, but the moves come to {wanted}",
                line=tag.line,
                token=name,
                said=" ".join(tag.values),
                wanted=" ".join(wanted),
            )
