"""The optional per-client rate limit: off by default, shared across instances, 429 past it."""

import json

from service.api import create_app
from service.config import RateLimit, Settings

from .conftest import checked_client_class, make_settings

ADVANCE = json.dumps({"action": "advance"})


def _app(redis_url, contract, **limits):
    app = create_app(make_settings(redis_url, **limits))
    app.test_client_class = checked_client_class(contract)
    return app


def test_off_by_default(client):
    for _ in range(5):
        resp = client.post("/games")
        assert resp.status_code == 201
        assert "RateLimit-Limit" not in resp.headers


def test_settings_read_the_environment():
    settings = Settings.from_env({"RATE_LIMIT_CREATE": "5", "RATE_LIMIT_MOVES": "50",
                                  "RATE_LIMIT_WINDOW_SECONDS": "10", "REDIS_URL": "redis://x"})
    assert settings.rate_limit_create == RateLimit(5, 10)
    assert settings.rate_limit_moves == RateLimit(50, 10)


def test_game_creation_limit_holds_across_instances(redis_url, contract):
    limit = RateLimit(limit=3, window_seconds=60)
    a = _app(redis_url, contract, rate_limit_create=limit).test_client()
    b = _app(redis_url, contract, rate_limit_create=limit).test_client()
    answers = [c.post("/games") for c in (a, b, a)]
    assert [r.status_code for r in answers] == [201, 201, 201]
    assert [r.headers["RateLimit-Remaining"] for r in answers] == ["2", "1", "0"]
    assert all(r.headers["RateLimit-Limit"] == "3" for r in answers)
    limited = b.post("/games")
    assert limited.status_code == 429
    assert limited.get_json()["code"] == "rate_limited"
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    assert limited.headers["RateLimit-Remaining"] == "0"
    assert 1 <= int(limited.headers["RateLimit-Reset"]) <= 60
    # Reads are never limited; another client has its own budget.
    assert a.get("/patches").status_code == 200
    other = a.post("/games", environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 201


def test_move_limit_refuses_before_touching_the_game(redis_url, contract):
    app = _app(redis_url, contract, rate_limit_moves=RateLimit(limit=2, window_seconds=60))
    client = app.test_client()
    created = client.post("/games").get_json()
    game_id, tokens = created["game"]["id"], created["tokens"]

    def advance():
        seat = client.get(f"/games/{game_id}").get_json()["turn"]
        return client.post(f"/games/{game_id}/moves", data=ADVANCE, content_type="application/json",
                           headers={"Authorization": f"Bearer {tokens[seat]}"})

    assert [advance().status_code for _ in range(3)] == [201, 201, 429]
    assert client.get(f"/games/{game_id}").get_json()["moves_played"] == 2
    # The game-creation budget is separate (and here unlimited).
    assert client.post("/games").status_code == 201


def test_forwarded_for_counts_only_behind_trusted_proxies(redis_url, contract):
    limit = RateLimit(limit=1, window_seconds=60)
    direct = _app(redis_url, contract, rate_limit_create=limit).test_client()
    assert direct.post("/games", headers={"X-Forwarded-For": "1.1.1.1"}).status_code == 201
    # Without trusted proxies the header is ignored: same socket address, over the limit.
    assert direct.post("/games", headers={"X-Forwarded-For": "2.2.2.2"}).status_code == 429
    proxied = _app(redis_url, contract, rate_limit_create=limit, trust_proxy_headers=1).test_client()
    assert proxied.post("/games", headers={"X-Forwarded-For": "3.3.3.3"}).status_code == 201
    assert proxied.post("/games", headers={"X-Forwarded-For": "3.3.3.3"}).status_code == 429
    assert proxied.post("/games", headers={"X-Forwarded-For": "4.4.4.4"}).status_code == 201
