"""The frozen game state, whose turn it is, scoring, and setting up a game."""

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import InvalidSetup
from .patches import PATCHES
from .quilt import BOARD_SIZE, CELL_COUNT, cell_indexes, empty_cell_count
from .track import LEATHER_SPACES, TIME_BOARDS, TRACK_END

START_BUTTONS = 5
BONUS_POINTS = 7
MARKET_SIZE = 3
MAX_SEED = 2**53 - 1
CHOOSE = "choose"
PLACE_LEATHER = "place_leather"
# Why a game ended: played out (both tokens on 53), given up by a seat, lost
# on time by a seat, or called off before its first move (the service's
# clocks decide the last two; the rules only record them).
COMPLETED = "completed"
RESIGNED = "resigned"
TIMEOUT = "timeout"
ABORTED = "aborted"
# The 1x2 patch: the neutral token starts just clockwise of it.
LAST_PATCH_ID = 1


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One seat: buttons, time-track position, income, quilt and its pieces."""

    buttons: int = START_BUTTONS
    position: int = 0
    income: int = 0
    quilt: int = 0
    # (patch id, mask) per piece sewn on, in order; 0 is a leather patch.
    pieces: tuple[tuple[int, int], ...] = ()
    # Leather patches won and not yet placed (placed at once, before anyone acts).
    leather_to_place: int = 0

    @property
    def empty_cells(self) -> int:
        """Cells of the quilt not covered by any patch."""
        return empty_cell_count(self.quilt)


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final scores of both seats, the winning seat, and why the game ended."""

    scores: tuple[int, int]
    winner: int | None  # None only for an aborted game
    reason: str = COMPLETED  # COMPLETED, RESIGNED, TIMEOUT or ABORTED


@dataclass(frozen=True, slots=True, kw_only=True)
class GameState:
    """A whole game position; apply_move returns a new one, never changes this (built with keywords)."""

    circle: tuple[int, ...]
    players: tuple[PlayerState, PlayerState] = (PlayerState(), PlayerState())
    time_board: str = "revised"
    first_player: int = 0
    seed: int | None = None
    # The seat whose token arrived last: it acts when both share a space.
    on_top: int = 0
    leather_spaces: tuple[int, ...] = LEATHER_SPACES["revised"]
    bonus_owner: int | None = None
    moves_played: int = 0
    # The seat that reached space 53 first: it wins a tie.
    first_to_end: int | None = None
    # The seat that resigned: the game is over and the other seat wins.
    resigned: int | None = None
    # The seat whose time ran out (the other wins), and whether the game was
    # aborted (nobody wins): ends that a clock decides, outside the rules.
    timed_out: int | None = None
    aborted: bool = False

    @property
    def stopped(self) -> bool:
        """True once the game ended before its play did: resigned, lost on time or aborted."""
        return self.resigned is not None or self.timed_out is not None or self.aborted

    @property
    def market(self) -> tuple[int, ...]:
        """The patches that may be bought: the first three of the circle."""
        return self.circle[:MARKET_SIZE]

    @property
    def turn(self) -> int | None:
        """The seat that acts next, or None when the game is finished."""
        if self.resigned is not None or self.timed_out is not None or self.aborted:
            return None
        p0, p1 = self.players
        if p0.leather_to_place:
            return 0
        if p1.leather_to_place:
            return 1
        a, b = p0.position, p1.position
        if a == TRACK_END:
            return None if b == TRACK_END else 1
        if b == TRACK_END or a < b:
            return 0
        if b < a:
            return 1
        return self.on_top

    @property
    def phase(self) -> str | None:
        """The phase: "choose" (buy or advance), "place_leather", or None when finished."""
        if self.resigned is not None or self.timed_out is not None or self.aborted:
            return None
        p0, p1 = self.players
        if p0.leather_to_place or p1.leather_to_place:
            return PLACE_LEATHER
        if p0.position == TRACK_END and p1.position == TRACK_END:
            return None
        return CHOOSE

    @property
    def finished(self) -> bool:
        """True once the game stopped (resigned, lost on time, aborted), or both tokens are on 53 and no leather patch is left to place."""
        return self.phase is None

    def score(self, seat: int) -> int:
        """Buttons + 7 with the bonus tile - 2 per empty cell (what seat scores now)."""
        player = self.players[seat]
        bonus = BONUS_POINTS if self.bonus_owner == seat else 0
        return player.buttons + bonus - 2 * player.empty_cells

    @property
    def result(self) -> Outcome | None:
        """The Outcome when finished (ties go to the first to reach 53), else None.

        A resigned game, or one lost on time, shows the scores as they stood;
        the other seat wins whatever they say. An aborted game has no winner.
        """
        if not self.finished:
            return None
        scores = (self.score(0), self.score(1))
        if self.resigned is not None:
            return Outcome(scores, 1 - self.resigned, RESIGNED)
        if self.timed_out is not None:
            return Outcome(scores, 1 - self.timed_out, TIMEOUT)
        if self.aborted:
            return Outcome(scores, None, ABORTED)
        if scores[0] != scores[1]:
            winner = 0 if scores[0] > scores[1] else 1
        else:
            # Both tokens are on 53 (finished), so one of them got there first.
            assert self.first_to_end is not None
            winner = self.first_to_end
        return Outcome(scores, winner)

    def quilt_grid(self, seat: int) -> list[list[int | None]]:
        """9 rows of 9: None for an empty cell, 0 for leather, else the covering patch id."""
        cells: list[int | None] = [None] * CELL_COUNT
        for patch_id, mask in self.players[seat].pieces:
            for index in cell_indexes(mask):
                cells[index] = patch_id
        return [cells[start : start + BOARD_SIZE] for start in range(0, CELL_COUNT, BOARD_SIZE)]


