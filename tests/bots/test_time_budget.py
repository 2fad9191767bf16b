"""The clock policy itself (service/bots/time_budget.py), worked by hand.

Keep 1.5 s in hand, spend a twentieth of the rest plus half the increment,
never more than the budget asked for and never less than 1 ms.
"""

from service.bots.time_budget import clock_budget_ms


def test_a_long_bank_leaves_the_whole_budget():
    # (600,000 - 1,500) / 20 = 29,925 ms: far above the 1,000 asked for.
    assert clock_budget_ms(1_000, 600_000, 0) == 1_000


def test_a_short_bank_gives_its_share():
    # (20,000 - 1,500) / 20 = 925 ms.
    assert clock_budget_ms(1_000, 20_000, 0) == 925
    # (11,500 - 1,500) / 20 = 500, plus half of a 300 ms increment: 650 ms.
    assert clock_budget_ms(1_000, 11_500, 300) == 650
    # (1,541 - 1,500) / 20 = 2.05, rounded down: 2 ms.
    assert clock_budget_ms(1_000, 1_541, 0) == 2


def test_the_budget_caps_the_share():
    # 3,500 / 20 + 2,000 / 2 = 1,175 ms, capped at 250.
    assert clock_budget_ms(250, 5_000, 2_000) == 250


def test_a_bank_inside_the_reserve_plays_at_once_whatever_the_increment():
    assert clock_budget_ms(1_000, 1_500, 0) == 1
    assert clock_budget_ms(1_000, 900, 10_000) == 1
    assert clock_budget_ms(1_000, -200, 0) == 1
