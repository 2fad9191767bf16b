"""The search's budget: nodes decide its depth, and the clock stops it when they do not."""

import math
import time

from service.bots import choose_move
from service.bots.options import shortlist
from service.bots.search import search_option
from service.engine import new_game


def test_the_clock_stops_a_search_whose_node_budget_would_last_for_hours():
    start = time.perf_counter()
    found = search_option(new_game(seed=2), node_budget=10**9, deadline=start + 0.05)
    # Generous: the contract allows think_ms + 1 s; a missing cap would run for hours.
    assert time.perf_counter() - start < 5
    assert 0 < found.nodes < 10**9
    assert found.option in shortlist(new_game(seed=2), 1)


def test_more_nodes_search_deeper_and_the_budget_is_kept():
    state = new_game(seed=2)
    small = search_option(state, node_budget=50, deadline=math.inf)
    large = search_option(state, node_budget=3000, deadline=math.inf)
    assert small.nodes <= 50 and large.nodes <= 3000
    assert large.depth > small.depth >= 1


def test_the_deep_level_stops_at_its_clock_cap_whatever_its_calibration():
    start = time.perf_counter()
    # A calibration of a million nodes per ms would search for hours without the cap.
    choose_move(new_game(seed=2), "deep", 0, think_ms=50, nodes_per_ms=10**6)
    assert time.perf_counter() - start < 5  # the contract's think_ms + 1 s, with room for a busy machine