def seeded_patch_order(seed: int) -> tuple[int, ...]:
    """The circle a seed makes: random.Random(seed) shuffles 2..33, then the 1x2 (id 1)."""
    order = [pid for pid in sorted(PATCHES) if pid != LAST_PATCH_ID]
    random.Random(seed).shuffle(order)
    order.append(LAST_PATCH_ID)
    return tuple(order)


def _check_patch_order(patch_order: Iterable[int]) -> tuple[int, ...]:
    try:
        order = tuple(patch_order)
    except TypeError:
        raise InvalidSetup(
            "patch_order {order} is not a list of patch ids", order=repr(patch_order)
        ) from None
    if any(type(pid) is not int for pid in order) or sorted(order) != sorted(PATCHES):
        raise InvalidSetup(
            "patch_order {order} is not a permutation of the patch ids 1..33", order=repr(list(order))
        )
    if order[-1] != LAST_PATCH_ID:
        raise InvalidSetup(
            "patch_order must end with the 1x2 patch (id {last}), not {found}",
            last=LAST_PATCH_ID,
            found=order[-1],
        )
    return order


def new_game(
    *,
    seed: int | None = None,
    patch_order: Iterable[int] | None = None,
    first_player: int = 0,
    time_board: str = "revised",
) -> GameState:
    """A new game from a seed or an explicit patch order (neither: a random seed)."""
    if seed is not None and patch_order is not None:
        raise InvalidSetup("give either seed or patch_order, not both")
    if type(first_player) is not int or first_player not in (0, 1):
        raise InvalidSetup("first_player {first} is not 0 or 1", first=repr(first_player))
    if time_board not in TIME_BOARDS:
        raise InvalidSetup(
            "time_board {board} is not one of {boards}", board=repr(time_board), boards=", ".join(TIME_BOARDS)
        )
    if patch_order is not None:
        circle = _check_patch_order(patch_order)
    else:
        if seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        elif type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise InvalidSetup("seed {seed} is not an integer in 0..2**53-1", seed=repr(seed))
        circle = seeded_patch_order(seed)
    return GameState(
        circle=circle,
        time_board=time_board,
        first_player=first_player,
        seed=seed,
        on_top=first_player,
        leather_spaces=LEATHER_SPACES[time_board],
    )
