"""Pausing a correspondence clock for a vacation (GamePlay.pause, site/vacations.py): once, taken back in
part by an early end, and repaired by the timekeeper when a process died before pausing a game."""

from __future__ import annotations

from service.engine import Advance
from service.games import KeptCopies
from service.games.clock import DAY_MS, ClockSettings
from service.games.values import Holder, Seating
from service.site.core import site_core
from service.storage import Storage

BOB = Holder("B" * 22, "Bo", "b" * 64)
PLAYERS = Seating(holders=(Holder("A" * 22, "Ada", "a" * 64), BOB))


def _started(storage: Storage, clock: ClockSettings):
    core = site_core(storage, KeptCopies(0))
    created = core.play.create(("Ada", "Bo"), clock=clock, seating=PLAYERS, seed=3)
    core.play.play(created.game_id, Advance(), created.tokens[0])
    return core.play, created.game_id


def _deadline(play, game_id) -> int:
    clock = play.load(game_id).record.clock_now
    assert clock is not None and clock.deadline_ms is not None
    return clock.deadline_ms


def test_a_pause_moves_the_deadline_once_and_an_early_end_takes_back_the_rest(storage: Storage):
    play, game_id = _started(storage, ClockSettings(days_per_move=2))
    deadline, now = _deadline(play, game_id), play.now_ms()
    assert play.pause(game_id, BOB.id, now, now + 3 * DAY_MS)
    assert play.pause(game_id, BOB.id, now, now + 3 * DAY_MS)  # asked again: nothing more
    assert _deadline(play, game_id) == deadline + 3 * DAY_MS
    assert storage.deadlines.indexed(game_id) is not None
    # Ended after an hour: the deadline keeps that hour, and the index is lowered to the new next look.
    assert play.pause(game_id, BOB.id, now, now + 3_600_000)
    assert _deadline(play, game_id) == deadline + 3_600_000
    indexed = storage.deadlines.indexed(game_id)
    assert indexed is not None and indexed <= deadline + 3_600_000
    # Not the player in turn, or a real-time game: nothing pauses.
    assert not play.pause(game_id, "A" * 22, now, now + DAY_MS)
    fast, fast_id = _started(storage, ClockSettings(initial_s=600))
    assert not fast.pause(fast_id, BOB.id, now, now + DAY_MS)


def test_a_game_left_unpaused_by_a_dead_process_is_paused_by_the_timekeeper_not_lost(storage: Storage):
    play, game_id = _started(storage, ClockSettings(days_per_move=1))
    deadline = _deadline(play, game_id)
    # The vacation is in the player's record, and the process died before pausing the game.
    _answer, since, until, _left = storage.players.vacation(BOB.id, "start", 14, 3)
    expiry = play.expire(game_id, deadline)
    assert expiry.applied is None
    record = play.load(game_id).record
    assert not record.state.finished and record.pause is not None
    assert _deadline(play, game_id) == deadline + (until - max(since, record.clock_now.since_ms))
    assert expiry.next_look_ms is not None and expiry.next_look_ms > deadline
