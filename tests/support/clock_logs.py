"""Games made to expire, and the lag of each expiry read from the game's own clock log.

The lag is the store's time of the commit that applied the expiry less the
deadline it applied (both in the game's clock log, in the store's clock), so
no poll of the caller's blurs it. Shared by tests/system/test_timekeepers.py
and `./dev bench clocks`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from service.games import GamePlay
from service.games.clock import ClockSettings, ClockState
from service.storage import GameStore


def make_expiring_games(play: GamePlay, due_at: Sequence[float], *, threads: int = 8) -> list[str]:
    """One game per time in `due_at` (Unix seconds) whose first move never comes: aborted then.

    The clock starts at the creation and first_move_s is whole seconds: each
    deadline lands within half a second of its time.
    """

    def make(index: int) -> str:
        first_move_s = max(1, round(due_at[index] - time.time()))
        settings = ClockSettings(initial_s=600, first_move_s=first_move_s)
        return play.create(("A", "B"), clock=settings, seed=index).game_id

    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(make, range(len(due_at))))


def expiry_lag(games: GameStore, game_id: str) -> float | None:
    """Seconds from the game's first deadline to the commit that aborted it; None while it has not."""
    created, aborted = (games.load_clock(game_id, version) for version in (1, 2))
    if created is None or aborted is None:
        return None
    fallen, ended = (ClockState.from_log(json.loads(entry)) for entry in (created, aborted))
    assert fallen.deadline_ms is not None
    return (ended.since_ms - fallen.deadline_ms) / 1000


def first_deadline(games: GameStore, game_ids: Sequence[str]) -> float:
    """The earliest first-move deadline of the games, in Unix seconds (the store's clock)."""
    deadlines = []
    for game_id in game_ids:
        created = games.load_clock(game_id, 1)
        assert created is not None
        deadline_ms = ClockState.from_log(json.loads(created)).deadline_ms
        assert deadline_ms is not None
        deadlines.append(deadline_ms)
    return min(deadlines) / 1000
