"""A bot's moves as small tuples on masks, played through the engine's unchecked path.

An option is `(kind, patch_id, mask)`: ADVANCE (0, 0), BUY (patch id, the
placement's mask) or LEATHER (0, the cell's bit). Search plays options with
`play_*`; only the move a bot finally commits becomes an engine `Move`
(`to_move`), which the caller plays through the checked `apply_move`.
"""

import heapq
from collections.abc import Callable
from functools import cache, lru_cache

from service.engine import (
    PATCHES,
    Advance,
    GameState,
    Move,
    PlaceLeather,
    play_advance,
    play_buy,
    play_leather,
)
from service.engine.placements import PLACEMENT_MASKS, canonical_buy
from service.engine.quilt import BOARD_SIZE, CELL_COUNT
from service.engine.state import MARKET_SIZE, PLACE_LEATHER

from .evaluation import DEFAULT_WEIGHTS, Weights, blocked_sides, buy_gains, shape_terms

ADVANCE, BUY, LEATHER = 0, 1, 2
ADVANCE_OPTION = (ADVANCE, 0, 0)
_CELL_BITS = tuple(1 << cell for cell in range(CELL_COUNT))


def play(state: GameState, option: tuple[int, int, int]) -> GameState:
    """The state after option, unchecked (the option must be legal)."""
    kind, patch_id, mask = option
    if kind == BUY:
        return play_buy(state, patch_id, mask)
    if kind == ADVANCE:
        return play_advance(state)
    return play_leather(state, mask)


def to_move(option: tuple[int, int, int]) -> Move:
    """The engine Move of an option, with the canonical placement for a buy."""
    kind, patch_id, mask = option
    if kind == BUY:
        return canonical_buy(patch_id, mask)
    if kind == ADVANCE:
        return Advance()
    row, col = divmod(mask.bit_length() - 1, BOARD_SIZE)
    return PlaceLeather(row, col)


def _affordable_market(state: GameState, buttons: int) -> list[int]:
    return [pid for pid in state.circle[:MARKET_SIZE] if PATCHES[pid].cost <= buttons]


def every_option(state: GameState) -> list[tuple[int, int, int]]:
    """Every legal option of the seat in turn, in the order legal_moves lists them."""
    seat = state.turn
    assert seat is not None, "a finished game has no options"
    player = state.players[seat]
    quilt = player.quilt
    if state.phase == PLACE_LEATHER:
        return [(LEATHER, 0, bit) for bit in _CELL_BITS if not bit & quilt]
    options = [ADVANCE_OPTION]
    for pid in _affordable_market(state, player.buttons):
        options += [(BUY, pid, mask) for mask in PLACEMENT_MASKS[pid] if not mask & quilt]
    return options


def contact(mask: int, blocked: tuple[int, int, int, int]) -> int:
    """How many sides of mask's cells touch covered cells or the board's edge."""
    right, left, down, up = blocked
    return (
        (mask & right).bit_count()
        + (mask & left).bit_count()
        + (mask & down).bit_count()
        + (mask & up).bit_count()
    )


@lru_cache(maxsize=1 << 16)
def snug_placements(quilt: int, patch_id: int, count: int) -> tuple[int, ...]:
    """The count best-fitting placements of patch_id on quilt, best first.

    Most contact with covered cells and the edge first (the same as the
    smallest empty perimeter afterwards, since a shape's own perimeter does
    not change when it turns); the leaders are then ranked again by the
    evaluation's shape terms, which also count the holes a placement leaves.
    Ties keep the engine's placement order, so the result is deterministic.
    """
    right, left, down, up = blocked_sides(quilt)
    # contact() written out: this loop is most of a search's time.
    fitting = [
        (
            -(
                (mask & right).bit_count()
                + (mask & left).bit_count()
                + (mask & down).bit_count()
                + (mask & up).bit_count()
            ),
            index,
            mask,
        )
        for index, mask in enumerate(PLACEMENT_MASKS[patch_id])
        if not mask & quilt
    ]
    leaders = [mask for _, _, mask in heapq.nsmallest(3 * count, fitting)]
    leaders.sort(key=lambda mask: _shape_cost(quilt | mask))
    return tuple(leaders[:count])


def _shape_cost(quilt: int) -> float:
    perimeter, holes = shape_terms(quilt)
    return DEFAULT_WEIGHTS.perimeter * perimeter + DEFAULT_WEIGHTS.hole * holes


@lru_cache(maxsize=1 << 14)
def snug_leather_cell(quilt: int) -> int:
    """The empty cell a leather patch fits best (most covered or edge sides), as a bit."""
    blocked = blocked_sides(quilt)
    return max((bit for bit in _CELL_BITS if not bit & quilt), key=lambda bit: contact(bit, blocked))


def shortlist(state: GameState, per_patch: int) -> list[tuple[int, int, int]]:
    """The options a search looks at: advance, the per_patch snuggest placements of each
    affordable market patch, or the one snuggest cell for a leather patch."""
    seat = state.turn
    assert seat is not None, "a finished game has no options"
    player = state.players[seat]
    quilt = player.quilt
    if state.phase == PLACE_LEATHER:
        return [(LEATHER, 0, snug_leather_cell(quilt))]
    options = [ADVANCE_OPTION]
    for pid in _affordable_market(state, player.buttons):
        options += [(BUY, pid, mask) for mask in snug_placements(quilt, pid, per_patch)]
    return options


@cache
def best_buy_first(weights: Weights) -> Callable[[GameState], list[tuple[int, int, int]]]:
    """For weights: ordered(state), `shortlist(state, 1)` with the buys that gain most first.

    The options in the order a search should try them: by what the buy adds
    to the evaluation (`buy_gains`), advance where a gain of 0 would stand,
    ties in market order. Alpha-beta cuts more when the best option comes
    first, and the best buy is most often the best option. Cached per
    (quilt, market, buttons, position), so the order costs less than
    `shortlist` itself, which a search calls at every node.
    """
    gains = buy_gains(weights)

    @lru_cache(maxsize=1 << 16)
    def ordered_options(
        quilt: int, market: tuple[int, ...], buttons: int, position: int
    ) -> tuple[tuple[int, int, int], ...]:
        ranked = [(0.0, ADVANCE_OPTION)]
        for pid in market:
            if PATCHES[pid].cost <= buttons:
                ranked += [
                    (-gains[pid][position], (BUY, pid, mask)) for mask in snug_placements(quilt, pid, 1)
                ]
        ranked.sort(key=lambda entry: entry[0])
        return tuple(option for _, option in ranked)

    def ordered(state: GameState) -> list[tuple[int, int, int]]:
        if state.phase == PLACE_LEATHER:
            return shortlist(state, 1)
        player = state.players[state.turn]  # type: ignore[index]
        return list(
            ordered_options(player.quilt, state.circle[:MARKET_SIZE], player.buttons, player.position)
        )

    return ordered
