"""The text form of a whole game (docs/records.md): tag lines, a blank line, numbered moves in ANU notation.

Pure, like the engine's notation.py it builds on: text to values and back,
no storage and no web. `parse_record` reads a record into `RecordText`
(its tags and its entries, each with the line it was read from) and
`format_record` writes one; replaying the entries through the engine, and
what a stored game's record holds, are record_games.py's.

A move is an ANU token (docs/rules.md#notation). What the notation has no
token for has a word of its own: `resign`, `timeout`, `abort`, and
`takeback` (the seat's last turn is undone, as takebacks.py does it).
Errors are RecordErrors that name the line and the token, their English
message and values kept apart as the engine's errors are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from service.engine import Abort, Move, NotationError, Resign, Timeout, format_move, parse_move
from service.engine.errors import ExplainedError

MEDIA_TYPE = "text/x-patchwork-record"

RESIGN_TOKEN = "resign"
TIMEOUT_TOKEN = "timeout"
ABORT_TOKEN = "abort"
TAKEBACK_TOKEN = "takeback"

# Tags that hold one value per seat, seat 0 first; every other tag holds one value.
SEAT_TAGS = frozenset({"Players", "PlayerIds", "Bots", "Ratings", "Scores"})
# The value of a per-seat tag for a seat it says nothing of (no player, a person, no rating).
NONE_VALUE = "-"
# The tags of docs/records.md that hold one value (unknown tags may hold any number).
_ONE_VALUE_TAGS = frozenset(
    {"Event", "Game", "Date", "Clock", "TimeBoard", "Seed", "Circle", "FirstPlayer", "Result"}
)

_TAG_NAME = re.compile(r"\[([A-Za-z][A-Za-z0-9]*)")
# A move line: its first entry's number, a dot, then its tokens, the first of them the seat (0 or 1)
# when given (no move's token is a digit).
_MOVE_LINE = re.compile(r"([0-9]+)\.((?:\s+\S+)+)")
_SEATS = {"0": 0, "1": 1}
_JSON = json.JSONDecoder()


class RecordError(ExplainedError):
    """A record that cannot be read or replayed: its message names the line and the token."""

    code = "invalid_record"

    def __init__(self, message: str, *, line: int, token: str, **values: object):
        # Quoted in the message, as the engine's errors quote what they were given; kept as read beside it.
        super().__init__(message, line=line, token=repr(token), **values)
        self.line = line
        self.token = token


class RecordNotFinished(RecordError):
    """A well-formed record whose moves leave the game running: it cannot be stored as a finished game."""

    code = "record_not_finished"


@dataclass(frozen=True, slots=True)
class Takeback:
    """A takeback entry: the last turn in force is undone (takebacks.py)."""

    action = "takeback"


Action = Move | Takeback

# The words of the actions the ANU notation has no token for.
_WORDS: dict[str, Action] = {
    RESIGN_TOKEN: Resign(),
    TIMEOUT_TOKEN: Timeout(),
    ABORT_TOKEN: Abort(),
    TAKEBACK_TOKEN: Takeback(),
}


@dataclass(frozen=True, slots=True)
class Tag:
    """One tag line: its name, its values, and the line it was read from (0: not read)."""

    name: str
    values: tuple[str, ...]
    line: int = 0


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of the history: its number, the seat it is of, what it did, and its line (0: not read).

    The seat is None when a line read does not say it: the seat in turn
    (for a resignation too; for a takeback, the seat of the last turn).
    """

    number: int
    seat: int | None
    action: Action
    line: int = 0

    @property
    def token(self) -> str:
        return format_token(self.action)


@dataclass(frozen=True, slots=True)
class RecordText:
    """A record as read: its tags in order, and its entries oldest first."""

    tags: tuple[Tag, ...]
    entries: tuple[Entry, ...]
    # The line after the last tag line (1 with none): where a tag left out was due.
    after_tags: int = 1

    def tag(self, name: str) -> Tag | None:
        """The tag called `name`, or None."""
        return next((tag for tag in self.tags if tag.name == name), None)


def parse_token(token: str, line: int) -> Action:
    """What a token of a move line does: an ANU move, or one of the words; RecordError otherwise."""
    word = _WORDS.get(token)
    if word is not None:
        return word
    try:
        return parse_move(token)
    except NotationError as error:
        raise RecordError(
            "line {line}: {token} is not a move: {reason}", line=line, token=token, reason=str(error)
        ) from None


