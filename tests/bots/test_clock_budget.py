"""How long a bot on a clock may think (botworker.worker.think_budget_ms), worked by hand.

The rule: keep 1.5 s in hand for the round trips, spend a twentieth of the
rest plus half the increment, never more than the level's own budget, and
never less than 1 ms.
"""

from __future__ import annotations

from dataclasses import replace

from service.botworker.worker import think_budget_ms
from service.engine import new_game
from service.games.clock import ClockSettings, ClockState
from service.games.records import Seat, create_record


def record_with(settings: ClockSettings | None, remaining_ms: int):
    record, _tokens = create_record(new_game(seed=1), (Seat("Bot", bot="search"), Seat("Bot", bot="search")))
    if settings is None:
        return record
    clock = ClockState((remaining_ms, remaining_ms), 0, 0, remaining_ms)
    return replace(record, clock=settings, clock_now=clock)


def test_without_a_clock_the_level_or_the_operator_decides():
    assert think_budget_ms(record_with(None, 0), "search", None) is None
    assert think_budget_ms(record_with(None, 0), "search", 50) == 50


def test_a_long_bank_leaves_the_levels_own_second():
    # 10 min: (600 - 1.5) s / 20 is far above search's 1000 ms.
    assert think_budget_ms(record_with(ClockSettings(initial_s=600), 600_000), "search", None) == 1000


def test_a_short_bank_cuts_the_thought_to_its_share():
    # 20 s and no increment: (20,000 - 1,500) / 20 = 925 ms.
    assert think_budget_ms(record_with(ClockSettings(initial_s=20), 20_000), "search", None) == 925
    # 5 s and 2 s back a move: 3,500 / 20 + 1,000 = 1,175, capped at the level's 1,000.
    assert (
        think_budget_ms(record_with(ClockSettings(initial_s=5, increment_s=2), 5_000), "search", None) == 1000
    )
    # An operator's shorter override still wins.
    assert think_budget_ms(record_with(ClockSettings(initial_s=20), 20_000), "search", 50) == 50


def test_a_bank_inside_the_reserve_plays_at_once():
    assert think_budget_ms(record_with(ClockSettings(initial_s=20), 1_000), "search", None) == 1


def test_correspondence_does_not_hurry_a_bot():
    assert think_budget_ms(record_with(ClockSettings(days_per_move=1), 86_400_000), "search", None) is None


def test_the_deep_level_is_cut_by_a_clock_as_search_is():
    for settings, bank in ((ClockSettings(initial_s=20), 20_000), (ClockSettings(initial_s=20), 1_000)):
        record = record_with(settings, bank)
        assert think_budget_ms(record, "deep", None) == think_budget_ms(record, "search", None)


def test_the_wait_for_a_worker_is_spent_before_the_budget():
    # The bank of 20 s ran from 0 (its flag falls at 20,000); the bot starts
    # thinking at 5,000 (its job waited 5 s): (15,000 - 1,500) / 20 = 675 ms.
    record = record_with(ClockSettings(initial_s=20), 20_000)
    assert think_budget_ms(record, "search", None, now_ms=5_000) == 675
    # Starting at 19,000, the 1 s left is inside the reserve: it plays at once.
    assert think_budget_ms(record, "search", None, now_ms=19_000) == 1
