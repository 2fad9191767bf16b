"""Following a game through the core's EventFeed: a snapshot or the missed moves, each move as it lands, the end."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import pytest

from service.engine import Advance, Resign
from service.games import EventFeed, GameEvent, GameNotFound, GamePlay

from .positions import score

# Long enough that a keep-alive never comes in a test that waits for a move.
QUIET = 30.0


@pytest.fixture
def feeds() -> Iterator[list[EventFeed]]:
    opened: list[EventFeed] = []
    yield opened
    for feed in opened:
        feed.close()


def follow(play: GamePlay, feeds: list[EventFeed], game_id: str, after: int | None, idle: float = QUIET):
    feed = play.follow(game_id, after, idle)
    feeds.append(feed)
    return feed


def kinds(events: list[GameEvent]) -> list[tuple[str, int | None]]:
    return [(event.kind, event.version) for event in events]


def test_a_follower_from_nothing_gets_a_snapshot_then_each_move_as_it_is_committed(play: GamePlay, feeds):
    created = play.create(("Ada", "Bo"), seed=3)
    events = iter(follow(play, feeds, created.game_id, None))
    snapshot = next(events)
    assert (snapshot.kind, snapshot.version, snapshot.data) == ("game", 1, created.view)
    # Committed after the feed read the game: the commit's wake-up brings it.
    committed = play.play(created.game_id, Advance(), created.tokens[0])
    move = next(events)
    assert (move.kind, move.version) == ("move", 2)
    data = json.loads(move.data)
    assert data["game"] == json.loads(committed.view)
    assert (data["move"]["number"], data["move"]["seat"], data["move"]["action"]) == (1, 0, "advance")


def test_a_follower_resuming_after_a_version_gets_the_moves_it_missed_and_no_snapshot(play: GamePlay, feeds):
    created = play.create(("Ada", "Bo"), seed=3)
    play.play(created.game_id, Advance(), created.tokens[0])
    play.play(created.game_id, Advance(), created.tokens[1])
    events = iter(follow(play, feeds, created.game_id, 1))
    assert kinds([next(events), next(events)]) == [("move", 2), ("move", 3)]


def test_the_move_that_ends_the_game_is_followed_by_its_end_and_the_feed_stops(play: GamePlay, feeds):
    created = play.create(("Ada", "Bo"), seed=3)
    feed = follow(play, feeds, created.game_id, 1)
    done = threading.Event()
    events: list[GameEvent | None] = []

    def read() -> None:
        events.extend(feed)
        done.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    play.play(created.game_id, Resign(), created.tokens[0])
    assert done.wait(10), "the feed did not end after the game's end"
    assert kinds([event for event in events if event is not None]) == [("move", 2), ("end", None)]
    end = events[-1]
    assert end is not None
    assert json.loads(end.data) == {"scores": [score(5), score(5)], "winner": 1, "reason": "resigned"}


def test_a_finished_game_shows_a_new_follower_its_snapshot_and_end_and_one_who_has_it_all_nothing(
    play: GamePlay, feeds
):
    created = play.create(("Ada", "Bo"), seed=3)
    play.play(created.game_id, Resign(), created.tokens[1])
    assert kinds(list(follow(play, feeds, created.game_id, None))) == [("game", 2), ("end", None)]
    complete = follow(play, feeds, created.game_id, 2)
    assert complete.complete
    assert list(complete) == []


def test_an_idle_feed_yields_a_keep_alive_and_one_hung_up_ends(play: GamePlay, feeds):
    created = play.create(("Ada", "Bo"), seed=3)
    feed = follow(play, feeds, created.game_id, 1, idle=0.05)
    events = iter(feed)
    assert next(events) is None  # nothing happened for `idle` seconds
    feed.hang_up()
    assert list(events) == []


def test_following_a_game_that_does_not_exist_is_refused_before_any_event(play: GamePlay, feeds):
    with pytest.raises(GameNotFound):
        follow(play, feeds, "A" * 22, None)
