"""Clocks in the game-play core: time charged by the store's clock, deadlines, timeouts and aborts.

On a real store (single node and cluster). Clocks here are shorter than the
API allows (the contract's minimums are for people): the core takes any
ClockSettings, and a test should not wait ten seconds for a flag to fall.
"""

from __future__ import annotations

import json
import threading
import time

import pytest

from service.engine import Advance
from service.games import GamePlay, RuleBroken
from service.games.clock import ClockSettings
from service.storage import Storage

# One second a seat, no increment, a second to wait for the first move.
SHORT = ClockSettings(initial_s=1, increment_s=0, first_move_s=1)


def clock_of(play: GamePlay, game_id: str) -> dict:
    return json.loads(play.view(game_id).view)["clock"]


def state_clock(play: GamePlay, game_id: str):
    clock = play.load(game_id).record.clock_now
    assert clock is not None
    return clock


def test_a_new_clocked_game_waits_for_its_first_move_and_shows_so(play: GamePlay):
    created = play.create(("Ada", "Bo"), clock=ClockSettings(initial_s=300, increment_s=5), seed=3)
    view = json.loads(created.view)["clock"]
    assert view["remaining_ms"] == [300_000, 300_000] and view["running"] is None
    assert view == clock_of(play, created.game_id)  # the 201's body is the stored one
    clock = state_clock(play, created.game_id)
    # Aborted 60 s (the real-time default) after its creation, by the store's clock.
    assert clock.deadline_ms == clock.since_ms + 60_000
    assert (view["initial_s"], view["increment_s"], view["first_move_s"]) == (300, 5, 60)


def test_each_move_is_charged_by_the_store_and_the_view_is_a_function_of_its_version(play: GamePlay):
    created = play.create(("Ada", "Bo"), clock=ClockSettings(initial_s=300, increment_s=5), seed=3)
    first = play.play(created.game_id, Advance(), created.tokens[0])
    # No bank ran before the first move; it earned its increment; seat 1's bank runs now.
    assert json.loads(first.view)["clock"]["remaining_ms"] == [305_000, 300_000]
    time.sleep(0.25)
    second = play.play(created.game_id, Advance(), created.tokens[1])
    after = json.loads(second.view)["clock"]
    used = 300_000 + 5_000 - after["remaining_ms"][1]
    # The time slept, by the store's clock as this process reckons it (store_time.py): within
    # the few milliseconds a round trip takes here.
    assert 240 <= used < 5_000, used
    clock = state_clock(play, created.game_id)
    assert clock.running == after["running"] == 0
    assert clock.deadline_ms == clock.since_ms + 305_000
    # Each version reads back as it was answered.
    assert play.view_at(created.game_id, 2)[1].view == first.view
    assert play.view_at(created.game_id, 3)[1].view == second.view


def test_a_move_after_the_deadline_is_refused_and_the_game_is_lost_on_time(play: GamePlay):
    created = play.create(("Ada", "Bo"), clock=SHORT, seed=3)
    play.play(created.game_id, Advance(), created.tokens[0])  # seat 1's second starts now
    time.sleep(1.2)
    with pytest.raises(RuleBroken) as refused:
        play.play(created.game_id, Advance(), created.tokens[1])
    assert refused.value.code == "game_finished"
    game = json.loads(play.view(created.game_id).view)
    assert game["result"]["reason"] == "timeout" and game["result"]["winner"] == 0
    assert game["clock"]["remaining_ms"][1] == 0 and game["clock"]["deadline"] is None
    _version, entries = play.history(created.game_id)
    assert json.loads(entries[-1])["action"] == "timeout" and json.loads(entries[-1])["seat"] == 1
    assert refused.value.version == game["version"]


def test_an_expiry_is_applied_once_at_its_deadline_however_many_try(play: GamePlay, other_process):
    created = play.create(("Ada", "Bo"), clock=SHORT, seed=3)
    play.play(created.game_id, Advance(), created.tokens[0])
    deadline = state_clock(play, created.game_id).deadline_ms
    assert deadline is not None
    # Not before it: whatever time the caller names, the store's clock decides.
    early = play.expire(created.game_id, deadline + 10_000)
    assert early.applied is None and early.next_look_ms == deadline
    time.sleep(1.1)
    others = [other_process() for _ in range(4)]
    results = []
    start = threading.Barrier(len(others))

    def expire(keeper: GamePlay) -> None:
        start.wait()
        results.append(keeper.expire(created.game_id, deadline))

    threads = [threading.Thread(target=expire, args=(keeper,)) for keeper in others]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    applied = [result for result in results if result.applied is not None]
    assert len(applied) == 1 and applied[0].reason == "timeout"
    assert applied[0].lag_ms is not None and applied[0].lag_ms >= 0
    _version, entries = play.history(created.game_id)
    assert [json.loads(entry)["action"] for entry in entries] == ["advance", "timeout"]


def test_a_game_whose_first_move_never_comes_is_aborted_with_no_winner(play: GamePlay):
    created = play.create(("Ada", "Bo"), clock=SHORT, seed=3)
    time.sleep(1.1)
    expiry = play.expire(created.game_id, state_clock(play, created.game_id).deadline_ms or 0)
    assert expiry.applied is not None and expiry.reason == "aborted"
    game = json.loads(play.view(created.game_id).view)
    assert game["result"]["winner"] is None and game["result"]["reason"] == "aborted"
    assert game["clock"]["remaining_ms"] == [1_000, 1_000]  # no bank ever ran
    _version, entries = play.history(created.game_id)
    assert json.loads(entries[0])["action"] == "abort" and json.loads(entries[0])["seat"] == 0


def test_the_deadline_index_never_names_a_time_later_than_the_games_deadline(
    play: GamePlay, storage: Storage
):
    created = play.create(("Ada", "Bo"), clock=ClockSettings(initial_s=300, increment_s=5), seed=3)
    for seat in (0, 1, 0):
        play.play(created.game_id, Advance(), created.tokens[seat])
        deadline = state_clock(play, created.game_id).deadline_ms
        assert deadline is not None
        indexed = storage.deadlines.indexed(created.game_id)
        assert indexed is not None and indexed <= deadline


def test_a_process_whose_clock_is_off_still_charges_by_the_stores(play: GamePlay):
    created = play.create(("Ada", "Bo"), clock=ClockSettings(initial_s=300, increment_s=0), seed=3)
    play.play(created.game_id, Advance(), created.tokens[0])
    # This process now reckons the store's clock 30 s ahead (its own clock jumped, say):
    # the commit refuses the reckoning, and the move is written again for the store's time.
    reckoning = play.store._time  # type: ignore[attr-defined]
    reckoning.observe(play.store.now_ms() + 30_000, time.time())
    second = play.play(created.game_id, Advance(), created.tokens[1])
    used = 300_000 - json.loads(second.view)["clock"]["remaining_ms"][1]
    assert 0 <= used < 5_000, used
    assert abs(play.store.now_ms() - state_clock(play, created.game_id).since_ms) < 5_000
