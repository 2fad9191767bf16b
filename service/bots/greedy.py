"""The `greedy` level: one ply over every legal move, judged by the static evaluation."""

from service.engine import GameState

from .evaluation import DEFAULT_WEIGHTS, Weights, evaluate
from .options import every_option, play


def greedy_option(state: GameState, weights: Weights = DEFAULT_WEIGHTS) -> tuple[int, int, int]:
    """The option whose next state evaluates best for the mover; the first such on a tie."""
    seat = state.turn
    best_option, best_value = None, None
    for option in every_option(state):
        value = evaluate(play(state, option), seat, weights)
        if best_value is None or value > best_value:
            best_option, best_value = option, value
    return best_option
