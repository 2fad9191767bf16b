"""A bot account's places in games against bots (lua/player_bot_game.lua): a day on the store's clock, checked
and taken in one step."""

from service.storage import open_storage

DAY_MS = 24 * 3600 * 1000


def test_places_are_taken_up_to_the_most_and_shared_by_stores(storage, redis_url, redis):
    other = open_storage(redis_url)
    try:
        assert storage.players.take_bot_game("bot1", "a", DAY_MS, 2) == 0
        assert other.players.take_bot_game("bot1", "b", DAY_MS, 2) == 0
        # Full: nothing taken, and the wait is until the oldest place is a day old.
        wait_ms = storage.players.take_bot_game("bot1", "c", DAY_MS, 2)
        assert DAY_MS - 60_000 < wait_ms <= DAY_MS
        assert redis.zrange("patchwork:player:{bot1}:bot_games", 0, -1) == ["a", "b"]
        # Another bot's day is its own.
        assert storage.players.take_bot_game("bot2", "c", DAY_MS, 2) == 0
    finally:
        other.close()
    assert 0 < redis.pttl("patchwork:player:{bot1}:bot_games") <= DAY_MS


def test_a_place_given_back_frees_it(storage):
    assert storage.players.take_bot_game("bot1", "a", DAY_MS, 1) == 0
    assert storage.players.take_bot_game("bot1", "b", DAY_MS, 1) > 0
    storage.players.give_back_bot_game("bot1", "a")
    assert storage.players.take_bot_game("bot1", "b", DAY_MS, 1) == 0


def test_places_older_than_the_window_leave_it(storage, redis):
    key = "patchwork:player:{bot1}:bot_games"
    # Places taken two days ago, by the store's clock, no longer count.
    seconds, _micro = redis.time()
    redis.zadd(key, {"old1": seconds * 1000 - 2 * DAY_MS, "old2": seconds * 1000 - 2 * DAY_MS})
    assert storage.players.take_bot_game("bot1", "new", DAY_MS, 2) == 0
    assert redis.zrange(key, 0, -1) == ["new"]
    # One a little under a day old still counts, and frees its place soon.
    redis.zadd(key, {"almost": seconds * 1000 - DAY_MS + 5_000})
    assert 0 < storage.players.take_bot_game("bot1", "next", DAY_MS, 2) <= 6_000
