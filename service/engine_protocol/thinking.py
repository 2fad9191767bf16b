"""What `patchwork-engine` plays for a `go`: a bot level's move, in the time the command allows, stoppable.

The budget follows the bot workers' policy (service/bots/time_budget.py):
`movetime` is taken as given; clocks give the level's own think_ms cut to
a share of the mover's bank; with neither, the level's think_ms.

A search is stopped through choose_move's `pause` callback, which a
searching level calls every few dozen nodes: on `stop` it raises the
search's StopSearch, and the search returns the best move of what it
searched, as when its own node budget or clock runs out
(service/bots/search.py). That is within a millisecond or so of the
`stop`, which is what the protocol promises: the best move found so far,
at once.
"""

from __future__ import annotations

import threading

from service.bots import Level, choose_move, seed_for
from service.bots.search import StopSearch
from service.bots.time_budget import clock_budget_ms
from service.engine import GameState, Move

from .commands import Go, Position


def think_ms(go: Go, level: Level, seat: int) -> int:
    """How long the level may think about seat's move for this `go`."""
    if go.movetime_ms is not None:
        return max(1, go.movetime_ms)
    if go.time_ms is None:
        return level.think_ms
    increment = 0 if go.increment_ms is None else go.increment_ms[seat]
    return clock_budget_ms(level.think_ms, go.time_ms[seat], increment)


def seed_of(position: Position) -> int:
    """The random level's seed for a position: the same position, the same move, in any process."""
    return seed_for(position.line(), len(position.moves))


def best_move(
    state: GameState,
    position: Position,
    level: Level,
    budget_ms: int,
    nodes_per_ms: float,
    stopped: threading.Event,
) -> tuple[Move, bool]:
    """The level's move in state (the position's game) within budget_ms; True with it when `stopped` cut it short."""
    seed = seed_of(position)

    def pause() -> None:
        if stopped.is_set():
            raise StopSearch

    move = choose_move(state, level.id, seed, think_ms=budget_ms, nodes_per_ms=nodes_per_ms, pause=pause)
    return move, stopped.is_set()
