"""The public JSON forms of games and moves: the `Game` body and a move's request-body form.

They live in the game-play core, not the API, because they are what is
stored: every commit writes the game's view beside its state (a read is then
one lookup) and the move's history entry, whoever commits it.
"""

from __future__ import annotations

from service.engine import (
    INCOME_SPACES,
    TRACK_END,
    Advance,
    Buy,
    GameState,
    PlaceLeather,
    Placement,
    Resign,
    canonical_move,
    income_spaces_passed,
)

from .jsontext import compact
from .records import GameRecord


def placement_view(placement: Placement) -> dict:
    """Both forms of a canonical placement, as docs/api-guide.md#placements-and-orientation shows them."""
    assert placement.cells is not None  # a canonical placement carries its cells
    return {
        "row": placement.row,
        "col": placement.col,
        "rotation": placement.rotation,
        "flipped": placement.flipped,
        "cells": [list(cell) for cell in placement.cells],
    }


def move_body(move) -> dict:
    """The request-body form of an engine move (canonical placement for buys)."""
    if isinstance(move, Buy):
        return {"action": "buy", "patch_id": move.patch_id, "placement": placement_view(move.placement)}
    if isinstance(move, PlaceLeather):
        return {"action": "place_leather", "row": move.row, "col": move.col}
    if isinstance(move, Resign):
        # Who resigned is the history entry's `seat`: the body names no seat.
        return {"action": "resign"}
    return {"action": "advance"}


def move_of_entry(entry: dict):
    """The engine move a stored history entry (history_entry) records: the inverse of move_body."""
    action = entry["action"]
    if action == "buy":
        return Buy(entry["patch_id"], Placement(cells=entry["placement"]["cells"]))
    if action == "place_leather":
        return PlaceLeather(entry["row"], entry["col"])
    if action == "resign":
        return Resign()
    return Advance()


# Legal moves come from a finite set (the engine's canonical placements, 81
# leather cells, advance) and the start position alone has about a thousand
# buys, so each move's encoded form is made once per process.
_FRAGMENTS: dict = {}


def move_fragment(move) -> str:
    """The encoded request-body form of a move in canonical form."""
    text = _FRAGMENTS.get(move)
    if text is None:
        text = compact(move_body(move))
        _FRAGMENTS[move] = text
    return text


def move_outcome(before: GameState, after: GameState, seat: int) -> dict:
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


def history_entry(number: int, seat: int, move, outcome: dict) -> str:
    """The stored Move of the history: the move as accepted, its placement completed, its outcome."""
    return (
        f'{{"number":{number},"seat":{seat},{move_fragment(canonical_move(move))[1:-1]},'
        f'"outcome":{compact(outcome)}}}'
    )


def legal_moves_text(version: int, turn: int | None, phase: str | None, moves) -> str:
    """The legal-moves body: the seat in turn's moves at `version`."""
    head = compact({"version": version, "turn": turn, "phase": phase})
    return f'{head[:-1]},"moves":[{",".join(move_fragment(m) for m in moves)}]}}'


def _player_view(record: GameRecord, state: GameState, seat: int) -> dict:
    player = state.players[seat]
    return {
        "name": record.names[seat],
        "bot": record.bots[seat],
        "buttons": player.buttons,
        "position": player.position,
        "income": player.income,
        "empty_cells": player.empty_cells,
        "has_bonus": state.bonus_owner == seat,
        "score": state.score(seat),
        "quilt": state.quilt_grid(seat),
    }


def game_view(record: GameRecord, version: int) -> dict:
    """The public `Game` body (docs/api-guide.md#resources) of `record` at `version`, in the spec's order.

    A plain dict, not a marshmallow dump: it is built on every move (see
    benchmarks/README.md).
    """
    state: GameState = record.state
    outcome = state.result
    return {
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
        "result": None
        if outcome is None
        else {"scores": list(outcome.scores), "winner": outcome.winner, "reason": outcome.reason},
        "created_at": record.created_at,
        "updated_at": record.updated_at,
    }
