"""The search's budget: nodes decide its depth, and the clock stops it when they do not."""

import math
import time

import pytest

from service.bots import choose_move
from service.bots.evaluation import ANALYSIS_WEIGHTS, DEEP_WEIGHTS
from service.bots.options import shortlist, to_move
from service.bots.search import StopSearch, _Search, search_option
from service.engine import apply_move, format_move, new_game


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


def test_the_time_a_level_gives_way_inside_its_search_is_not_charged_to_its_cap():
    # A bot worker plays a clocked bot's move inside an unclocked move's
    # search (`pause`): here 0.3 s, at the first reading of a 50 ms cap.
    # The search must go on for its own 50 ms after it, not stop at the
    # next reading.
    readings = 0

    def pause() -> None:
        nonlocal readings
        readings += 1
        if readings == 1:
            time.sleep(0.3)

    found = search_option(
        new_game(seed=2), node_budget=10**9, deadline=time.perf_counter() + 0.05, pause=pause
    )
    # Every 32 nodes a reading: at 30 nodes a ms or more (levels.NODES_PER_MS,
    # a busy machine's), 50 ms are dozens of readings; a search stopped at the
    # first reading after the pause would have made two.
    assert readings > 10, f"the search stopped {readings} readings in, at {found.nodes} nodes"


def test_a_pause_raising_stop_search_ends_it_with_its_best_so_far_as_its_budget_running_out_would():
    # The engine protocol's `stop` (service/engine_protocol/thinking.py). The
    # clock is read every 32 nodes, so a stop at the 100th reading comes at
    # the node where a budget of 3,200 nodes runs out: the same search, cut
    # at the same place, with the same best move of its completed iterations.
    state = new_game(seed=1)
    readings = 0

    def stop_at_the_100th_reading() -> None:
        nonlocal readings
        readings += 1
        if readings == 100:
            raise StopSearch

    deep = {"weights": DEEP_WEIGHTS, "best_first": True, "reduce_late": True}
    stopped = search_option(state, 10**9, math.inf, pause=stop_at_the_100th_reading, **deep)
    assert stopped == search_option(state, 3200, math.inf, **deep)
    assert stopped.depth >= 5
    # Not the first idea, which a stopped engine used to play (a 1 ms search,
    # 30 nodes: a patch bought). When written, every stop from the 2nd
    # reading to the 4,000th (128,000 nodes) gave the advance.
    assert format_move(to_move(stopped.option)) == "."
    assert format_move(to_move(search_option(state, 30, math.inf, **deep).option)) == "MAAA"


def positions_of_a_greedy_game(game_seed: int) -> list:
    """Every sixth position of a greedy game where the seat in turn chooses (bought patches, real quilts)."""
    state, found = new_game(seed=game_seed), []
    while not state.finished:
        if state.phase == "choose" and state.moves_played % 6 == 0:
            found.append(state)
        state = apply_move(state, choose_move(state, "greedy", 0))
    return found


def test_the_deep_search_finds_the_plain_searchs_values_with_fewer_nodes():
    # Best buy first and null windows change the order the options are tried
    # in and what a cut-off has to prove, never a position's value at a depth.
    plain_nodes = best_first_nodes = 0
    for state in positions_of_a_greedy_game(2):
        for seat in (0, 1):
            plain = _Search(seat, 10**9, math.inf, ANALYSIS_WEIGHTS, 1)
            best_first = _Search(seat, 10**9, math.inf, ANALYSIS_WEIGHTS, 1, best_first=True)
            expected = plain.value(state, 5, -math.inf, math.inf)
            assert best_first.value(state, 5, -math.inf, math.inf) == pytest.approx(expected, abs=1e-6)
            plain_nodes += plain.nodes
            best_first_nodes += best_first.nodes
    # 1,260 against 2,502 when written: the null windows' saving, not an accident of order.
    assert best_first_nodes < 0.7 * plain_nodes


def test_late_move_reductions_search_deeper_within_the_same_nodes():
    # Options after a node's best so far are first tested a ply shallower:
    # the nodes saved go deeper along the likeliest lines.
    plain = reduced = 0
    for game_seed in (2, 3, 4):
        for state in positions_of_a_greedy_game(game_seed):
            without = search_option(state, 5000, math.inf, DEEP_WEIGHTS, best_first=True)
            with_reductions = search_option(
                state, 5000, math.inf, DEEP_WEIGHTS, best_first=True, reduce_late=True
            )
            assert with_reductions.nodes <= 5000
            plain += without.depth
            reduced += with_reductions.depth
    # 116 against 101 plies over the 19 positions when written.
    assert reduced >= plain + 8
