"""The seeks' pool (storage/seeks.py, lua/seek_post.lua): pairing by rating, however many wait."""

from __future__ import annotations

# More than a pairing once looked at (the oldest 200 of the pool).
CROWD = 250


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
        most_waiting=3,
    )


def test_a_compatible_seek_is_found_behind_a_crowd_of_incompatible_ones(storage):
    pool = storage.seeks
    # A crowd of waiting seeks, each rated apart (range 0): none pairs, and all are
    # within the range of the seeks that follow.
    for n in range(CROWD):
        assert _post(pool, n, f"low{n}", 1000 + n, 0).partner is None
    waiting = _post(pool, 9000, "high-a", 1500, 600)
    assert waiting.partner is None
    paired = _post(pool, 9001, "high-b", 1500, 600)
    assert (paired.partner, paired.partner_player) == ("seek000000000000009000", "high-a")
    assert pool.waiting("p") == CROWD


def test_the_oldest_compatible_seek_wins_and_each_range_must_hold_the_other(storage):
    pool = storage.seeks
    assert _post(pool, 1, "a", 1500, 50).partner is None  # its range does not hold 1600
    assert _post(pool, 2, "b", 1700, 150).partner is None  # a is 200 away
    assert _post(pool, 3, "c", 1650, 30).partner is None  # a and b are too far for its range
    paired = _post(pool, 4, "d", 1600, 200)
    assert paired.partner_player == "b"  # within d's range, and d within its own
    assert pool.waiting("p") == 2
