"""The optional per-client rate limit: off by default, shared across instances, 429 past it."""

import json
import re

from service.config import RateLimit, Settings

from .conftest import checked_app

ADVANCE = json.dumps({"action": "advance"})


def test_create_and_moves_limits_are_off_by_default_the_hourly_games_limit_on(client):
    for count in range(1, 6):
        resp = client.post("/games")
        assert resp.status_code == 201
        # Only the games-per-hour family counts (issue 36).
        assert resp.headers["RateLimit-Limit"] == "300"
        assert resp.headers["RateLimit-Remaining"] == str(300 - count)


def test_settings_read_the_environment():
    settings = Settings.from_env(
        {
            "RATE_LIMIT_CREATE": "5",
            "RATE_LIMIT_MOVES": "50",
            "RATE_LIMIT_WINDOW_SECONDS": "10",
            "REDIS_URL": "redis://x",
        }
    )
    assert settings.rate_limit_create == RateLimit(5, 10)
    assert settings.rate_limit_moves == RateLimit(50, 10)


def test_game_creation_limit_holds_across_instances(redis_url, contract):
    limit = RateLimit(limit=3, window_seconds=60)
    a = checked_app(redis_url, contract, rate_limit_create=limit).test_client()
    b = checked_app(redis_url, contract, rate_limit_create=limit).test_client()
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
    app = checked_app(redis_url, contract, rate_limit_moves=RateLimit(limit=2, window_seconds=60))
    client = app.test_client()
    created = client.post("/games").get_json()
    game_id, tokens = created["game"]["id"], created["tokens"]

    def advance():
        seat = client.get(f"/games/{game_id}").get_json()["turn"]
        return client.post(
            f"/games/{game_id}/moves",
            data=ADVANCE,
            content_type="application/json",
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )

    assert [advance().status_code for _ in range(3)] == [201, 201, 429]
    assert client.get(f"/games/{game_id}").get_json()["moves_played"] == 2
    # The game-creation budget is separate (and here unlimited).
    assert client.post("/games").status_code == 201


def test_forwarded_for_counts_only_behind_trusted_proxies(redis_url, contract):
    limit = RateLimit(limit=1, window_seconds=60)
    direct = checked_app(redis_url, contract, rate_limit_create=limit).test_client()
    assert direct.post("/games", headers={"X-Forwarded-For": "1.1.1.1"}).status_code == 201
    # Without trusted proxies the header is ignored: same socket address, over the limit.
    assert direct.post("/games", headers={"X-Forwarded-For": "2.2.2.2"}).status_code == 429
    proxied = checked_app(redis_url, contract, rate_limit_create=limit, trust_proxy_headers=1).test_client()
    assert proxied.post("/games", headers={"X-Forwarded-For": "3.3.3.3"}).status_code == 201
    assert proxied.post("/games", headers={"X-Forwarded-For": "3.3.3.3"}).status_code == 429
    assert proxied.post("/games", headers={"X-Forwarded-For": "4.4.4.4"}).status_code == 201


BOT_GAME = {"players": [{"name": "Ann"}, {"name": "Robot", "bot": "greedy"}]}


def test_bot_games_and_hints_are_limited_by_default_and_generously():
    settings = Settings.from_env({"REDIS_URL": "redis://x"})
    assert settings.rate_limit_bot_games == RateLimit(60, 3600)
    assert settings.rate_limit_hints == RateLimit(600, 3600)
    tuned = Settings.from_env(
        {
            "RATE_LIMIT_BOT_GAMES": "0",
            "RATE_LIMIT_HINTS": "30",
            "RATE_LIMIT_BOT_WINDOW_SECONDS": "600",
            "REDIS_URL": "redis://x",
        }
    )
    assert not tuned.rate_limit_bot_games.enabled
    assert tuned.rate_limit_hints == RateLimit(30, 600)


def test_hints_count_against_their_own_limit_on_every_instance(redis_url, contract):
    limit = RateLimit(limit=2, window_seconds=60)
    a = checked_app(redis_url, contract, rate_limit_hints=limit).test_client()
    b = checked_app(redis_url, contract, rate_limit_hints=limit).test_client()
    game_id = a.post("/games").get_json()["game"]["id"]
    answers = [a.get(f"/games/{game_id}/hint"), b.get(f"/games/{game_id}/hint")]
    assert [r.status_code for r in answers] == [200, 200]
    assert [r.headers["RateLimit-Remaining"] for r in answers] == ["1", "0"]
    assert answers[0].headers["RateLimit-Limit"] == "2"
    limited = a.get(f"/games/{game_id}/hint", query_string={"level": "random"})
    assert limited.status_code == 429
    assert limited.get_json()["code"] == "rate_limited"
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    # Other reads, and another client, are not held back.
    assert a.get(f"/games/{game_id}").status_code == 200
    assert "RateLimit-Limit" not in a.get(f"/games/{game_id}").headers
    other = a.get(f"/games/{game_id}/hint", environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 200


def test_the_default_hint_limit_is_on(client):
    game_id = client.post("/games").get_json()["game"]["id"]
    resp = client.get(f"/games/{game_id}/hint")
    assert resp.status_code == 200
    assert resp.headers["RateLimit-Limit"] == "600"
    assert resp.headers["RateLimit-Remaining"] == "599"


def test_only_games_with_a_bot_count_as_bot_games(redis_url, contract):
    client = checked_app(
        redis_url, contract, rate_limit_bot_games=RateLimit(limit=2, window_seconds=60)
    ).test_client()
    for _ in range(3):
        person = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]})
        assert person.status_code == 201
        # Counted as games (per hour), not as bot games.
        assert person.headers["RateLimit-Limit"] == "300"
        # A null `bot` is a person, as an optional field sent as null is left out.
        nulled = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob", "bot": None}]})
        assert nulled.status_code != 429
        assert nulled.headers["RateLimit-Limit"] == "300"
    # Counted once the body is read, whatever the game's creation then answers.
    counted = [client.post("/games", json=BOT_GAME) for _ in range(2)]
    assert [r.status_code != 429 for r in counted] == [True, True]
    assert [r.headers["RateLimit-Remaining"] for r in counted] == ["1", "0"]
    limited = client.post("/games", json=BOT_GAME)
    assert limited.status_code == 429
    assert limited.get_json()["code"] == "rate_limited"
    assert "bot" in limited.get_json()["detail"]
    # Games without a bot are still created.
    assert client.post("/games").status_code == 201


