"""Games played on a Redis Cluster while an operator reshards it and fails a master over (cluster_play.py).

The service follows the cluster: every acknowledged move is in its game's
history with the state its 201 showed, no move is stored that nobody was
answered for (but for a 503 after a timeout, which may have run), no answer
is a 500, and each refusal is a 503 that says when to come back.
"""

from __future__ import annotations

from tests.support.cluster_play import Played, fail_over, reshard
from tests.support.players import EXPECTED_STATUSES


def assert_kept_every_promise(played: Played) -> None:
    report = "\n".join(played.lines())
    assert set(played.statuses) <= EXPECTED_STATUSES, report
    assert played.unavailable_without_retry_after == 0, report
    assert not played.lost, report
    assert 0 <= played.unacknowledged <= played.move_statuses[503], report
    # A few refusals at most: a slot stays in migration only while its few keys move.
    assert played.move_statuses[503] <= played.move_statuses.total() // 20, report


def test_moves_go_on_while_the_slots_of_their_games_move_to_another_master(tmp_path):
    played = reshard(tmp_path, games=240)
    assert_kept_every_promise(played)
    assert played.slots >= 50 and played.keys > played.slots, "hardly anything was resharded"
    assert played.moves_during > 0, "no move was played while the slots moved"
    # The scripts really met the slots in migration.
    assert played.redirects["ASK"] + played.redirects["TRYAGAIN"] > 0, played.redirects
    assert played.redirects["MOVED"] > 0, played.redirects


def test_moves_go_on_across_a_manual_failover_and_none_acknowledged_is_lost(tmp_path):
    played = fail_over(tmp_path)
    assert_kept_every_promise(played)
    # The instances were sent to the new master (and loaded their scripts there).
    assert played.redirects["MOVED"] > 0, played.redirects
