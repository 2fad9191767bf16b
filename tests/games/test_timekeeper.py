"""The timekeeper's tick on a real store: what it does with each entry of the deadline index, and what it counts.

In-process (the timekeeper is a process of its own, `patchwork-timekeeper`; tests/system/test_clocks.py
runs it for real, killed and raced). Clocks here are a second long.
"""

from __future__ import annotations

import json
import threading
import time

from prometheus_client import REGISTRY

from service.botworker.timekeeper import Timekeeper
from service.engine import Advance
from service.games import GamePlay
from service.games.clock import ClockSettings
from service.storage import Storage
from tests.support.bot_workers import wait_for

SHORT = ClockSettings(initial_s=1, first_move_s=1)


def expiries(reason: str) -> float:
    return REGISTRY.get_sample_value("patchwork_clock_expiries_total", {"reason": reason}) or 0.0


def lags() -> float:
    return REGISTRY.get_sample_value("patchwork_timekeeper_lag_seconds_count") or 0.0


def test_a_tick_ends_the_games_due_and_leaves_the_others(play: GamePlay, storage: Storage):
    keeper = Timekeeper(play, storage.deadlines)
    due = play.create(("Ada", "Bo"), clock=SHORT, seed=3)
    running = play.create(("Cy", "Di"), clock=SHORT, seed=3)
    play.play(running.game_id, Advance(), running.tokens[0])
    later = play.create(("Ed", "Flo"), clock=ClockSettings(initial_s=600, first_move_s=600), seed=3)
    aborted_before, timeouts_before, lags_before = expiries("aborted"), expiries("timeout"), lags()
    time.sleep(1.2)
    assert keeper.tick() == 2
    assert json.loads(play.view(due.game_id).view)["result"]["reason"] == "aborted"
    assert json.loads(play.view(running.game_id).view)["result"]["reason"] == "timeout"
    assert json.loads(play.view(later.game_id).view)["status"] == "active"
    assert (expiries("aborted") - aborted_before, expiries("timeout") - timeouts_before) == (1, 1)
    assert lags() - lags_before == 2
    # Their entries are gone; the later game's stays, at its deadline.
    assert (
        storage.deadlines.indexed(due.game_id) is None and storage.deadlines.indexed(running.game_id) is None
    )
    later_clock = play.load(later.game_id).record.clock_now
    assert later_clock is not None and storage.deadlines.indexed(later.game_id) == later_clock.deadline_ms
    assert keeper.tick() == 0  # nothing twice


def test_an_entry_earlier_than_its_games_deadline_is_moved_to_it(play: GamePlay, storage: Storage):
    keeper = Timekeeper(play, storage.deadlines)
    created = play.create(("Ada", "Bo"), clock=ClockSettings(initial_s=600, first_move_s=600), seed=3)
    storage.deadlines.schedule(created.game_id, 1)  # a hint far too early: due at once
    assert keeper.tick() == 0
    clock = play.load(created.game_id).record.clock_now
    assert clock is not None and storage.deadlines.indexed(created.game_id) == clock.deadline_ms
    assert json.loads(play.view(created.game_id).view)["status"] == "active"


def test_run_ticks_at_once_and_stops_when_told(play: GamePlay, storage: Storage):
    # A timekeeper started in place of a killed one may find deadlines already due:
    # it must not wait a tick (here a minute) before it looks.
    due = play.create(("Ada", "Bo"), clock=SHORT, seed=3)
    time.sleep(1.2)
    keeper = Timekeeper(play, storage.deadlines, tick_seconds=60)
    thread = threading.Thread(target=keeper.run, daemon=True)
    thread.start()
    try:
        wait_for(
            lambda: json.loads(play.view(due.game_id).view)["status"] == "finished",
            10,
            "the due game was not aborted by the first tick",
        )
    finally:
        keeper.stop()
        thread.join(10)
    assert not thread.is_alive()
