"""Bot accounts over HTTP on a single Redis and a Cluster (issue 40): outside engines as players, in
challenges only, and at most BOT_GAMES_PER_DAY games a day against each other."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from service.config import RateLimit

from .conftest import client_with

BLITZ = {"initial_s": 300, "increment_s": 3}
DAY_S = 24 * 3600


def _player(client, name, bot=False):
    body = {"name": name, "bot": True} if bot else {"name": name}
    resp = client.post("/players", json=body)
    assert resp.status_code == 201, resp.get_json()
    created = resp.get_json()
    return created["player"], {"Authorization": f"Bearer {created['token']}"}


def _challenge(client, auth, to, **body):
    resp = client.post("/challenges", json={"to": to, **body}, headers=auth)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["challenge"]


def _accept(client, challenge, auth):
    return client.post(f"/challenges/{challenge['id']}/accept", headers=auth)


def _game_between(client, challenger_auth, acceptor, acceptor_auth, **body):
    """A challenge from one player to `acceptor`, accepted: the game's id."""
    resp = _accept(client, _challenge(client, challenger_auth, acceptor["id"], **body), acceptor_auth)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["game"]["id"]


def _refused(resp, status, code):
    assert resp.status_code == status, resp.get_json()
    assert resp.get_json()["code"] == code
    return resp


def test_a_bot_account_is_made_like_a_player_and_shows_as_a_bot(backend, contract):
    with client_with(backend, contract, rate_limit_players=RateLimit(limit=2, window_seconds=60)) as client:
        bot, bot_auth = _player(client, "Sturdy Engine", bot=True)
        person, _ = _player(client, "Ann")
        assert bot["bot"] is True and person["bot"] is False
        assert client.get(f"/players/{bot['id']}").get_json()["bot"] is True
        assert client.get("/players/me", headers=bot_auth).get_json()["bot"] is True
        assert client.get(f"/players/{person['id']}").get_json()["bot"] is False
        # A bot counts among the client's players as a person does: the third is refused.
        _refused(client.post("/players", json={"name": "Another", "bot": True}), 429, "rate_limited")


def test_a_bot_accounts_token_is_refused_where_only_people_play(client):
    _bot, bot_auth = _player(client, "Engine", bot=True)
    _ann, ann_auth = _player(client, "Ann")
    tournament = {"name": "Cup", "system": "round_robin", "clock": BLITZ, "max_players": 4}
    refusals = {
        "seek": client.post("/seeks", json={"clock": BLITZ}, headers=bot_auth),
        "game": client.post("/games", json={}, headers=bot_auth),
        "lobby game": client.post(
            "/games", json={"players": [{"name": "Engine"}, {"open": True}]}, headers=bot_auth
        ),
    }
    # Ann's open game, which the bot may not join, with or without an Idempotency-Key.
    hosted = client.post("/games", json={"players": [{"name": "Ann"}, {"open": True}]}, headers=ann_auth)
    game_id = hosted.get_json()["game"]["id"]
    refusals["join"] = client.post(f"/games/{game_id}/join", headers=bot_auth)
    refusals["keyed join"] = client.post(
        f"/games/{game_id}/join", headers={**bot_auth, "Idempotency-Key": "take-it"}
    )
    # Ann's tournament, which the bot may not join; nor may it organise one.
    made = client.post("/tournaments", json={**tournament, "starts_at": _soon(client)}, headers=ann_auth)
    assert made.status_code == 201, made.get_json()
    tournament_id = made.get_json()["tournament"]["id"]
    refusals["tournament"] = client.post(
        "/tournaments", json={**tournament, "starts_at": _soon(client)}, headers=bot_auth
    )
    refusals["tournament join"] = client.post(f"/tournaments/{tournament_id}/join", headers=bot_auth)
    for what, resp in refusals.items():
        assert resp.status_code == 403, (what, resp.get_json())
        assert resp.get_json()["code"] == "bot_account", what
        assert "bot account plays challenges only" in resp.get_json()["detail"], what
    # Nothing was made or taken: the seat is still open, the tournament has no bot.
    assert client.get(f"/games/{game_id}").get_json()["players"][1]["open"] is True
    assert client.get(f"/tournaments/{tournament_id}").get_json()["tournament"]["players"] == []
    assert client.get("/games?status=open").get_json()["games"][0]["id"] == game_id
    # In each of the four languages, the refusal is spoken (not left English).
    titles = {
        language: client.post(
            "/seeks", json={"clock": BLITZ}, headers={**bot_auth, "Accept-Language": language}
        ).get_json()["title"]
        for language in ("en", "es", "pt", "fr")
    }
    assert titles["en"] == "Bot accounts play challenges only"
    assert len(set(titles.values())) == 4
    # Without its token, a game is anyone's and holds no seat of the bot.
    assert client.post("/games", json={}).status_code == 201


