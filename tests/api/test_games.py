"""Creating and reading games, the patch catalogue, conditional GETs."""

import json
from pathlib import Path

PATCHES = json.loads(
    (Path(__file__).resolve().parents[2] / "service" / "engine" / "patches.json").read_text()
)
REVISED_LEATHER = [26, 32, 38, 44, 50]
ORIGINAL_LEATHER = [20, 26, 32, 44, 50]
INCOME = [5, 11, 17, 23, 29, 35, 41, 47, 53]


def test_patches_lists_the_33_pieces_of_the_catalogue(client):
    resp = client.get("/patches")
    assert resp.status_code == 200
    patches = resp.get_json()["patches"]
    assert [p["id"] for p in patches] == list(range(1, 34))
    assert patches == PATCHES
    assert sum(p["cells"] for p in patches) == 166


def test_create_with_defaults(client):
    resp = client.post("/games")
    assert resp.status_code == 201
    body = resp.get_json()
    game = body["game"]
    assert resp.headers["Location"] == f"/games/{game['id']}"
    assert resp.headers["ETag"] == '"1"'
    assert len(body["tokens"]) == 2 and body["tokens"][0] != body["tokens"][1]
    assert game["version"] == 1 and game["moves_played"] == 0
    assert game["status"] == "active" and game["result"] is None
    assert game["turn"] == 0 and game["phase"] == "choose" and game["first_player"] == 0
    assert game["time_board"] == "revised" and game["leather_spaces"] == REVISED_LEATHER
    assert game["income_spaces"] == INCOME and game["track_length"] == 53
    assert isinstance(game["seed"], int) and 0 <= game["seed"] < 2**53
    assert sorted(game["circle"]) == list(range(1, 34)) and game["circle"][-1] == 1
    assert game["market"] == game["circle"][:3]
    assert game["bonus_owner"] is None
    for seat, player in enumerate(game["players"]):
        assert player["name"] == f"Player {seat + 1}"
        assert (player["buttons"], player["position"], player["income"]) == (5, 0, 0)
        assert player["empty_cells"] == 81 and player["has_bonus"] is False
        assert player["score"] == 5 - 2 * 81
        assert player["quilt"] == [[None] * 9 for _ in range(9)]


def test_game_ids_and_tokens_are_long_and_unique(client):
    bodies = [client.post("/games").get_json() for _ in range(5)]
    ids = {b["game"]["id"] for b in bodies}
    tokens = {t for b in bodies for t in b["tokens"]}
    assert len(ids) == 5 and len(tokens) == 10
    # 122 random bits need at least 21 base64url characters.
    assert all(len(i) >= 21 for i in ids)


def test_same_seed_same_circle_and_seed_is_reported(client):
    a = client.post("/games", json={"seed": 12345}).get_json()["game"]
    b = client.post("/games", json={"seed": 12345}).get_json()["game"]
    c = client.post("/games", json={"seed": 12346}).get_json()["game"]
    assert a["seed"] == 12345
    assert a["circle"] == b["circle"] != c["circle"]


def test_create_with_every_option(client):
    order = list(range(33, 1, -1)) + [1]
    resp = client.post(
        "/games",
        json={
            "players": [{"name": "Ada"}, {"name": "Grace"}],
            "patch_order": order,
            "first_player": 1,
            "time_board": "original",
        },
    )
    assert resp.status_code == 201
    game = resp.get_json()["game"]
    assert game["circle"] == order and game["market"] == [33, 32, 31]
    assert game["seed"] is None
    assert game["first_player"] == 1 and game["turn"] == 1
    assert game["leather_spaces"] == ORIGINAL_LEATHER
    assert [p["name"] for p in game["players"]] == ["Ada", "Grace"]


def test_null_options_mean_defaults(client):
    resp = client.post(
        "/games",
        json={"seed": None, "patch_order": None, "players": None, "first_player": None, "time_board": None},
    )
    assert resp.status_code == 201
    game = resp.get_json()["game"]
    assert game["first_player"] == 0 and game["time_board"] == "revised" and isinstance(game["seed"], int)


def test_bad_creation_parameters_are_400_with_pointers(client):
    cases = [
        ({"seed": 1, "patch_order": list(range(2, 34)) + [1]}, None),
        ({"seed": -1}, "/seed"),
        ({"seed": 2**53}, "/seed"),
        ({"seed": "7"}, "/seed"),
        ({"first_player": 2}, "/first_player"),
        ({"time_board": "deluxe"}, "/time_board"),
        ({"players": [{"name": "solo"}]}, "/players"),
        ({"players": [{"name": ""}, {"name": "b"}]}, "/players/0/name"),
        ({"players": [{"name": "a" * 41}, {"name": "b"}]}, "/players/0/name"),
        ({"patch_order": list(range(1, 34))}, "/patch_order"),  # the 1x2 must be last
        ({"patch_order": list(range(2, 34))}, "/patch_order"),
        ({"seeed": 3}, "/seeed"),
    ]
    for body, pointer in cases:
        resp = client.post("/games", json=body)
        assert resp.status_code == 400, body
        problem = resp.get_json()
        assert problem["code"] == "invalid_request"
        if pointer is not None:
            pointers = [e.get("pointer") or "" for e in problem["errors"]]
            assert any(p == pointer or p.startswith(pointer + "/") for p in pointers), (body, problem)


def test_integral_float_counts_as_integer(client):
    resp = client.post("/games", json={"seed": 7.0, "first_player": 1.0})
    assert resp.status_code == 201
    assert resp.get_json()["game"]["seed"] == 7


def test_get_game_and_conditional_get(client, table):
    t = table()
    resp = client.get(f"/games/{t.id}")
    assert resp.status_code == 200 and resp.headers["ETag"] == '"1"'
    assert resp.get_json() == t.game
    for header in ('"1"', "*", '"7", "1"', 'W/"1"'):
        cached = client.get(f"/games/{t.id}", headers={"If-None-Match": header})
        assert cached.status_code == 304, header
        assert cached.get_data() == b"" and cached.headers["ETag"] == '"1"'
    assert client.get(f"/games/{t.id}", headers={"If-None-Match": '"2"'}).status_code == 200
    t.play({"action": "advance"})
    assert client.get(f"/games/{t.id}", headers={"If-None-Match": '"1"'}).status_code == 200


def test_unknown_game_is_404_game_not_found(client):
    for path in ("/games/nope", "/games/nope/moves", "/games/nope/moves/1", "/games/nope/legal-moves"):
        resp = client.get(path)
        assert resp.status_code == 404, path
        assert resp.get_json()["code"] == "game_not_found"
        assert resp.mimetype == "application/problem+json"
