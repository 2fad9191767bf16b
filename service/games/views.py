"""The public JSON texts of games and their moves: the `Game` body, history entries, legal moves.

A move's own JSON form is the engine's (`to_json`); these texts place it.

They live in the game-play core, not the API, because they are what is
stored: every commit writes the game's view beside its state (a read is then
one lookup) and the move's history entry, whoever commits it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from service.engine import (
    INCOME_SPACES,
    TRACK_END,
    GameState,
    Move,
    canonical_move,
    income_spaces_passed,
)
from service.engine.quilt import BOARD_SIZE, cell_indexes

from .clock import rfc3339_ms, view_of
from .jsontext import Fragment, compact
from .records import GameRecord, Offer


# Legal moves come from a finite set (the engine's canonical placements, 81
# leather cells, advance) and the start position alone has about a thousand
# buys, so each move's JSON form (the engine's `to_json`) is encoded once per
# process: whole, for a list of moves, and member by member, for a history
# entry, which spreads the move's members among its own.
@dataclass(frozen=True, slots=True)
class _EncodedMove:
    whole: Fragment
    members: dict[str, Fragment]


_ENCODED: dict[Move, _EncodedMove] = {}


def _encoded(move: Move) -> _EncodedMove:
    """The encoded JSON form of a move in canonical form."""
    found = _ENCODED.get(move)
    if found is None:
        doc = move.to_json()
        found = _EncodedMove(
            Fragment(compact(doc)), {name: Fragment(compact(value)) for name, value in doc.items()}
        )
        _ENCODED[move] = found
    return found


def move_outcome(before: GameState, after: GameState, seat: int) -> dict[str, Any]:
    """What a move did to the mover (docs/api-guide.md#live-updates), for animation and logs.

    Read off the states before and after, not the rules replayed: the engine
    stays the one place that knows them. A leather patch is placed where the
    token stands, so such a move has `from` == `to` and pays no income.
    """
    old, new = before.players[seat], after.players[seat]
    # Leather is won only by a token moving past it (a buy or an advance,
    # which start with none left to place).
    moved = new.position != old.position
    return {
        "buttons": new.buttons - old.buttons,
        "income": new.income * income_spaces_passed(old.position, new.position),
        "from": old.position,
        "to": new.position,
        "leather_won": new.leather_to_place if moved else 0,
        "bonus": before.bonus_owner is None and after.bonus_owner == seat,
    }


def history_entry(number: int, seat: int, move: Move, outcome: dict[str, Any]) -> str:
    """The stored Move of the history: the move as accepted, its placement completed, its outcome."""
    members = _encoded(canonical_move(move)).members
    return compact({"number": number, "seat": seat, **members, "outcome": outcome})


def legal_moves_text(version: int, turn: int | None, phase: str | None, moves: Iterable[Move]) -> str:
    """The legal-moves body: the seat in turn's moves at `version`."""
    return compact(
        {"version": version, "turn": turn, "phase": phase, "moves": [_encoded(m).whole for m in moves]}
    )


def _player_view(record: GameRecord, state: GameState, seat: int) -> dict[str, Any]:
    player = state.players[seat]
    held = record.seats[seat]
    return {
        "name": held.name,
        # A level's id (the service plays the seat), true for a bot account (an outside engine), null for a person.
        "bot": held.bot if held.bot is not None else (True if held.bot_account else None),
        "open": held.open,
        "player_id": held.player_id,
        "buttons": player.buttons,
        "position": player.position,
        "income": player.income,
        "empty_cells": player.empty_cells,
        "has_bonus": state.bonus_owner == seat,
        "score": state.score(seat),
        "quilt": quilt_rows(player.pieces),
    }


_EMPTY_ROWS: tuple[tuple[int | None, ...], ...] = ((None,) * BOARD_SIZE,) * BOARD_SIZE


@lru_cache(maxsize=1 << 13)
def quilt_rows(pieces: tuple[tuple[int, int], ...]) -> tuple[tuple[int | None, ...], ...]:
    """A quilt as the view shows it (GameState.quilt_grid's rows, as tuples), from its pieces.

    Every move's view shows both quilts, and only the mover's changed, by
    one piece: the other is found in the cache, the mover's is its quilt
    before the move (also cached) with the new piece's cells filled in.
    Tuples, because cached rows are shared by every view that shows them.
    """
    if not pieces:
        return _EMPTY_ROWS
    rows = [list(row) for row in quilt_rows(pieces[:-1])]
    patch_id, mask = pieces[-1]
    for index in cell_indexes(mask):
        rows[index // BOARD_SIZE][index % BOARD_SIZE] = patch_id
    return tuple(tuple(row) for row in rows)


def _result(record: GameRecord) -> dict[str, Any]:
    outcome = record.state.result
    assert outcome is not None
    body: dict[str, Any] = {
        "scores": list(outcome.scores),
        "winner": outcome.winner,
        "reason": outcome.reason,
    }
    if record.settlement is not None:
        # Rounded as the ratings are shown: the exact change is in the record.
        body["rating_diff"] = [round(record.settlement.diff[0]), round(record.settlement.diff[1])]
    if record.rated:
        # A rated game that ended before both seats moved changed no rating (rated.py).
        body["rated"] = record.settlement is not None
    return body


def offer_view(offer: Offer) -> dict[str, Any]:
    """The public form of a pending offer: what is offered, by which seat, until when."""
    return {"kind": offer.kind, "by": offer.seat, "expires_at": rfc3339_ms(offer.expires_at_ms)}


def game_view(record: GameRecord, version: int) -> dict[str, Any]:
    """The public `Game` body (docs/api-guide.md#resources) of `record` at `version`, in the spec's order.

    A plain dict, not a marshmallow dump: it is built on every move (see
    benchmarks/README.md). `offer` only while one is pending (a move voids
    it): the body of a game that never had one is as it always was; and
    `tournament` only in a tournament's game, likewise.
    """
    state: GameState = record.state
    outcome = state.result
    view = {
        "id": record.id,
        "version": version,
        "status": "finished" if outcome is not None else "active",
        "seed": state.seed,
        "time_board": state.time_board,
        "first_player": state.first_player,
        "turn": state.turn,
        "phase": state.phase,
        "circle": list(state.circle),
        "market": list(state.market),
        "track_length": TRACK_END,
        "income_spaces": list(INCOME_SPACES),
        "leather_spaces": list(state.leather_spaces),
        "bonus_owner": state.bonus_owner,
        "players": [_player_view(record, state, 0), _player_view(record, state, 1)],
        "moves_played": state.moves_played,
        "result": None if outcome is None else _result(record),
        "clock": None
        if record.clock is None or record.clock_now is None
        else view_of(record.clock, record.clock_now, None if record.pause is None else record.pause.until_ms),
        "rated": record.rated,
        "next_game": record.next_game,
        "created_at": record.created_at,
        "updated_at": record.updated_at,
    }
    if record.offer is not None:
        view["offer"] = offer_view(record.offer)
    if record.tournament is not None:
        view["tournament"] = record.tournament.to_json()
    return view
