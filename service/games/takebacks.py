"""Takebacks in a game's history: which moves are in force at a version, and which turn a takeback undoes.

A takeback is an entry of the history like a move, `{"number", "seat",
"action": "takeback", "to_version": k}`: it makes a new version whose state
is the state of version k (the version only grows). So the moves in force at
a version are those of version k for a takeback, and otherwise those of the
version before plus the entry's move; the state of any version is the replay
of its moves in force from the game's creation (play.py). A turn is what one
seat did since the other last acted: a takeback undoes the last one in force.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.engine import Move, move_from_json

from .jsontext import compact, parse

TAKEBACK = "takeback"


@dataclass(frozen=True, slots=True)
class InForce:
    """One move in force: the move, the seat that made it, and the version it was made on."""

    move: Move
    seat: int
    on_version: int


@dataclass(frozen=True, slots=True)
class LastTurn:
    """The last turn in force: its seat, the version before it, and the moves in force at that version."""

    seat: int
    to_version: int
    kept: tuple[Move, ...]


def in_force(entries: list[str]) -> tuple[InForce, ...]:
    """The moves in force after the history `entries` (the stored texts, oldest first)."""
    by_version: list[tuple[InForce, ...]] = [()]  # index v - 1: the moves in force at version v
    for index, text in enumerate(entries):
        entry = parse(text)
        if entry.get("action") == TAKEBACK:
            by_version.append(by_version[entry["to_version"] - 1])
        else:
            by_version.append((*by_version[-1], InForce(move_from_json(entry), entry["seat"], index + 1)))
    return by_version[-1]


def moves_of(forced: tuple[InForce, ...]) -> list[Move]:
    """The moves alone, oldest first."""
    return [played.move for played in forced]


def last_turn(forced: tuple[InForce, ...]) -> LastTurn | None:
    """The last turn of the moves in force `forced` (the moves its seat made since the other's); None before any."""
    if not forced:
        return None
    seat = forced[-1].seat
    start = len(forced) - 1
    while start > 0 and forced[start - 1].seat == seat:
        start -= 1
    return LastTurn(seat, forced[start].on_version, tuple(moves_of(forced[:start])))


def takeback_entry(number: int, seat: int, to_version: int) -> str:
    """The history entry of a takeback of `seat`'s turn, back to the state of `to_version`."""
    return compact({"number": number, "seat": seat, "action": TAKEBACK, "to_version": to_version})
