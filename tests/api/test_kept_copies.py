"""Moves judged on the copy a process kept of the game it stored last.

Two app instances share one Redis. Each keeps copies of the games it stored
(service/games/kept.py); these tests make that copy go out of date in each way it
can (the other instance moved, Redis lost a write, the game expired) and
show that the answer is always the one the stored game gives, and how many
round trips it costs.
"""

from __future__ import annotations

import json
import random

import pytest
from flask import Flask

from service.api import create_app
from service.engine import Advance, replay
from service.games import GameCopy, GameRecord, KeptCopies
from tests.support.anu import anu_games, create_body, request_body, tokens
from tests.support.backends import make_settings
from tests.support.redis_monitor import ClientCommands

ADVANCE = {"action": "advance"}


@pytest.fixture
def apps(redis_url):
    instances = [create_app(make_settings(redis_url)) for _ in range(2)]
    yield instances
    for app in instances:
        app.extensions["patchwork"].store.close()


class Game:
    """One game, played through whichever instance a move names."""

    def __init__(self, app: Flask, body: dict | None = None):
        created = app.test_client().post("/games", json=body or {"seed": 11}).get_json()
        self.id = created["game"]["id"]
        self.tokens = created["tokens"]
        self.turn = created["game"]["turn"]

    def move(self, app: Flask, body: dict = ADVANCE, seat: int | None = None):
        seat = self.turn if seat is None else seat
        resp = app.test_client().post(
            f"/games/{self.id}/moves",
            data=json.dumps(body),
            content_type="application/json",
            headers={"Authorization": f"Bearer {self.tokens[seat]}"},
        )
        if resp.status_code == 201:
            self.turn = resp.get_json()["turn"]
        return resp

    def stored_state(self, app: Flask):
        return GameRecord.decode(app.extensions["patchwork"].store.load_game(self.id).state).state

    def history(self, app: Flask) -> list[dict]:
        return app.test_client().get(f"/games/{self.id}/moves").get_json()["moves"]


@pytest.mark.parametrize("index", [0, 5, 9])
def test_anu_games_moved_through_two_instances_at_random_keep_their_scores(apps, index):
    game = anu_games()[index]
    pick = random.Random(index)
    played = Game(apps[0], create_body(game))
    for token in tokens(game["moves"]):
        resp = played.move(apps[pick.randrange(2)], request_body(token))
        assert resp.status_code == 201, resp.get_json()
    final = resp.get_json()
    assert final["status"] == "finished"
    assert final["result"]["scores"] == game["final_scores"]


def test_a_move_after_this_instance_stored_the_last_one_takes_one_round_trip(apps, redis_url):
    a, b = apps
    game = Game(a)
    b.test_client().get(f"/games/{game.id}")  # b connects (a connection's set-up commands are not counted)
    with ClientCommands(redis_url) as commands:
        assert game.move(a).status_code == 201
        assert commands.take() == 2  # no copy yet: read, then commit
        assert game.move(a).status_code == 201
        assert commands.take() == 1  # commit against the kept copy
        assert game.move(b).status_code == 201
        assert commands.take() == 2
        # a's copy is one move behind: its commit is refused with the stored game, then made on it.
        assert game.move(a).status_code == 201
        assert commands.take() == 2
        assert game.move(a).status_code == 201
        assert commands.take() == 1


def test_with_recent_games_off_every_move_reads_the_game(redis_url):
    app = create_app(make_settings(redis_url, recent_games=0))
    game = Game(app)
    with ClientCommands(redis_url) as commands:
        for _ in range(3):
            assert game.move(app).status_code == 201
            assert commands.take() == 2
    app.extensions["patchwork"].store.close()


def test_a_refusal_on_an_out_of_date_copy_is_not_given(apps):
    a, b = apps
    game = Game(a)
    first = game.turn
    assert game.move(a).status_code == 201  # a's copy: the other seat's turn
    assert game.move(b).status_code == 201  # stored: `first`'s turn again

    resp = game.move(a, seat=first)

    # a's copy says "not your turn"; the stored game says it is.
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["version"] == 4


def test_a_move_legal_on_an_out_of_date_copy_is_judged_on_the_stored_game(apps):
    a, b = apps
    game = Game(a)
    second = 1 - game.turn
    assert game.move(a).status_code == 201  # a's copy: `second`'s turn
    assert game.move(b).status_code == 201  # stored: `second` has moved

    resp = game.move(a, seat=second)

    assert resp.status_code == 409
    assert resp.get_json()["code"] == "not_your_turn"
    assert resp.headers["ETag"] == '"3"'
    assert len(game.history(b)) == 2


def test_a_copy_never_commits_over_a_game_that_reached_its_version_by_other_moves(apps, redis_server):
    a, b = apps
    game = Game(a)
    first = game.turn
    keys = [f"patchwork:{{{game.id}}}:game", f"patchwork:{{{game.id}}}:moves"]
    with redis_server.client() as redis:
        saved = {key: redis.dump(key) for key in keys if redis.exists(key)}
        buy = next(
            m
            for m in a.test_client().get(f"/games/{game.id}/legal-moves").get_json()["moves"]
            if m["action"] == "buy"
        )
        del buy["placement"]["cells"]  # a request names a placement one way only
        assert game.move(a, buy).status_code == 201  # a keeps the game after this buy
        # Redis loses that write (a failover to a replica that had not seen it) ...
        for key in keys:
            redis.delete(key)
        with redis.pipeline() as restore:
            for key, dumped in saved.items():
                restore.restore(key, 0, dumped)
            restore.execute()
    # ... and the game reaches version 2 again by another move.
    game.turn = first
    assert game.move(b).status_code == 201
    second = game.turn

    resp = game.move(a, seat=second)

    assert resp.status_code == 201, resp.get_json()
    history = game.history(b)
    assert [m["action"] for m in history] == ["advance", "advance"]
    assert game.stored_state(b) == replay([Advance(), Advance()], seed=11)
    assert resp.get_json()["players"][first]["quilt"] == [[None] * 9] * 9


def test_a_copy_of_a_game_that_expired_answers_404(apps, redis_server):
    a, _ = apps
    game = Game(a)
    assert game.move(a).status_code == 201
    with redis_server.client() as redis:
        redis.delete(*redis.keys(f"*{{{game.id}}}*"))

    wrong_token = a.test_client().post(
        f"/games/{game.id}/moves",
        data=json.dumps(ADVANCE),
        content_type="application/json",
        headers={"Authorization": "Bearer not-a-seat-token"},
    )
    right_token = game.move(a)

    assert (wrong_token.status_code, right_token.status_code) == (404, 404)
    assert right_token.get_json()["code"] == "game_not_found"
    assert a.extensions["patchwork"].play.kept.get(game.id) is None


def _copy(version: int) -> GameCopy:
    return GameCopy(version, f"rev-{version}", record=None)  # type: ignore[arg-type]


def test_kept_copies_forget_the_least_recently_used_beyond_capacity():
    kept = KeptCopies(2)
    kept.put("a", _copy(1))
    kept.put("b", _copy(1))
    assert kept.get("a") == _copy(1)  # "a" is now the most recent
    kept.put("c", _copy(1))

    assert kept.get("b") is None
    assert kept.get("a") == _copy(1) and kept.get("c") == _copy(1)
    kept.put("a", _copy(2))
    assert kept.get("a") == _copy(2)
    kept.drop("a")
    assert kept.get("a") is None


def test_kept_copies_of_capacity_0_keep_nothing():
    kept = KeptCopies(0)
    kept.put("a", _copy(1))
    assert kept.get("a") is None
