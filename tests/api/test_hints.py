"""GET /games/{id}/hint: the move a hint level would play now, as the bots package plays it."""

import pytest

from service import bots
from service.api.contract.spec import load_spec
from service.api.resources.hints import HintCache
from service.engine import Advance, Buy, PlaceLeather, canonical_move, replay

ADVANCE = {"action": "advance"}


def bot_move_body(game: dict, moves: list, level: str) -> dict:
    """What the bots package plays for level at this game's position, in the request-body form."""
    state = replay(moves, seed=game["seed"])
    move = canonical_move(bots.choose_move(state, level, bots.seed_for(game["id"], game["version"])))
    if isinstance(move, Buy):
        p = move.placement
        return {
            "action": "buy",
            "patch_id": move.patch_id,
            "placement": {
                "row": p.row,
                "col": p.col,
                "rotation": p.rotation,
                "flipped": p.flipped,
                "cells": [list(cell) for cell in p.cells],
            },
        }
    if isinstance(move, PlaceLeather):
        return {"action": "place_leather", "row": move.row, "col": move.col}
    return ADVANCE


def hint(t, **query):
    return t.client.get(f"/games/{t.id}/hint", query_string=query)


@pytest.mark.parametrize("level", ["greedy", "random"])
def test_the_hint_is_the_move_the_bot_plays(table, level):
    t = table({"seed": 21})
    played = []
    for _ in range(3):
        game = t.state()
        resp = hint(t, level=level)
        assert resp.status_code == 200
        assert resp.headers["ETag"] == f'"{game["version"]}"'
        answer = resp.get_json()
        assert answer == {"move": bot_move_body(game, played, level), "version": game["version"]}
        assert answer["move"] in t.legal()["moves"]
        t.play(answer["move"])  # as it came: a buy's placement in both forms
        played.append(
            canonical_move(
                bots.choose_move(replay(played, seed=21), level, bots.seed_for(t.id, game["version"]))
            )
        )


def test_the_default_level_is_greedy(table):
    t = table({"seed": 2})
    assert hint(t).get_json() == hint(t, level="greedy").get_json()
    assert hint(t).get_json()["move"] == bot_move_body(t.state(), [], "greedy")


def test_a_leather_patch_due_is_hinted_as_a_placement(table):
    t = table({"seed": 9})
    state = t.game
    played = []
    while state["phase"] != "place_leather":
        state = t.play(ADVANCE)
        played.append(Advance())
    move = hint(t, level="greedy").get_json()["move"]
    assert move["action"] == "place_leather"
    assert move == bot_move_body(state, played, "greedy")


def test_a_current_etag_gets_304(table):
    t = table()
    resp = hint(t)
    again = t.client.get(f"/games/{t.id}/hint", headers={"If-None-Match": resp.headers["ETag"]})
    assert again.status_code == 304
    t.play(ADVANCE)
    moved_on = t.client.get(f"/games/{t.id}/hint", headers={"If-None-Match": resp.headers["ETag"]})
    assert moved_on.status_code == 200
    assert moved_on.get_json()["version"] == 2


@pytest.mark.parametrize("level", ["search", "search-quick", "nope", ""])
def test_a_level_that_gives_no_hints_is_400_naming_the_parameter(table, level):
    t = table()
    resp = hint(t, level=level)
    assert resp.status_code == 400
    problem = resp.get_json()
    assert problem["code"] == "invalid_request"
    assert [error["parameter"] for error in problem["errors"]] == ["level"]


def test_the_levels_that_run_are_the_catalogues_hint_levels(table):
    t = table()
    for level in bots.LEVELS:
        assert hint(t, level=level.id).status_code == (200 if level.hint else 400), level.id


def test_a_finished_game_has_no_hint(table):
    t = table()
    assert t.client.post(f"/games/{t.id}/resign", headers=t.auth(0)).status_code == 201
    resp = hint(t)
    assert resp.status_code == 409
    assert resp.get_json()["code"] == "game_finished"


def test_an_unknown_game_is_404(client):
    resp = client.get("/games/AAAAAAAAAAAAAAAAAAAAAA/hint")
    assert resp.status_code == 404
    assert resp.get_json()["code"] == "game_not_found"


def test_answers_are_cached_per_game_version_and_level(table, monkeypatch):
    calls = []
    choose = bots.choose_move

    def counting(state, level_id, seed, *args, **kwargs):
        calls.append((level_id, seed))
        return choose(state, level_id, seed, *args, **kwargs)

    monkeypatch.setattr(bots, "choose_move", counting)
    t = table()
    first = hint(t).get_data()
    assert hint(t).get_data() == first
    assert len(calls) == 1
    hint(t, level="random")
    hint(t, level="random")
    assert len(calls) == 2
    t.play(ADVANCE)
    hint(t)
    hint(t)
    assert [level for level, _ in calls] == ["greedy", "random", "greedy"]
    assert calls[2][1] == bots.seed_for(t.id, 2)


def test_the_cache_keeps_only_the_latest_answers():
    cache = HintCache(2)
    cache.put(("a", 1, "greedy"), "A")
    cache.put(("b", 1, "greedy"), "B")
    assert cache.get(("a", 1, "greedy")) == "A"  # now the most recent
    cache.put(("c", 1, "greedy"), "C")
    assert cache.get(("b", 1, "greedy")) is None  # the least recent went
    assert (cache.get(("a", 1, "greedy")), cache.get(("c", 1, "greedy"))) == ("A", "C")


def test_the_spec_lists_the_catalogues_hint_levels():
    hint_path = load_spec()["paths"]["/games/{game_id}/hint"]["get"]
    (level,) = [p for p in hint_path["parameters"] if p.get("name") == "level"]
    assert level["schema"]["enum"] == [lvl.id for lvl in bots.LEVELS if lvl.hint]
    assert level["schema"]["default"] == "greedy"
