"""Idempotency-Key: one answer per key, replayed exactly, never applied twice."""

import json

ORDER = list(range(2, 34)) + [1]
ADVANCE = {"action": "advance"}


def post(client, t, body, seat, key, **headers):
    return client.post(
        f"/games/{t.id}/moves",
        data=json.dumps(body),
        content_type="application/json",
        headers={**t.auth(seat), "Idempotency-Key": key, **headers},
    )


def test_retry_gets_the_same_answer_and_applies_once(client, table):
    t = table({"patch_order": ORDER})
    first = post(client, t, ADVANCE, 0, "k-1")
    again = post(client, t, ADVANCE, 0, "k-1")
    assert first.status_code == again.status_code == 201
    assert first.get_data() == again.get_data()
    assert first.headers["ETag"] == again.headers["ETag"] == '"2"'
    assert first.headers["Location"] == again.headers["Location"]
    assert t.state()["moves_played"] == 1


def test_replay_ignores_a_new_if_match(client, table):
    t = table({"patch_order": ORDER})
    first = post(client, t, ADVANCE, 0, "k", **{"If-Match": '"1"'})
    again = post(client, t, ADVANCE, 0, "k", **{"If-Match": '"1"'})  # stale now, but a replay
    assert again.status_code == 201 and again.get_data() == first.get_data()


def test_key_order_in_the_body_does_not_matter(client, table):
    t = table({"patch_order": ORDER})
    body = {"action": "buy", "patch_id": 2, "placement": {"row": 0, "col": 0}}
    first = post(client, t, body, 0, "k")
    reordered = {"placement": {"col": 0, "row": 0}, "patch_id": 2, "action": "buy"}
    again = post(client, t, reordered, 0, "k")
    assert again.status_code == 201 and again.get_data() == first.get_data()


def test_refusals_are_recorded_too(client, table):
    t = table({"patch_order": ORDER})
    bad = {"action": "buy", "patch_id": 9, "placement": {"row": 0, "col": 0}}
    first = post(client, t, bad, 0, "r")
    assert first.status_code == 422
    again = post(client, t, bad, 0, "r")
    assert again.status_code == 422 and again.get_data() == first.get_data()
    # A recorded 412 stays a 412 even once the If-Match would hold.
    stale = post(client, t, ADVANCE, 0, "s", **{"If-Match": '"7"'})
    assert stale.status_code == 412
    assert post(client, t, ADVANCE, 0, "s", **{"If-Match": '"7"'}).get_data() == stale.get_data()


def test_every_recorded_refusal_replays_with_the_same_status_body_and_etag(client, table):
    t = table({"patch_order": ORDER})
    refusals = {  # status: body, headers, sent by the seat in turn
        409: (ADVANCE, {}, False),
        412: (ADVANCE, {"If-Match": '"7"'}, True),
        422: ({"action": "buy", "patch_id": 9, "placement": {"row": 0, "col": 0}}, {}, True),
    }
    for status, (body, headers, in_turn) in refusals.items():
        turn = t.state()["turn"]
        seat = turn if in_turn else 1 - turn
        first = post(client, t, body, seat, f"key-{status}", **headers)
        assert first.status_code == status
        t.play(ADVANCE)  # the game moves on
        again = post(client, t, body, seat, f"key-{status}", **headers)
        assert (again.status_code, again.get_data()) == (status, first.get_data())
        assert again.headers["ETag"] == first.headers["ETag"] != client.get(f"/games/{t.id}").headers["ETag"]
        assert again.content_type == first.content_type == "application/problem+json"


def test_a_refusal_record_stays_small_whatever_the_request_carries(client, table, backend):
    t = table({"patch_order": ORDER})
    # A client may send kilobytes of If-Match; the record must not keep them for 24 h.
    long_if_match = ", ".join(['"999999"'] * 500)
    assert post(client, t, ADVANCE, 0, "k" * 64, **{"If-Match": long_if_match}).status_code == 412
    assert post(client, t, ADVANCE, 1, "x" * 64).status_code == 409

    # A record is the request's fingerprint, a newline and the answer (storage/scripts.py).
    answers = [
        node.get(key).partition("\n")[2]
        for node in backend.nodes
        for key in node.scan_iter(f"*{{{t.id}}}:idem:*")
    ]
    assert len(answers) == 2
    # The whole problem document was over 300 bytes; its type and title are rebuilt.
    assert all(len(answer) < 100 for answer in answers), answers


def test_same_key_other_body_is_422_reused(client, table):
    t = table({"patch_order": ORDER})
    assert post(client, t, ADVANCE, 0, "k").status_code == 201
    other = {"action": "buy", "patch_id": 2, "placement": {"row": 0, "col": 0}}
    resp = post(client, t, other, 0, "k")
    assert resp.status_code == 422 and resp.get_json()["code"] == "idempotency_key_reused"
    assert t.state()["moves_played"] == 1


def test_keys_belong_to_one_seat_and_one_game(client, table):
    t = table({"patch_order": ORDER})
    assert post(client, t, ADVANCE, 0, "shared").status_code == 201
    # Seat 1 (now in turn) uses the same key: its own, fresh.
    resp = post(client, t, ADVANCE, 1, "shared")
    assert resp.status_code == 201 and resp.get_json()["version"] == 3
    u = table({"patch_order": ORDER})
    assert post(client, u, ADVANCE, 0, "shared").get_json()["id"] == u.id


def test_unrecorded_answers_leave_the_key_free(client, table):
    t = table({"patch_order": ORDER})
    resp = client.post(
        f"/games/{t.id}/moves",
        data=json.dumps(ADVANCE),
        content_type="application/json",
        headers={"Authorization": "Bearer wrong", "Idempotency-Key": "k"},
    )
    assert resp.status_code == 401
    bad = client.post(
        f"/games/{t.id}/moves",
        data="{",
        content_type="application/json",
        headers={**t.auth(0), "Idempotency-Key": "k"},
    )
    assert bad.status_code == 400
    assert post(client, t, ADVANCE, 0, "k").status_code == 201


def test_in_flight_key_is_409_in_use(app, client, table, redis_server):
    """A key claimed by a request still running (claimed in the store by hand here)."""
    t = table({"patch_order": ORDER})
    store = app.extensions["patchwork"].store
    from service.api.idempotency import fingerprint, scoped_key

    key = scoped_key(t.tokens[0], "busy")
    stored, existing = store.load_for_move(t.id, key, fingerprint(ADVANCE))
    assert stored is not None and existing is None  # we hold the claim now
    resp = post(client, t, ADVANCE, 0, "busy")
    assert resp.status_code == 409 and resp.get_json()["code"] == "idempotency_key_in_use"
    assert t.state()["moves_played"] == 0
    store.release_key(t.id, key)
    assert post(client, t, ADVANCE, 0, "busy").status_code == 201
