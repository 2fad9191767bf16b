"""The host's commands (docs/engine-protocol.md) as typed values: parsed from a line, written back to one.

`parse_command` reads one line the host sent; each command's `line()`
writes it back, so the host side (engine_process.py) and the engine side
(protocol_engine.py) share one grammar. A line that breaks it raises
ProtocolError carrying the bad input; the engine answers it with `error`.

Parsing checks the form only: 33 ids, a seat, a board name, move tokens of
the ANU notation. Whether the circle is a real one and the moves legal is
the rules' business (positions.py replays them).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from service.engine import PATCHES, TIME_BOARDS, NotationError, parse_move
from service.engine.notation import ADVANCE_TOKEN

_MOVE_LENGTH = 4


class ProtocolError(ValueError):
    """A line, or a part of one, that the protocol does not allow; `text` is the bad input."""

    def __init__(self, message: str, text: str):
        super().__init__(message)
        self.text = text


class Word(StrEnum):
    """The commands that are one word and nothing else."""

    # Who are you? (answered with `id` lines and `patchworkok`, at any time)
    HANDSHAKE = "patchwork"
    # Answered with `readyok`, at once, even while thinking.
    IS_READY = "isready"
    # The next position is of another game (a hint; no answer).
    NEW_GAME = "newgame"
    # Answer `bestmove` now with the best move found so far.
    STOP = "stop"
    # Exit at once.
    QUIT = "quit"

    def line(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Position:
    """`position`: a game's start (circle, first seat, time board) and the moves played since."""

    # The starting circle clockwise from the neutral token, the 1x2 (id 1) last: POST /games's patch_order.
    circle: tuple[int, ...]
    first_player: int
    time_board: str
    # ANU tokens, one move each (docs/rules.md#notation).
    moves: tuple[str, ...] = ()

    def line(self) -> str:
        words = [
            "position",
            "circle",
            ",".join(str(patch_id) for patch_id in self.circle),
            "first",
            str(self.first_player),
            "board",
            self.time_board,
        ]
        if self.moves:
            words += ["moves", *self.moves]
        return " ".join(words)


@dataclass(frozen=True, slots=True)
class Go:
    """`go`: think and answer `bestmove`; clocks per seat, or a fixed time, or neither (the engine's default)."""

    # Each seat's time left, in ms (seat 0, seat 1).
    time_ms: tuple[int, int] | None = None
    # Each seat's increment, in ms; it matters only with time_ms.
    increment_ms: tuple[int, int] | None = None
    # Think about this long, whatever the clocks say.
    movetime_ms: int | None = None

    def line(self) -> str:
        words = ["go"]
        if self.time_ms is not None:
            words += ["time0", str(self.time_ms[0]), "time1", str(self.time_ms[1])]
        if self.increment_ms is not None:
            words += ["inc0", str(self.increment_ms[0]), "inc1", str(self.increment_ms[1])]
        if self.movetime_ms is not None:
            words += ["movetime", str(self.movetime_ms)]
        return " ".join(words)


Command = Word | Position | Go

_POSITION_FORM = "position circle <33 ids, commas between> first <0|1> board <original|revised> [moves ...]"
_GO_KEYS = ("time0", "time1", "inc0", "inc1", "movetime")


def parse_command(line: str) -> Command | None:
    """The command a line of the host's holds; None for an empty line; ProtocolError for anything else."""
    words = line.split()
    if not words:
        return None
    name = words[0]
    if name == "position":
        return _position(words, line)
    if name == "go":
        return _go(words[1:], line)
    try:
        word = Word(name)
    except ValueError:
        raise ProtocolError(f"unknown command {name!r}", name) from None
    if len(words) > 1:
        raise ProtocolError(f"{name} takes no arguments, got {' '.join(words[1:])!r}", line)
    return word


def split_tokens(word: str) -> list[str]:
    """The move tokens of a run written together ('LHAA.OAAA' is three); a short tail is kept whole."""
    tokens, i = [], 0
    while i < len(word):
        size = 1 if word[i] == ADVANCE_TOKEN else _MOVE_LENGTH
        tokens.append(word[i : i + size])
        i += size
    return tokens


def _position(words: list[str], line: str) -> Position:
    if len(words) < 7 or (words[1], words[3], words[5]) != ("circle", "first", "board"):
        raise ProtocolError(f"position must read {_POSITION_FORM!r}", line)
    if len(words) > 7 and words[7] != "moves":
        raise ProtocolError(f"position: expected 'moves' after the board, got {words[7]!r}", words[7])
    if words[4] not in ("0", "1"):
        raise ProtocolError(f"position: first must be 0 or 1, got {words[4]!r}", words[4])
    if words[6] not in TIME_BOARDS:
        raise ProtocolError(
            f"position: board must be one of {', '.join(TIME_BOARDS)}, got {words[6]!r}", words[6]
        )
    moves = tuple(token for word in words[8:] for token in split_tokens(word))
    for number, token in enumerate(moves, 1):
        try:
            parse_move(token)
        except NotationError as err:
            raise ProtocolError(f"position: move {number} {token!r} is malformed: {err}", token) from None
    return Position(_circle(words[2]), int(words[4]), words[6], moves)


def _circle(text: str) -> tuple[int, ...]:
    ids = text.split(",")
    if len(ids) != len(PATCHES) or not all(_is_number(patch_id) for patch_id in ids):
        raise ProtocolError(
            f"position: circle must be {len(PATCHES)} patch ids separated by commas, got {text!r}", text
        )
    return tuple(int(patch_id) for patch_id in ids)


def _go(words: list[str], line: str) -> Go:
    if len(words) % 2:
        raise ProtocolError(f"go: every key needs a value, got {' '.join(words)!r}", line)
    values: dict[str, int] = {}
    for key, value in zip(words[::2], words[1::2]):
        if key not in _GO_KEYS:
            raise ProtocolError(f"go: unknown key {key!r} (the keys are {', '.join(_GO_KEYS)})", key)
        if key in values:
            raise ProtocolError(f"go: {key} given twice", key)
        if not _is_number(value):
            raise ProtocolError(f"go: {key} must be a whole number of ms, got {value!r}", value)
        values[key] = int(value)
    return Go(
        time_ms=_pair(values, "time0", "time1", line),
        increment_ms=_pair(values, "inc0", "inc1", line),
        movetime_ms=values.get("movetime"),
    )


def _pair(values: dict[str, int], first: str, second: str, line: str) -> tuple[int, int] | None:
    """Both seats' values, or None when neither is given; one without the other is an error."""
    if first not in values and second not in values:
        return None
    if first not in values or second not in values:
        raise ProtocolError(f"go: {first} and {second} go together", line)
    return values[first], values[second]


def _is_number(text: str) -> bool:
    # isdigit alone accepts '²' and other digits int() refuses.
    return text.isascii() and text.isdigit()
