"""The clock arithmetic on hand-worked sequences: no Redis, times given outright.

Times are Unix milliseconds as the store's clock would give them. Each
expected value is worked by hand from the rules of docs/api-guide.md#clocks:
a real-time bank runs while its seat is in turn (through consecutive turns
and leather placements), each of the seat's moves adds the increment, and no
bank runs before the first move; a correspondence seat has the whole
allowance each time it gets the turn.
"""

from __future__ import annotations

from service.games.clock import (
    DAY_MS,
    ClockSettings,
    ClockState,
    after_move,
    at_deadline,
    rfc3339_ms,
    start,
    view_of,
)

BLITZ = ClockSettings(initial_s=60, increment_s=2)


def test_a_new_real_time_game_waits_for_its_first_move_with_both_banks_whole():
    clock = start(BLITZ, 1_000)
    # The default first_move_s of real time is 60 s: aborted at 61 s.
    assert clock == ClockState((60_000, 60_000), None, 1_000, 61_000)


def test_real_time_through_a_game_with_consecutive_turns_and_its_last_move():
    created = start(BLITZ, 1_000)
    # Seat 0's first move at 5 s: no bank ran before it; +2 s increment; seat 1's bank runs.
    first = after_move(BLITZ, created, 0, 1, 5_000)
    assert first == ClockState((62_000, 60_000), 1, 5_000, 65_000)
    # Seat 1 moves at 8 s (3 s used, +2 s) and is still behind: its bank runs on.
    second = after_move(BLITZ, first, 1, 1, 8_000)
    assert second == ClockState((62_000, 59_000), 1, 8_000, 67_000)
    # Seat 1 places a leather patch at 10 s (2 s used, +2 s), then seat 0 is in turn.
    third = after_move(BLITZ, second, 1, 0, 10_000)
    assert third == ClockState((62_000, 59_000), 0, 10_000, 72_000)
    # Seat 0's last move at 20 s (10 s used, +2 s) ends the game: nothing runs.
    last = after_move(BLITZ, third, 0, None, 20_000)
    assert last == ClockState((54_000, 59_000), None, 20_000, None)


def test_a_resignation_out_of_turn_charges_the_running_seat_and_earns_no_increment():
    running = ClockState((62_000, 59_000), 1, 8_000, 67_000)
    # Seat 0 resigns at 9 s while seat 1 thinks: seat 1's second is charged.
    resigned = after_move(BLITZ, running, 0, None, 9_000, increment=False)
    assert resigned == ClockState((62_000, 58_000), None, 9_000, None)


def test_a_flag_falls_at_the_deadline_with_the_running_bank_empty():
    running = ClockState((62_000, 59_000), 1, 8_000, 67_000)
    assert not running.expired(66_999) and running.expired(67_000)
    fallen = at_deadline(BLITZ, running, 67_400)
    assert fallen == ClockState((62_000, 0), None, 67_400, None)


def test_correspondence_gives_the_seat_in_turn_its_whole_allowance_each_time():
    post = ClockSettings(days_per_move=2)
    created = start(post, 0)
    # The first move is awaited as long as a move: 2 days.
    assert created == ClockState((2 * DAY_MS, 2 * DAY_MS), None, 0, 2 * DAY_MS)
    first = after_move(post, created, 0, 1, DAY_MS)
    assert first == ClockState((2 * DAY_MS, 2 * DAY_MS), 1, DAY_MS, 3 * DAY_MS)
    # Seat 1 acts again (behind on the track) half a day later: two days from then.
    again = after_move(post, first, 1, 1, DAY_MS + DAY_MS // 2)
    assert again.deadline_ms == 3 * DAY_MS + DAY_MS // 2 and again.running == 1


def test_first_move_seconds_is_the_abort_deadline_when_given():
    settings = ClockSettings(initial_s=300, first_move_s=15)
    assert start(settings, 1_000).deadline_ms == 16_000
    assert settings.to_json() == {"initial_s": 300, "increment_s": 0, "first_move_s": 15}
    assert ClockSettings.from_json(settings.to_json()) == settings


def test_rfc3339_with_milliseconds_across_calendar_edges():
    assert rfc3339_ms(0) == "1970-01-01T00:00:00.000Z"
    assert rfc3339_ms(951_782_400_123) == "2000-02-29T00:00:00.123Z"  # a leap day of a century year
    assert rfc3339_ms(4_107_542_399_999) == "2100-02-28T23:59:59.999Z"  # 2100 is no leap year


def test_the_clock_as_game_clock_shows_it():
    running = ClockState((62_000, 59_000), 1, 8_000, 67_000)
    assert view_of(BLITZ, running) == {
        "initial_s": 60,
        "increment_s": 2,
        "first_move_s": 60,
        "remaining_ms": [62_000, 59_000],
        "running": 1,
        "deadline": "1970-01-01T00:01:07.000Z",
    }
    assert view_of(BLITZ, ClockState((54_000, 59_000), None, 20_000, None))["deadline"] is None