def _soon(client):
    """A tournament's start an hour ahead."""
    return (datetime.now(UTC) + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_a_person_challenges_a_bot_which_accepts_and_plays_with_its_player_token(client):
    ann, ann_auth = _player(client, "Ann")
    bot, bot_auth = _player(client, "Engine", bot=True)
    challenge = _challenge(client, ann_auth, bot["id"], seat=1)
    assert challenge["to"]["bot"] is True and challenge["from"]["bot"] is False
    # The bot hears of it, lists it, and accepts it with its own player token.
    incoming = client.get("/players/me/challenges", headers=bot_auth).get_json()["incoming"]
    assert [c["id"] for c in incoming] == [challenge["id"]]
    resp = _accept(client, challenge, bot_auth)
    assert resp.status_code == 201, resp.get_json()
    game = resp.get_json()["game"]
    assert resp.get_json()["seat"] == 0
    assert [p["bot"] for p in game["players"]] == [True, None]
    assert [p["player_id"] for p in game["players"]] == [bot["id"], ann["id"]]
    # The bot's player token moves its seat; no bot worker plays it.
    moved = client.post(f"/games/{game['id']}/moves", json={"action": "advance"}, headers=bot_auth)
    assert moved.status_code == 201, moved.get_json()
    assert moved.get_json()["turn"] == 1 and moved.get_json()["players"][0]["bot"] is True
    # Both lists of games show the bot's seat as a bot account's.
    summary = client.get(f"/games?status=active&player={bot['id']}").get_json()["games"]
    assert [[p["bot"] for p in entry["players"]] for entry in summary] == [[True, None]]
    mine = client.get("/players/me/games", headers=ann_auth).get_json()["games"]
    assert [entry["game"]["players"][0]["bot"] for entry in mine] == [True]
    # A bot may challenge a person and decline a challenge too.
    _challenge(client, bot_auth, ann["id"])
    declined = client.post(
        f"/challenges/{_challenge(client, ann_auth, bot['id'])['id']}/decline",
        json={"reason": "too_slow"},
        headers=bot_auth,
    )
    assert declined.status_code == 200 and declined.get_json()["challenge"]["status"] == "declined"


def test_a_bot_accounts_seat_answers_offers_itself_and_never_at_once(client):
    _ann, ann_auth = _player(client, "Ann")
    bot, bot_auth = _player(client, "Engine", bot=True)
    game_id = _game_between(client, ann_auth, bot, bot_auth, seat=0)
    # A takeback asked of the bot stands as an offer: a service bot's seat would have given it at once.
    assert (
        client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=ann_auth).status_code
        == 201
    )
    asked = client.post(f"/games/{game_id}/takeback", headers=ann_auth)
    assert asked.status_code == 202, asked.get_json()
    assert client.get(f"/games/{game_id}").get_json()["version"] == 2
    assert client.post(f"/games/{game_id}/takeback", headers=bot_auth).status_code == 201
    # A rematch offered to the bot waits for the bot's own answer.
    assert client.post(f"/games/{game_id}/resign", headers=ann_auth).status_code == 201
    offered = client.post(f"/games/{game_id}/rematch", headers=ann_auth)
    assert offered.status_code == 202, offered.get_json()
    assert client.get(f"/games/{game_id}").get_json()["next_game"] is None
    accepted = client.post(f"/games/{game_id}/rematch", headers=bot_auth)
    assert accepted.status_code == 201, accepted.get_json()
    assert [p["bot"] for p in accepted.get_json()["game"]["players"]] == [True, None]
    # And a rematch the bot offers waits for the person.
    other = _game_between(client, ann_auth, bot, bot_auth)
    assert client.post(f"/games/{other}/resign", headers=bot_auth).status_code == 201
    assert client.post(f"/games/{other}/rematch", headers=bot_auth).status_code == 202
    assert client.get(f"/games/{other}").get_json()["next_game"] is None


