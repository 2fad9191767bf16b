"""A `position` command as the game it names: the start set up and every move replayed through the rules."""

from __future__ import annotations

from service.engine import GameState, InvalidSetup, RuleError, apply_move, new_game, parse_move

from .commands import Position, ProtocolError


class IllegalMove(ProtocolError):
    """A move of a position that the rules refuse where it stands; `number` counts the moves from 1."""

    def __init__(self, message: str, token: str, number: int):
        super().__init__(message, token)
        self.number = number


def game_state(position: Position) -> GameState:
    """The state after the position's moves; ProtocolError for a bad start, IllegalMove for a refused move."""
    try:
        state = new_game(
            patch_order=position.circle,
            first_player=position.first_player,
            time_board=position.time_board,
        )
    except InvalidSetup as err:
        raise ProtocolError(f"position: {err}", ",".join(map(str, position.circle))) from None
    for number, token in enumerate(position.moves, 1):
        try:
            state = apply_move(state, parse_move(token))
        except (RuleError, ValueError) as err:
            # parse_move's NotationError too: a Position built by hand is not checked by parsing.
            raise IllegalMove(f"position: move {number} {token!r} is illegal: {err}", token, number) from None
    return state
