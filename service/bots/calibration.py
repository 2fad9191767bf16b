"""How many search nodes a millisecond buys on this machine: what a bot worker measures when it starts.

A searching level's budget is `think_ms * nodes_per_ms` nodes. A constant
would be right on one machine only: too low and the level stops long
before its advertised time (it plays weaker than it says), too high and
the clock cap, not the node budget, ends every search (its moves then
depend on the load). So a worker searches a few fixed positions for a
moment, in CPU time (what a niced process gets of a core is the load's
business, and the clock cap's), and plays with a share of that rate: on
an idle core the nodes run out a little before the cap.

The result is rounded to a whole number of nodes per ms: the moves are a
function of the position, the level, the seed and that number, so two
workers with the same calibration play the same moves.
"""

import time
from functools import cache

from service.engine import GameState, apply_move, new_game

from .greedy import greedy_option
from .options import to_move
from .search import search_option

# The share of the measured rate a level plans for: the rest is margin for
# the node budget to end a search before the clock cap (95% of think_ms) does.
FILL_SHARE = 0.85
# The positions searched: every few moves of a fixed greedy game.
_GAME_SEED = 0
_EVERY = 6


@cache
def _positions() -> tuple[GameState, ...]:
    state = new_game(seed=_GAME_SEED)
    found = []
    while not state.finished:
        if state.phase == "choose" and state.moves_played % _EVERY == 0:
            found.append(state)
        state = apply_move(state, to_move(greedy_option(state)))
    return tuple(found)


def measure_nodes_per_ms(seconds: float = 0.4) -> int:
    """The nodes per CPU millisecond a level should plan for here, measured for about `seconds`.

    Every searching level runs the same search, so one rate serves them
    all: `deep` adds one term to the evaluation of its leaves, 5-10% fewer
    nodes per ms, which the FILL_SHARE margin covers.
    """
    positions = _positions()
    per_search = seconds / len(positions)
    nodes, cpu = 0, 0.0
    for state in positions:
        started = time.process_time()
        nodes += search_option(state, 10**9, time.perf_counter() + per_search).nodes
        cpu += time.process_time() - started
    return max(1, round(FILL_SHARE * nodes / max(cpu * 1000, 1e-3)))
