"""Seat tokens never rest in Redis: not in keys, not in values."""

import json


def test_no_token_in_any_key_or_value(client, table, backend):
    t = table({"players": [{"name": "A"}, {"name": "B"}]})
    body = {"action": "advance"}
    for n in range(4):
        seat = t.state()["turn"]
        client.post(
            f"/games/{t.id}/moves",
            data=json.dumps(body),
            content_type="application/json",
            headers={**t.auth(seat), "Idempotency-Key": f"key-{n}"},
        )
    t.move(body, seat=1 - t.state()["turn"])  # a recorded refusal too
    keys, dump = [], []
    for redis in backend.nodes:  # every master of a cluster
        for key in redis.keys("*"):
            keys.append(key)
            kind = redis.type(key)
            if kind == "string":
                dump.append(redis.get(key))
            elif kind == "hash":
                dump.extend(redis.hgetall(key).values())
            elif kind == "list":
                dump.extend(redis.lrange(key, 0, -1))
            else:
                dump.append(repr(redis.dump(key)))
    assert keys
    for token in t.tokens:
        assert not any(token in k for k in keys)
        assert not any(token in v for v in dump)
        # Nor a large piece of it.
        assert not any(token[:20] in v for v in dump + keys)