def test_the_default_bot_game_limit_is_on(client):
    resp = client.post("/games", json=BOT_GAME)
    assert resp.status_code != 429
    assert resp.headers["RateLimit-Limit"] == "60"


def test_a_request_counted_twice_shows_the_tighter_limit(redis_url, contract):
    client = checked_app(
        redis_url,
        contract,
        rate_limit_create=RateLimit(limit=50, window_seconds=60),
        rate_limit_bot_games=RateLimit(limit=1, window_seconds=60),
    ).test_client()
    resp = client.post("/games", json=BOT_GAME)
    assert (resp.headers["RateLimit-Limit"], resp.headers["RateLimit-Remaining"]) == ("1", "0")
    assert client.post("/games", json=BOT_GAME).status_code == 429
    plain = client.post("/games")
    assert (plain.headers["RateLimit-Limit"], plain.headers["RateLimit-Remaining"]) == ("50", "47")


def test_resigning_counts_as_a_move(redis_url, contract):
    client = checked_app(
        redis_url, contract, rate_limit_moves=RateLimit(limit=1, window_seconds=60)
    ).test_client()
    created = client.post("/games").get_json()
    game_id, tokens = created["game"]["id"], created["tokens"]
    first = client.post(f"/games/{game_id}/resign", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert first.status_code == 201
    assert first.headers["RateLimit-Remaining"] == "0"
    second = client.post(f"/games/{game_id}/resign", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert second.status_code == 429


def test_players_seeks_and_joins_are_limited_by_default_and_generously():
    settings = Settings.from_env({"REDIS_URL": "redis://x"})
    assert settings.rate_limit_players == RateLimit(30, 3600)
    assert settings.rate_limit_seeks == RateLimit(600, 3600)
    assert settings.rate_limit_joins == RateLimit(600, 3600)
    assert Settings.from_env({"RATE_LIMIT_PLAYERS": "0"}).rate_limit_players.enabled is False


def test_player_creation_seeks_and_joins_each_count_in_their_own_family(redis_url, contract):
    one = RateLimit(limit=1, window_seconds=60)
    app = checked_app(redis_url, contract, rate_limit_players=one, rate_limit_seeks=one, rate_limit_joins=one)
    client = app.test_client()
    first = client.post("/players", json={"name": "Ann"})
    assert first.status_code == 201 and first.headers["RateLimit-Remaining"] == "0"
    second = client.post("/players", json={"name": "Bob"})
    assert second.status_code == 429
    # A limit of one is said in the singular ("1 players" before), in each language's own form.
    assert re.fullmatch(r"More than 1 player created in 60 s; retry in \d+ s\.", second.get_json()["detail"])
    third = client.post("/players", json={"name": "Bob"}, headers={"Accept-Language": "fr"})
    assert re.fullmatch(r"Plus de 1 joueur créé en 60 s ; réessayez dans \d+ s\.", third.get_json()["detail"])
    auth = {"Authorization": f"Bearer {first.get_json()['token']}"}
    seek = {"clock": {"initial_s": 60, "increment_s": 0}}
    assert client.post("/seeks", json=seek, headers=auth).status_code == 201
    assert client.post("/seeks", json=seek, headers=auth).status_code == 429
    games = [
        client.post("/games", json={"players": [{"name": "x"}, {"open": True}]}).get_json() for _ in range(2)
    ]
    assert client.post(f"/games/{games[0]['game']['id']}/join", json={"name": "Cy"}).status_code == 201
    assert client.post(f"/games/{games[1]['game']['id']}/join", json={"name": "Cy"}).status_code == 429
    # Another client has its own budget.
    other = client.post("/players", json={"name": "Dee"}, environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 201


def test_games_created_per_client_per_hour_are_limited_by_default():
    """Issue 36: one client made 3,000 open games in 16 s; every POST /games now counts, on by default."""
    settings = Settings()
    assert settings.rate_limit_games == RateLimit(300, 3600)
    assert Settings.from_env({"RATE_LIMIT_GAMES": "7"}).rate_limit_games == RateLimit(7, 3600)


def test_every_game_created_counts_open_ones_too(redis_url, contract):
    client = checked_app(
        redis_url, contract, rate_limit_games=RateLimit(limit=3, window_seconds=3600)
    ).test_client()
    open_game = {"players": [{"name": "Ann"}, {"open": True}]}
    answers = [client.post("/games", json=body) for body in (open_game, {}, open_game, open_game)]
    assert [r.status_code for r in answers] == [201, 201, 201, 429]
    limited = answers[-1]
    assert limited.get_json()["code"] == "rate_limited"
    assert limited.headers["RateLimit-Limit"] == "3"
    assert 3000 <= int(limited.headers["Retry-After"]) <= 3600
