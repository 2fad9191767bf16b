"""The calibration a worker plans with: measured here or configured, and the moves a function of it."""

import json
import math

import pytest

from service.bots import choose_move
from service.bots.calibration import measure_nodes_per_ms
from service.bots.options import to_move
from service.bots.search import search_option
from service.botworker.spent import SpentTimes
from service.config import ConfigError, Settings
from service.engine import apply_move, new_game


def test_the_measured_rate_is_a_whole_number_of_nodes_a_level_can_plan_with():
    rate = measure_nodes_per_ms(seconds=0.1)
    assert isinstance(rate, int) and rate >= 1


def test_a_calibration_changes_the_move_only_through_its_node_budget():
    # choose_move plans think_ms * nodes_per_ms nodes: the same move as a search of that budget.
    state = new_game(seed=4)
    for nodes_per_ms in (2, 40):
        expected = search_option(state, 20 * nodes_per_ms, math.inf).option
        chosen = choose_move(state, "search", 0, 20, clock_cap=False, nodes_per_ms=nodes_per_ms)
        assert chosen == choose_move(state, "search", 1, 20, clock_cap=False, nodes_per_ms=nodes_per_ms)
        assert chosen == to_move(expected)
    assert search_option(state, 20 * 40, math.inf).depth > search_option(state, 20 * 2, math.inf).depth


@pytest.mark.parametrize("level_id", ["search-quick", "search", "deep"])
def test_the_same_calibration_gives_the_same_move(level_id):
    state = new_game(seed=11)
    for _ in range(9):
        state = apply_move(state, choose_move(state, "greedy", 0))
    moves = {choose_move(state, level_id, 7, 20, clock_cap=False, nodes_per_ms=60) for _ in range(3)}
    assert len(moves) == 1


def test_the_operator_can_set_the_calibration_and_nonsense_is_refused():
    assert Settings.from_env({"BOT_NODES_PER_MS": "85"}).bot_nodes_per_ms == 85
    assert Settings.from_env({}).bot_nodes_per_ms is None
    with pytest.raises(ConfigError, match="BOT_NODES_PER_MS"):
        Settings.from_env({"BOT_NODES_PER_MS": "0"})


def test_the_report_says_the_calibration_and_what_each_level_spent():
    spent = SpentTimes(42, "measured")
    for ms in (900.4, 950.6, 10.0):
        spent.add("search", ms)
    spent.add("greedy", 3.2)
    assert json.loads(spent.report()) == {
        "nodes_per_ms": 42,
        "calibration": "measured",
        "levels": {
            "greedy": {"moves": 1, "median_ms": 3, "max_ms": 3},
            "search": {"moves": 3, "median_ms": 900, "max_ms": 951},
        },
    }
