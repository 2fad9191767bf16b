"""A finished game's analysis: for each move, what the strongest level thinks it was worth.

Pure, like the levels: a function of the game's start, its moves and a node
budget. For each move the `deep` level's search, with
evaluation.ANALYSIS_WEIGHTS (empty cells counted as the final score
counts them; evaluation.py says why) and the two snuggest placements of
each patch at its root, picks the best move in the position; then both
the best move's and the played move's positions are valued by the same
search from the mover's side, each with the same budget. The values are
the expected final margin for the mover, in points: the evaluation is a
margin estimate, and a finished game's exact margin
(the search's win bonus taken off). `loss` is how much the played move gave
away against the best (never below 0: a search may value the played move a
little higher than its own choice, and then the played move was the best).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from service.engine import Abort, GameState, Move, Resign, Timeout, apply_move, canonical_move

from .evaluation import ANALYSIS_WEIGHTS, WIN_VALUE
from .options import play, to_move
from .search import position_value, search_option

# Loss thresholds, in points of final margin (the spec states them).
INACCURACY, MISTAKE, BLUNDER = 2.0, 5.0, 10.0
# Placements per patch at the root of the best-move search: the best move
# shown is picked among more placements than a level's own move.
_ROOT_PER_PATCH = 2


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    number: int
    seat: int
    eval_before: float
    eval_after: float
    best: Move
    loss: float
    label: str | None

    def public(self) -> dict[str, object]:
        """The move as GET /games/{id}/analysis lists it: points to a tenth, loss = before - after as shown."""
        before, after = round(self.eval_before, 1), round(self.eval_after, 1)
        return {
            "number": self.number,
            "seat": self.seat,
            "eval_before": before,
            "eval_after": after,
            "best": self.best.to_json(),
            "loss": round(before - after, 1),
            "class": self.label,
        }


def classify(loss: float) -> str | None:
    """The class of a move that lost `loss` points: None below INACCURACY."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def margin(value: float) -> float:
    """A search value as a final margin in points: a finished game's win bonus taken off."""
    if value > WIN_VALUE / 2:
        return value - WIN_VALUE
    if value < -WIN_VALUE / 2:
        return value + WIN_VALUE
    return value


def analyse_move(
    state: GameState,
    move: Move,
    number: int,
    node_budget: int,
    pause: Callable[[], None] | None = None,
) -> MoveAnalysis:
    """The analysis of `move` played in `state` (the seat in turn's); `pause` runs inside its searches."""
    seat = state.turn
    assert seat is not None, "a finished game has no moves"
    best_option = search_option(
        state,
        node_budget,
        math.inf,
        ANALYSIS_WEIGHTS,
        root_per_patch=_ROOT_PER_PATCH,
        pause=pause,
        best_first=True,
    ).option
    best, move = to_move(best_option), canonical_move(move)
    after = margin(
        position_value(apply_move(state, move, seat), seat, node_budget, ANALYSIS_WEIGHTS, pause, True)
    )
    before = (
        after
        if best == move
        else margin(
            position_value(play(state, best_option), seat, node_budget, ANALYSIS_WEIGHTS, pause, True)
        )
    )
    if after > before:
        before, best = after, move
    loss = before - after
    return MoveAnalysis(number, seat, before, after, best, loss, classify(loss))


def analyse_game(
    start: GameState,
    moves: Sequence[Move],
    node_budget: int,
    between: Callable[[], None] = lambda: None,
    pause: Callable[[], None] | None = None,
) -> list[MoveAnalysis]:
    """Every move of a game from `start` analysed (a resignation or timeout ends it unanalysed).

    `between` runs before each move's analysis, `pause` every few hundred
    nodes of its searches (search.py): a bot worker plays the bot moves
    that came meanwhile there, so a bot move waits for no search. The
    searches go on afterwards where they were: the analysis is the same.
    """
    analysed = []
    state = start
    for number, move in enumerate(moves, 1):
        if isinstance(move, Resign | Timeout | Abort) or state.finished:
            break
        between()
        analysed.append(analyse_move(state, move, number, node_budget, pause))
        state = apply_move(state, move, state.turn)
    return analysed


def summary(analysed: Sequence[MoveAnalysis]) -> list[dict[str, object]]:
    """Per seat: accuracy (percent of its moves with no class), mistakes and blunders."""
    seats: list[dict[str, object]] = []
    for seat in (0, 1):
        own = [m for m in analysed if m.seat == seat]
        clean = sum(1 for m in own if m.label is None)
        seats.append(
            {
                "accuracy": round(100 * clean / len(own), 1) if own else 100.0,
                "inaccuracies": sum(1 for m in own if m.label == "inaccuracy"),
                "mistakes": sum(1 for m in own if m.label == "mistake"),
                "blunders": sum(1 for m in own if m.label == "blunder"),
            }
        )
    return seats
