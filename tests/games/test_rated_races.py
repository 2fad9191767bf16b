"""A resignation racing a timeout on a rated game, through two processes' game play: one ends it, ratings change once."""

from __future__ import annotations

import time

import pytest

from service.engine import Advance, GameFinished, Resign
from service.games import KeptCopies, Refusal
from service.games.clock import ClockSettings
from service.games.play import GamePlay
from service.games.values import Seating
from service.site.core import game_play
from service.site.lobby import Players
from tests.support.concurrency import run_together

GAMES = 3


def _process(storage) -> GamePlay:
    return game_play(storage, KeptCopies(0))


def test_a_resignation_racing_the_timeout_changes_the_ratings_once(storage):
    players = Players(storage.players)
    one, other = _process(storage), _process(storage)
    games = []
    for _ in range(GAMES):
        (first, first_token), (second, second_token) = players.create("Ann"), players.create("Bob")
        created = one.create(
            ("A", "B"),
            clock=ClockSettings(initial_s=10, increment_s=0),
            seating=Seating(holders=(first.holder(), second.holder()), rated=True),
        )
        # Both seats move (a game both played is rated), then seat 0's clock runs: its flag falls in 10 s.
        one.play(created.game_id, Advance(), first_token)
        one.play(created.game_id, Advance(), second_token)
        clock = one.load(created.game_id).record.clock_now
        assert clock is not None and clock.deadline_ms is not None
        games.append((created.game_id, clock.deadline_ms, first.id, second.id, first_token))
    deadline = max(deadline for _, deadline, *_ in games)
    # Fire both just around the deadline: the store's clock decides which is in time.
    time.sleep(max(0.0, (deadline - 15) / 1000 - time.time()))

    def racer(n: int):
        game_id, game_deadline, _a, _b, token = games[n // 2]
        if n % 2:
            try:
                return other.play(game_id, Resign(), token)
            except (Refusal, GameFinished) as refused:
                return refused
        while time.time() * 1000 < game_deadline:
            time.sleep(0.001)
        return one.expire(game_id, game_deadline)

    run_together(2 * GAMES, racer)
    reasons = set()
    for game_id, _deadline, first_id, second_id, _token in games:
        record = one.load(game_id).record
        assert record.state.result is not None and record.state.result.winner == 1
        reasons.add(record.state.result.reason)
        assert record.settlement is not None
        for seat, player_id in enumerate((first_id, second_id)):
            player = players.get(player_id)
            assert player.rated_games == 1
            assert player.rating.rating == pytest.approx(1500 + record.settlement.diff[seat])
    assert reasons <= {"resigned", "timeout"}
