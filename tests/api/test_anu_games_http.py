"""The 14 known-answer games, played over HTTP, end on their published scores."""

import pytest

from tests.support.anu import anu_games, create_body, request_body, tokens

GAMES = anu_games()


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_anu_game_replays_to_known_scores(table, index):
    game = GAMES[index]
    t = table(create_body(game))
    state = t.game
    for number, token in enumerate(tokens(game["moves"]), start=1):
        state = t.play(request_body(token), seat=state["turn"])
        assert state["moves_played"] == number
        assert state["version"] == number + 1
    assert state["status"] == "finished"
    assert state["turn"] is None and state["phase"] is None
    assert state["result"]["scores"] == game["final_scores"]
    assert state["result"]["reason"] == "completed"
    assert state["bonus_owner"] == game["bonus_owner"]
    assert [p["score"] for p in state["players"]] == game["final_scores"]


def test_every_anu_move_is_listed_as_legal(table, client):
    """One whole game: each move the course played appears in legal-moves first."""
    game = GAMES[0]
    t = table(create_body(game))
    state = t.game
    for token in tokens(game["moves"]):
        body = request_body(token)
        legal = t.legal()
        assert legal["turn"] == state["turn"]
        if body["action"] == "buy":
            wanted = body["placement"]
            # Compare by covered cells: the listing shows the canonical orientation.
            candidates = [
                m for m in legal["moves"] if m["action"] == "buy" and m["patch_id"] == body["patch_id"]
            ]
            state = t.play(body, seat=state["turn"])
            last = client.get(f"/games/{t.id}/moves/{state['moves_played']}").get_json()
            assert last["placement"]["cells"] in [m["placement"]["cells"] for m in candidates]
            # Equal cells mean an equal bounding box, whichever orientation names them.
            assert (last["placement"]["row"], last["placement"]["col"]) == (wanted["row"], wanted["col"])
        else:
            assert body in legal["moves"]
            state = t.play(body, seat=state["turn"])
    assert state["result"]["scores"] == game["final_scores"]
