"""The seeks' pool (storage/seeks.py, lua/seek_post.lua): pairing by rating, however many wait."""

from __future__ import annotations

from service.storage.seeks import CANDIDATES


def _post(pool, n, player, rating, rating_range):
    return pool.post(
        seek_id=f"seek{n:018d}",
        pool="p",
        player_id=player,
        rating=rating,
        rating_range=rating_range,
        ttl_ms=60_000,
        game_id=f"game{n:018d}",
        spec="{}",
    )


def test_a_compatible_seek_is_found_behind_more_waiting_seeks_than_are_looked_at(storage):
    pool = storage.seeks
    # More waiting seeks than a pairing looks at, each rated apart (range 0): none pairs.
    for n in range(CANDIDATES + 50):
        assert _post(pool, n, f"low{n}", 100 + n, 0).partner is None
    waiting = _post(pool, 9000, "high-a", 2000, 0)
    assert waiting.partner is None
    paired = _post(pool, 9001, "high-b", 2000, 0)
    assert (paired.partner, paired.partner_player) == ("seek000000000000009000", "high-a")
    assert pool.waiting("p") == CANDIDATES + 50


def test_the_oldest_compatible_seek_wins_and_each_range_must_hold_the_other(storage):
    pool = storage.seeks
    assert _post(pool, 1, "a", 1500, 50).partner is None  # its range does not hold 1600
    assert _post(pool, 2, "b", 1700, 150).partner is None  # a is 200 away
    assert _post(pool, 3, "c", 1650, 30).partner is None  # a and b are too far for its range
    paired = _post(pool, 4, "d", 1600, 200)
    assert paired.partner_player == "b"  # within d's range, and d within its own
    assert pool.waiting("p") == 2