def format_token(action: Action) -> str:
    """The token of an action: its ANU token, or its word."""
    if isinstance(action, Takeback):
        return TAKEBACK_TOKEN
    if isinstance(action, Resign):
        return RESIGN_TOKEN
    if isinstance(action, Timeout):
        return TIMEOUT_TOKEN
    if isinstance(action, Abort):
        return ABORT_TOKEN
    return format_move(action)


def _tag_line(text: str, line: int) -> Tag:
    """A tag line: `[Name "value" ...]`, each value a JSON string."""
    found = _TAG_NAME.match(text)
    if found is None:
        raise RecordError('line {line}: {token} is not a tag: a tag is [Name "value"]', line=line, token=text)
    name, at = found.group(1), found.end()
    values: list[str] = []
    while True:
        spaces = len(text) - at - len(text[at:].lstrip(" "))
        at += spaces
        if text[at:] == "]" and values:
            break
        if not spaces or not text.startswith('"', at):
            raise RecordError(
                "line {line}: tag {token} is malformed: each value is a quoted string, "
                "after a space, and the tag ends with ]",
                line=line,
                token=name,
            )
        try:
            value, at = _JSON.raw_decode(text, at)
        except ValueError:
            raise RecordError(
                "line {line}: tag {token} is malformed: a value's quotes or escapes do not close",
                line=line,
                token=name,
            ) from None
        values.append(value)
    wanted = 2 if name in SEAT_TAGS else 1 if name in _ONE_VALUE_TAGS else None
    if wanted is not None and len(values) != wanted:
        raise RecordError(
            "line {line}: tag {token} has {count} values, not {wanted}",
            line=line,
            token=name,
            count=len(values),
            wanted=wanted,
        )
    return Tag(name, tuple(values), line)


def _move_line(text: str, line: int, number: int) -> Iterator[Entry]:
    """The entries of a move line `N. S token ...`, whose first must be number `number`."""
    found = _MOVE_LINE.fullmatch(text)
    if found is None:
        raise RecordError(
            "line {line}: {token} is not a move line: a move line is the number of its first "
            "move, a dot, the seat (0 or 1) and the moves, with spaces between them",
            line=line,
            token=text,
        )
    first, tokens = int(found.group(1)), found.group(2).split()
    seat = _SEATS.get(tokens[0])
    if seat is not None:
        tokens = tokens[1:]
    if not tokens:
        raise RecordError("line {line}: {token} names no move", line=line, token=text)
    if first != number:
        raise RecordError(
            "line {line}: {token} is numbered wrong: the next move is number {number}",
            line=line,
            token=found.group(1) + ".",
            number=number,
        )
    for offset, token in enumerate(tokens):
        yield Entry(first + offset, seat, parse_token(token, line), line)


def parse_record(text: str) -> RecordText:
    """The tags and entries of a record's text; RecordError at the first line that is neither."""
    tags: list[Tag] = []
    entries: list[Entry] = []
    lines = text.removeprefix("\ufeff").splitlines()
    for index, raw in enumerate(lines):
        line = index + 1
        stripped = raw.strip(" \t")
        if not stripped:
            continue
        if stripped.startswith("["):
            if entries:
                raise RecordError(
                    "line {line}: tag {token} comes after the moves: tags come first",
                    line=line,
                    token=stripped,
                )
            tag = _tag_line(stripped, line)
            if any(seen.name == tag.name for seen in tags):
                raise RecordError("line {line}: tag {token} is given twice", line=line, token=tag.name)
            tags.append(tag)
        else:
            entries.extend(_move_line(stripped, line, len(entries) + 1))
    return RecordText(tuple(tags), tuple(entries), tags[-1].line + 1 if tags else 1)


def quoted(value: str) -> str:
    """A tag's value as written: a JSON string, on one line whatever it holds."""
    return json.dumps(value, ensure_ascii=False)


def format_record(tags: Iterable[Tag], entries: Iterable[Entry]) -> str:
    """A record's text: the tag lines, a blank line, then the moves.

    A line holds a seat's moves in a row; each of the words (`resign`,
    `timeout`, `abort`, `takeback`) has a line of its own.
    """
    out = [f"[{tag.name} {' '.join(quoted(value) for value in tag.values)}]" for tag in tags]
    out.append("")
    line: list[Entry] = []
    for entry in entries:
        alone = isinstance(entry.action, (Takeback, Resign, Timeout, Abort))
        if line and (alone or entry.seat != line[0].seat or format_token(line[0].action) in _WORDS):
            out.append(_written(line))
            line = []
        line.append(entry)
    if line:
        out.append(_written(line))
    return "\n".join(out) + "\n"


def _written(line: list[Entry]) -> str:
    return f"{line[0].number}. {line[0].seat} " + " ".join(entry.token for entry in line)
