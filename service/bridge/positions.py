"""A game of the API as the engine protocol names it: the starting circle, the first player, the board, the moves.

The starting circle is the game's `circle` as created (`GET
/games/{id}?version=1`): a game's own `circle` moves as patches are bought.
The moves come from the history (`GET /games/{id}/moves`), where a takeback
entry puts the game back to an earlier version's moves.
"""

from __future__ import annotations

from typing import Any

from service.engine import apply_move, format_move, move_from_json, parse_move
from service.engine_protocol.commands import Position
from service.engine_protocol.positions import game_state

PLAYED = ("advance", "buy", "place_leather")


def position_of(start: dict[str, Any], history: list[dict[str, Any]]) -> Position:
    """The protocol's position of a game: `start` its Game body as created (version 1), `history` its MoveRecords."""
    moves_at: list[tuple[str, ...]] = [()]  # the moves as of each version, version 1 (as created) first
    for entry in history:
        if entry["action"] == "takeback":
            moves_at.append(moves_at[entry["to_version"] - 1])
        elif entry["action"] in PLAYED:
            moves_at.append((*moves_at[-1], format_move(move_from_json(entry))))
        else:
            moves_at.append(moves_at[-1])  # a resignation, a timeout or an abort ends the game
    return Position(
        circle=tuple(start["circle"]),
        first_player=start["first_player"],
        time_board=start["time_board"],
        moves=moves_at[-1],
    )


def checked_move_body(position: Position, token: str) -> dict[str, Any] | None:
    """The request body of the engine's move `token`, or None when it is no legal move here."""
    try:
        move = parse_move(token)
        apply_move(game_state(position), move)  # the rules' own check: a RuleError names what is wrong
    except ValueError:
        return None
    return move.to_json()