def test_rated_games_between_a_bot_and_a_person_count_and_the_leaderboard_flags_the_bot(client):
    ann, ann_auth = _player(client, "Ann")
    bot, bot_auth = _player(client, "Engine", bot=True)
    for _n in range(5):
        game_id = _game_between(client, ann_auth, bot, bot_auth, clock=BLITZ, rated=True, seat=0)
        for auth in (ann_auth, bot_auth):
            assert (
                client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=auth).status_code
                == 201
            )
        result = client.post(f"/games/{game_id}/resign", headers=ann_auth).get_json()["result"]
        assert result["rated"] is True and result["rating_diff"][1] > 0
    board = client.get("/leaderboard").get_json()["players"]
    assert [(p["id"], p["bot"]) for p in board] == [(bot["id"], True), (ann["id"], False)]
    assert board[0]["games"] == 5 and board[0]["rating"] > 1500 > board[1]["rating"]


def test_bot_against_bot_games_are_capped_per_bot_and_a_refused_accept_changes_nothing(backend, contract):
    with client_with(backend, contract, bot_games_per_day=2) as client:
        alpha, alpha_auth = _player(client, "Alpha", bot=True)
        beta, beta_auth = _player(client, "Beta", bot=True)
        gamma, gamma_auth = _player(client, "Gamma", bot=True)
        _delta, delta_auth = _player(client, "Delta", bot=True)
        ann, ann_auth = _player(client, "Ann")
        first = _game_between(client, alpha_auth, beta, beta_auth)
        _game_between(client, beta_auth, alpha, alpha_auth)
        # Alpha and Beta have played their two: a third accept is refused, the challenge stays pending.
        third = _challenge(client, alpha_auth, beta["id"])
        resp = _refused(_accept(client, third, beta_auth), 429, "bot_games_per_day")
        assert DAY_S - 60 < int(resp.headers["Retry-After"]) <= DAY_S
        shown = client.get(f"/challenges/{third['id']}").get_json()["challenge"]
        assert shown["status"] == "pending" and shown["game"] is None
        assert len(client.get("/players/me/games", headers=beta_auth).get_json()["games"]) == 2
        # Gamma's challenge to Alpha is refused on Alpha's count: Gamma's place is given back ...
        _refused(
            _accept(client, _challenge(client, gamma_auth, alpha["id"]), alpha_auth), 429, "bot_games_per_day"
        )
        # ... so Gamma still plays two games against bots today, and no third.
        _game_between(client, delta_auth, gamma, gamma_auth)
        _game_between(client, delta_auth, gamma, gamma_auth)
        _refused(
            _accept(client, _challenge(client, delta_auth, gamma["id"]), gamma_auth), 429, "bot_games_per_day"
        )
        # Games against people are not counted.
        _game_between(client, ann_auth, alpha, alpha_auth)
        _game_between(client, alpha_auth, ann, ann_auth)
        # A rematch between two bots is capped too: refused, the offer still stands, no game.
        assert client.post(f"/games/{first}/resign", headers=alpha_auth).status_code == 201
        assert client.post(f"/games/{first}/rematch", headers=alpha_auth).status_code == 202
        _refused(client.post(f"/games/{first}/rematch", headers=beta_auth), 429, "bot_games_per_day")
        after = client.get(f"/games/{first}").get_json()
        assert after["next_game"] is None and after["offer"]["kind"] == "rematch"


def test_two_accepts_racing_on_two_instances_never_pass_the_cap_together(backend, contract):
    with (
        client_with(backend, contract, bot_games_per_day=1) as first,
        client_with(backend, contract, bot_games_per_day=1) as second,
    ):
        for _round in range(4):
            # Beta has one game left today; Alpha's and Gamma's challenges are accepted at once, each on
            # its own instance.
            beta, beta_auth = _player(first, "Beta", bot=True)
            challenges = [
                _challenge(first, _player(first, name, bot=True)[1], beta["id"])
                for name in ("Alpha", "Gamma")
            ]
            start = threading.Barrier(2)
            answers: list = [None, None]

            def accept(n: int, client, challenge) -> None:
                start.wait()
                answers[n] = _accept(client, challenge, beta_auth)

            threads = [
                threading.Thread(target=accept, args=(n, client, challenge))
                for n, (client, challenge) in enumerate(zip((first, second), challenges, strict=True))
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=30)
            assert sorted(resp.status_code for resp in answers) == [201, 429]
            assert len(first.get("/players/me/games", headers=beta_auth).get_json()["games"]) == 1
            statuses = sorted(
                first.get(f"/challenges/{c['id']}").get_json()["challenge"]["status"] for c in challenges
            )
            assert statuses == ["accepted", "pending"]
