"""The catalogue of computer players and `choose_move`, the one entry point to them.

A bot's move is a function of the position, the level and a seed (see
`seed_for`): `random` draws with the seed, `greedy` and the searching
levels are deterministic and ignore it. A searching level's effort is a
node budget of `think_ms * nodes_per_ms`; its wall-clock cap is 95% of
`think_ms`. `nodes_per_ms` is the machine's: a bot worker measures it when
it starts (`calibration.py`) or takes the operator's `BOT_NODES_PER_MS`, so
a level fills the time it advertises on the machine it runs on, and its
moves are the same for the same calibration. NODES_PER_MS is the default
of a caller that has not measured (tests, hints).
"""

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from hashlib import blake2b

from service.engine import GameFinished, GameState, Move

from .evaluation import DEEP_WEIGHTS, DEFAULT_WEIGHTS
from .greedy import greedy_option
from .options import to_move
from .random_bot import random_move
from .search import search_option

# Search nodes per millisecond of think_ms for a caller that has not
# calibrated (tests, the arena with --nodes-per-ms unset measures instead):
# bot workers plan with their own measurement (calibration.py), which on the
# project's 2-core machine is 30 to 80 depending on the load.
NODES_PER_MS = 30
# The clock cap as a share of think_ms: a busy machine may not run the
# process again for a while after the cap fires, and the p99 promise is
# think_ms + 10% (the arena measured p99 +9% with the cap at think_ms itself).
CLOCK_CAP_SHARE = 0.95


RANDOM, GREEDY, SEARCH, DEEP = "random", "greedy", "search", "deep"
# The kinds whose effort is a node budget (calibrated in nodes per ms).
SEARCHING = (SEARCH, DEEP)


class UnknownLevel(KeyError):
    """No bot level has this id."""


@dataclass(frozen=True, slots=True)
class Level:
    """One computer player: what GET /bots lists about it."""

    id: str
    description: str
    # The think time promised per move (milliseconds); searching levels fill it.
    think_ms: int
    # True when the level may be asked for hints (cheap enough to answer at once).
    hint: bool
    # How it plays: RANDOM, GREEDY, SEARCH or DEEP.
    kind: str

    def public(self) -> dict[str, object]:
        """The level as GET /bots lists it."""
        return {"id": self.id, "description": self.description, "think_ms": self.think_ms, "hint": self.hint}


# Weakest first, as GET /bots lists them.
LEVELS: tuple[Level, ...] = (
    Level("random", "Plays a legal move drawn at random.", think_ms=10, hint=True, kind=RANDOM),
    Level(
        "greedy",
        "Takes the move that looks best right now (one move ahead, by a static evaluation).",
        think_ms=100,
        hint=True,
        kind=GREEDY,
    ),
    Level(
        "search-quick",
        "Looks several moves ahead for a quarter of a second.",
        think_ms=250,
        hint=False,
        kind=SEARCH,
    ),
    Level("search", "Looks several moves ahead for about a second.", think_ms=1000, hint=False, kind=SEARCH),
    Level(
        "deep",
        "Looks further ahead than search in the same second, trying the likeliest best moves first, and"
        " judges positions by weights fitted to the final scores of its own games.",
        think_ms=1000,
        hint=False,
        kind=DEEP,
    ),
)
_BY_ID = {level.id: level for level in LEVELS}


def level(level_id: str) -> Level:
    """The level with this id; UnknownLevel if there is none."""
    try:
        return _BY_ID[level_id]
    except KeyError:
        raise UnknownLevel(f"no bot level {level_id!r}; the levels are {', '.join(_BY_ID)}") from None


def seed_for(game_id: str, version: int) -> int:
    """A bot's seed for the move after version of game_id: stable across processes."""
    digest = blake2b(f"{game_id}:{version}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def choose_move(
    state: GameState,
    level_id: str,
    seed: int,
    think_ms: int | None = None,
    clock_cap: bool = True,
    nodes_per_ms: float = NODES_PER_MS,
    pause: Callable[[], None] | None = None,
) -> Move:
    """The move level_id plays in state (think_ms overrides the level's own budget).

    Play the returned move with the checked `apply_move`, like any other.
    clock_cap=False lets a search use its whole node budget however long it
    takes (the arena measures strength that way on a busy machine).
    nodes_per_ms: the calibration a searching level's node budget is made of.
    pause: called inside a searching level's search every few dozen nodes,
    where the caller may do other work (search.py); the time it takes there
    is added to the clock cap.
    """
    chosen = level(level_id)
    if state.finished:
        raise GameFinished("the game is finished: bot {bot} has no move", bot=repr(level_id))
    if chosen.kind == RANDOM:
        return random_move(state, seed)
    if chosen.kind == GREEDY:
        return to_move(greedy_option(state))
    budget_ms = chosen.think_ms if think_ms is None else think_ms
    deadline = time.perf_counter() + CLOCK_CAP_SHARE * budget_ms / 1000 if clock_cap else math.inf
    nodes = max(1, int(budget_ms * nodes_per_ms))
    deep = chosen.kind == DEEP
    weights = DEEP_WEIGHTS if deep else DEFAULT_WEIGHTS
    chosen_option = search_option(
        state, nodes, deadline, weights, pause=pause, best_first=deep, reduce_late=deep
    ).option
    return to_move(chosen_option)
