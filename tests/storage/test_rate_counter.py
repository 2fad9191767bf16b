"""The shared fixed-window request counter behind the optional rate limit."""

from service.storage import open_storage


def test_counts_within_one_window_shared_by_stores(storage, redis_url, redis):
    other = open_storage(redis_url)
    try:
        assert storage.requests.count("create:1.2.3.4", 60)[0] == 1
        assert other.requests.count("create:1.2.3.4", 60)[0] == 2
        count, left_ms = storage.requests.count("create:1.2.3.4", 60)
        assert count == 3 and 0 < left_ms <= 60_000
        assert storage.requests.count("create:5.6.7.8", 60)[0] == 1
    finally:
        other.close()
    assert 0 < redis.pttl("patchwork:ratelimit:create:1.2.3.4") <= 60_000


def test_window_restarts_once_it_expires(storage, redis):
    storage.requests.count("moves:c", 60)
    storage.requests.count("moves:c", 60)
    redis.delete("patchwork:ratelimit:moves:c")  # what expiry does at the window's end
    assert storage.requests.count("moves:c", 60)[0] == 1


def test_counter_without_expiry_gets_one(storage, redis):
    redis.set("patchwork:ratelimit:moves:d", 5)  # e.g. restored without its TTL
    count, left_ms = storage.requests.count("moves:d", 30)
    assert count == 6 and 0 < left_ms <= 30_000
    assert redis.pttl("patchwork:ratelimit:moves:d") > 0
