"""A greedy player written apart from service/bots: a yardstick the levels did not shape.

It sees the game only through the engine's public API (`legal_moves`,
`apply_move`, the state's fields) and shares no code or weights with the
levels: each legal move is played, and the position after it scored as
the final score would count it now, plus the income still to come, the
mover's minus the opponent's. Ties go to the move that leaves fewer empty
cells shut in by covered cells and the edge, then to the first in
`legal_moves` order, so it is deterministic. The arena plays it as
`independent-greedy` (benchmarks/bots.py).
"""

from service.engine import BOARD_SIZE, INCOME_SPACES, GameState, Move, apply_move, legal_moves

NAME = "independent-greedy"
_BONUS_POINTS = 7


def _empty_cells(quilt: int) -> list[tuple[int, int]]:
    return [
        (row, col)
        for row in range(BOARD_SIZE)
        for col in range(BOARD_SIZE)
        if not quilt >> (row * BOARD_SIZE + col) & 1
    ]


def _shut_in(quilt: int) -> int:
    """Empty cells none of whose four neighbours is empty."""
    empty = set(_empty_cells(quilt))
    return sum(
        1
        for row, col in empty
        if not {(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)} & empty
    )


def _worth(state: GameState, seat: int) -> int:
    player = state.players[seat]
    paydays = sum(1 for space in INCOME_SPACES if space > player.position)
    bonus = _BONUS_POINTS if state.bonus_owner == seat else 0
    return player.buttons - 2 * player.empty_cells + bonus + player.income * paydays


def independent_greedy_move(state: GameState) -> Move:
    """The move that leaves the seat in turn furthest ahead by the score now and the income to come."""
    seat = state.turn
    assert seat is not None, "a finished game has no moves"
    best: tuple[int, int] | None = None
    chosen = None
    for move in legal_moves(state):
        after = apply_move(state, move, seat)
        key = (_worth(after, seat) - _worth(after, 1 - seat), -_shut_in(after.players[seat].quilt))
        if best is None or key > best:
            best, chosen = key, move
    assert chosen is not None
    return chosen
