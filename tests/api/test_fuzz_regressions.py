"""Requests that schemathesis (tests/fuzz) found mishandled, pinned down one by one."""


def test_move_number_past_any_redis_index_is_not_found(table, client):
    # Past 2**63 - 1, Redis refused the LRANGE index and the refusal came back
    # as 503 storage_unavailable; it is simply past the end of the history.
    t = table()
    for number in (2**63, 13974544160083980855079648362496):
        resp = client.get(f"/games/{t.id}/moves/{number}")
        assert resp.status_code == 404, resp.get_json()
        assert resp.get_json()["code"] == "not_found"


def test_since_past_any_redis_index_is_an_empty_history(table, client):
    t = table()
    t.play({"action": "advance"})
    for since in (2**63, 10**40):
        resp = client.get(f"/games/{t.id}/moves", query_string={"since": since})
        assert resp.status_code == 200, resp.get_json()
        assert resp.get_json() == {"moves": []}
        assert resp.headers["ETag"] == '"2"'


def test_a_whole_number_spelt_with_a_fraction_is_an_integer_query(table, client):
    # schemathesis sent ?patch_id=3.0, an integer to JSON Schema, and got 400;
    # a body's 3.0 already counted as 3.
    t = table()
    plain = client.get(f"/games/{t.id}/legal-moves", query_string={"patch_id": "3"})
    for spelling in ("3.0", "3.00", "0.3e1"):
        resp = client.get(f"/games/{t.id}/legal-moves", query_string={"patch_id": spelling})
        assert resp.status_code == 200, resp.get_json()
        assert resp.get_json() == plain.get_json()
