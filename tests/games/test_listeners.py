"""The seam: what a listener registered with the game-play core hears of a game, and what its `settle` decides."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from service.engine import Advance, Resign
from service.games import GamePlay, GameRecord
from service.games.listeners import GameListener
from service.games.refusals import GameNotStarted
from service.games.values import Seating

# The rematch field stands in for whatever a listener decides with a game's end: stored with the result.
DECIDED = "D" * 22


class Recorder(GameListener):
    """Writes down every moment it hears, in order; `settle` marks the final record."""

    def __init__(self) -> None:
        self.heard: list[tuple[Any, ...]] = []

    def settle(self, record: GameRecord) -> GameRecord:
        self.heard.append(("settle", record.state.finished))
        return replace(record, next_game=DECIDED)

    def created(self, record: GameRecord) -> None:
        self.heard.append(("created", record.id))

    def seat_taken(self, record: GameRecord, seat: int) -> None:
        self.heard.append(("seat_taken", seat))

    def committed(self, before: GameRecord, after: GameRecord, version: int, result: Any) -> None:
        self.heard.append(("committed", version, None if result is None else result["reason"]))


def test_a_listener_hears_the_creation_each_move_and_settles_the_end_in_the_final_commit(play: GamePlay):
    recorder = Recorder()
    play.listen(recorder)
    created = play.create(("Ada", "Bo"), seed=3)
    play.play(created.game_id, Advance(), created.tokens[0])
    play.play(created.game_id, Resign(), created.tokens[1])
    assert recorder.heard == [
        ("created", created.game_id),
        ("committed", 2, None),
        # Asked once, with the finished record, before the commit that stores it.
        ("settle", True),
        ("committed", 3, "resigned"),
    ]
    # What it decided is in the stored game, in the same version as the result.
    stored = play.load(created.game_id)
    assert stored.version == 3 and stored.record.next_game == DECIDED


def test_listeners_hear_in_the_order_registered_and_a_settlement_passes_through_each(play: GamePlay):
    first, second = Recorder(), Recorder()
    play.listen(first)
    play.listen(second)
    created = play.create(("Ada", "Bo"), seed=3)
    play.play(created.game_id, Resign(), created.tokens[0])
    assert (
        first.heard
        == second.heard
        == [("created", created.game_id), ("settle", True), ("committed", 2, "resigned")]
    )


def test_a_refused_move_is_heard_by_no_listener(play: GamePlay):
    recorder = Recorder()
    play.listen(recorder)
    created = play.create(("Ada", "Bo"), seating=Seating(open_seats=(False, True), open_until_ms=2**42))
    assert recorder.heard == [("created", created.game_id)]
    # No move before the open seat is taken: refused, and nothing stored or heard.
    with pytest.raises(GameNotStarted):
        play.play(created.game_id, Advance(), created.tokens[0])
    assert recorder.heard == [("created", created.game_id)]
    assert play.load(created.game_id).version == 1
