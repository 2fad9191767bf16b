"""The copy a process keeps of the game it stored last: the next move skips the read, a stale copy costs a retry.

A kept copy is only a guess at the stored game (service/games/kept.py): the
commit's compare-and-set checks it, and a refusal is given only on a copy
just read from the store. Round trips are counted with MONITOR, so those
tests run on the single server.
"""

from __future__ import annotations

import json

import pytest

from service.engine import Advance, Resign
from service.games import GameCopy, GameNotFound, GamePlay, KeptCopies, VersionCondition
from service.instance.shared_copies import SharedCopies
from service.site.core import game_play
from service.storage import StoredView
from tests.support.backends import KEPT, Backend, play_on
from tests.support.redis_monitor import ClientCommands

from .positions import score


def test_the_move_after_this_process_stored_the_last_one_is_one_round_trip(single_storage, redis_url):
    play = play_on(single_storage)
    created = play.create(("Ada", "Bo"), seed=3)
    play.play(created.game_id, Advance(), created.tokens[0])
    with ClientCommands(redis_url) as commands:
        committed = play.play(created.game_id, Advance(), created.tokens[1])
        assert commands.take() == 1  # the commit; no read
    assert committed.version == 3
    assert play.view(created.game_id) == StoredView(3, committed.view)


def test_a_kept_copy_another_process_moved_past_is_corrected_by_the_compare_and_set(
    single_storage, redis_url
):
    play, other = (play_on(single_storage) for _ in range(2))
    created = play.create(("Ada", "Bo"), seed=3)
    play.play(created.game_id, Advance(), created.tokens[0])  # version 2, kept by `play`
    other.play(created.game_id, Advance(), created.tokens[1])  # version 3: seat 1 from 0 to 2, 7 buttons
    # The game's own round trips: its end also moves it on the lists of games (site/watching.py).
    with ClientCommands(redis_url, created.game_id) as commands:
        # Resigning is legal on the kept copy too: the commit against version 2 is refused and
        # returns version 3, on which the move is judged again and stored.
        committed = play.play(created.game_id, Resign(), created.tokens[1])
        assert commands.take() == 2  # the refused commit, the commit; no read
    assert committed.version == 4
    assert json.loads(committed.view)["result"] == {
        "scores": [score(6), score(7)],
        "winner": 0,
        "reason": "resigned",
    }


def test_a_move_refused_on_a_stale_kept_copy_is_judged_on_the_stored_game(play: GamePlay, other_process):
    created = play.create(("Ada", "Bo"), seed=3)
    play.play(created.game_id, Advance(), created.tokens[0])  # kept at version 2: seat 1 in turn
    other_process().play(created.game_id, Advance(), created.tokens[1])  # version 3: seat 0 in turn
    # Not seat 0's turn on the kept copy: never a refusal on a kept copy, so it is read again.
    committed = play.play(created.game_id, Advance(), created.tokens[0])
    assert committed.version == 4
    game = json.loads(committed.view)
    # Seat 0 goes from 1 to one ahead of seat 1 (on 2): 3, two buttons more, 8.
    assert [p["position"] for p in game["players"]] == [3, 2]
    assert [p["buttons"] for p in game["players"]] == [8, 7]
    assert game["turn"] == 1


def test_an_expected_version_is_judged_on_the_stored_game_not_on_a_stale_kept_copy(
    play: GamePlay, other_process
):
    created = play.create(("Ada", "Bo"), seed=3)
    play.play(created.game_id, Advance(), created.tokens[0])  # kept at version 2
    other_process().play(created.game_id, Advance(), created.tokens[1])  # version 3
    at_3 = VersionCondition(frozenset({"3"}), "If-Match")
    assert play.play(created.game_id, Advance(), created.tokens[0], condition=at_3).version == 4


def test_a_kept_copy_of_a_game_gone_from_the_store_is_dropped(play: GamePlay, backend: Backend):
    created = play.create(("Ada", "Bo"), seed=3)
    play.play(created.game_id, Advance(), created.tokens[0])
    assert play.kept.get(created.game_id) is not None
    for node in backend.nodes:  # the game expired, or Redis lost it
        node.flushall()
    with pytest.raises(GameNotFound):
        play.play(created.game_id, Advance(), created.tokens[1])
    assert play.kept.get(created.game_id) is None


def test_a_copy_another_worker_shared_spares_this_worker_the_read(single_storage, redis_url):
    shared = SharedCopies(8)  # what the workers of one gunicorn share (gunicorn_conf.py)
    first, second = (game_play(single_storage, KeptCopies(KEPT, shared)) for _ in range(2))
    created = first.create(("Ada", "Bo"), seed=3)
    first.play(created.game_id, Advance(), created.tokens[0])
    with ClientCommands(redis_url) as commands:
        assert second.play(created.game_id, Advance(), created.tokens[1]).version == 3
        assert commands.take() == 1


def test_kept_copies_hold_the_most_recently_used_games_up_to_their_capacity(play: GamePlay):
    record = play.load(play.create(("Ada", "Bo"), seed=3).game_id).record
    kept = KeptCopies(2)
    for game_id in ("a", "b"):
        kept.put(game_id, GameCopy(1, "r", record))
    assert kept.get("a") is not None  # "a" used last: "b" goes first
    kept.put("c", GameCopy(1, "r", record))
    assert [kept.get(game_id) is not None for game_id in ("a", "b", "c")] == [True, False, True]
    kept.drop("a")
    assert kept.get("a") is None
    nothing_kept = KeptCopies(0)
    nothing_kept.put("a", GameCopy(1, "r", record))
    assert nothing_kept.get("a") is None
