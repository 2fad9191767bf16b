"""What a test Redis holds, to compare before and after an operation."""

from __future__ import annotations

from redis import Redis


def snapshot(redis: Redis) -> dict[str, object]:
    """Every key with its type and value, to show that nothing changed."""
    contents: dict[str, object] = {}
    for key in redis.keys("*"):
        kind = redis.type(key)
        if kind == "hash":
            contents[key] = redis.hgetall(key)
        elif kind == "list":
            contents[key] = redis.lrange(key, 0, -1)
        else:
            contents[key] = (kind, redis.dump(key))
    return contents
