"""Playing moves over HTTP: hand-worked positions, every refusal, the history."""

import pytest

# Circle 2, 3, 4, ..., 33, 1: the market opens with patches 2, 3 and 4.
#   2: cost 1, time 3, cells .X/XX    3: cost 3, time 1, same shape
#   4: cost 2, time 2, a 1x3 bar      14: cost 7, time 1, a 1x5 bar
ORDER = list(range(2, 34)) + [1]
ORDER_14_FIRST = [14] + [i for i in range(2, 34) if i != 14] + [1]
ADVANCE = {"action": "advance"}


def buy(patch_id, row, col, rotation=0, flipped=False):
    return {
        "action": "buy",
        "patch_id": patch_id,
        "placement": {"row": row, "col": col, "rotation": rotation, "flipped": flipped},
    }


def buy_cells(patch_id, cells):
    return {"action": "buy", "patch_id": patch_id, "placement": {"cells": cells}}


def code(resp):
    return resp.status_code, resp.get_json()["code"]


def test_opening_moves_hand_worked(table, client):
    t = table({"patch_order": ORDER})
    # Seat 0 buys patch 2 at the corner: 5 - 1 = 4 buttons, token 0 -> 3.
    resp = t.move(buy(2, 0, 0), seat=0)
    assert resp.status_code == 201
    assert resp.headers["ETag"] == '"2"'
    assert resp.headers["Location"] == f"/games/{t.id}/moves/1"
    game = resp.get_json()
    p0 = game["players"][0]
    assert (p0["buttons"], p0["position"], p0["empty_cells"]) == (4, 3, 78)
    assert p0["quilt"][0][:2] == [None, 2] and p0["quilt"][1][:2] == [2, 2]
    assert game["circle"] == ORDER[1:] and game["market"] == [3, 4, 5]
    assert game["turn"] == 1 and game["version"] == 2 and game["moves_played"] == 1

    # Seat 1 buys patch 4 (skipping 3) by cells: 5 - 2 = 3 buttons, token 0 -> 2.
    # The neutral token moves to patch 4's place: 3 comes round again last.
    game = t.play(buy_cells(4, [[0, 0], [1, 0], [2, 0]]), seat=1)
    p1 = game["players"][1]
    assert (p1["buttons"], p1["position"]) == (3, 2)
    assert game["circle"] == list(range(5, 34)) + [1, 3] and game["market"] == [5, 6, 7]
    assert game["turn"] == 1  # still behind (2 < 3), so seat 1 acts again

    # Seat 1 advances to just in front of seat 0: 2 -> 4, one button per space.
    game = t.play(ADVANCE, seat=1)
    p1 = game["players"][1]
    assert (p1["buttons"], p1["position"]) == (5, 4)
    assert game["turn"] == 0

    history = client.get(f"/games/{t.id}/moves")
    assert history.headers["ETag"] == '"4"'
    moves = history.get_json()["moves"]
    assert moves[0] == {
        "number": 1,
        "seat": 0,
        "action": "buy",
        "patch_id": 2,
        "placement": {"row": 0, "col": 0, "rotation": 0, "flipped": False, "cells": [[0, 1], [1, 0], [1, 1]]},
        "outcome": {"buttons": -1, "income": 0, "from": 0, "to": 3, "leather_won": 0, "bonus": False},
    }
    # Given as cells, shown with its first orientation too: the bar as listed, upright.
    assert moves[1]["placement"] == {
        "row": 0,
        "col": 0,
        "rotation": 0,
        "flipped": False,
        "cells": [[0, 0], [1, 0], [2, 0]],
    }
    assert moves[1]["outcome"] == {
        "buttons": -2,
        "income": 0,
        "from": 0,
        "to": 2,
        "leather_won": 0,
        "bonus": False,
    }
    assert moves[2] == {
        "number": 3,
        "seat": 1,
        "action": "advance",
        "outcome": {"buttons": 2, "income": 0, "from": 2, "to": 4, "leather_won": 0, "bonus": False},
    }
    assert client.get(f"/games/{t.id}/moves/3").get_json() == moves[2]
    assert client.get(f"/games/{t.id}/moves", query_string={"since": 2}).get_json()["moves"] == moves[2:]


def test_legal_moves_at_a_hand_counted_start(table, client):
    t = table({"patch_order": ORDER})
    legal = t.legal()
    assert (legal["version"], legal["turn"], legal["phase"]) == (1, 0, "choose")
    # advance + patch 2 (4 orientations x 8x8 spots) + patch 3 (same) + patch 4 (2 x 7x9)
    assert len(legal["moves"]) == 1 + 256 + 256 + 126
    assert legal["moves"][0] == ADVANCE
    bars = t.legal(patch_id=4)["moves"]
    assert len(bars) == 126 and {m["patch_id"] for m in bars} == {4}
    cells = [(m["patch_id"], tuple(map(tuple, m["placement"]["cells"]))) for m in legal["moves"][1:]]
    assert len(set(cells)) == len(cells)  # one entry per distinct set of covered cells
    assert t.legal(patch_id=9)["moves"] == []  # not in the market
    for bad in ("0", "34", "x", "1.5"):
        resp = client.get(f"/games/{t.id}/legal-moves", query_string={"patch_id": bad})
        assert code(resp) == (400, "invalid_request"), bad
        assert resp.get_json()["errors"][0]["parameter"] == "patch_id"


def test_each_listed_move_is_accepted(table):
    """Every buy the service lists applies in either form alone (sampled across the listing)."""
    t = table({"patch_order": ORDER})
    moves = t.legal()["moves"]
    for index, move in enumerate(moves[1::97]):
        fresh = table({"patch_order": ORDER})
        # One form only, the orientation or the cells: expect the cells back.
        form = ("row", "col", "rotation", "flipped") if index % 2 else ("cells",)
        placement = {k: v for k, v in move["placement"].items() if k in form}
        resp = fresh.move({**move, "placement": placement}, seat=0)
        assert resp.status_code == 201, move
        quilt = resp.get_json()["players"][0]["quilt"]
        covered = sorted([r, c] for r in range(9) for c in range(9) if quilt[r][c] is not None)
        assert covered == move["placement"]["cells"]


# Positions whose listings are sent back: a circle turned so that patches 10-12 make the market,
# and quilts with patches on them, market 5-7 (the opening of test_opening_moves_hand_worked).
# Every orientation of every patch: tests/api/test_validation.py.
OPENING = [(buy(2, 0, 0), 0), (buy_cells(4, [[0, 0], [1, 0], [2, 0]]), 1), (ADVANCE, 1)]
POSITIONS = [(ORDER[8:-1] + ORDER[:8] + [1], []), (ORDER, OPENING)]


def test_every_listed_move_goes_back_as_it_came(table, client):
    """An entry of /legal-moves, posted exactly as it came (a buy in both forms), is a move the
    service takes (docs/api-guide.md#placements-and-orientation), in every position tried.

    Every entry goes to the seat not in turn: `409 not_your_turn` says its form passed (a form
    error is 400, checked first) and changes nothing. A sample is then played by the seat in
    turn from a fresh copy of the position: `201`, with the placement recorded as it was shown.
    """
    for order, opening in POSITIONS:
        t = table({"patch_order": order})
        for body, seat in opening:
            t.play(body, seat=seat)
        listing = t.legal()
        turn, moves = listing["turn"], listing["moves"]
        buys = [move for move in moves if move["action"] == "buy"]
        assert len({move["patch_id"] for move in buys}) == 3, order[:3]  # the whole market
        for move in moves:
            resp = t.move(move, seat=1 - turn)
            assert code(resp) == (409, "not_your_turn"), (move, resp.get_json())
        assert t.legal() == listing
        for move in buys[:: len(buys) // 4]:
            fresh = table({"patch_order": order})
            for body, seat in opening:
                fresh.play(body, seat=seat)
            game = fresh.play(move, seat=turn)
            recorded = client.get(f"/games/{fresh.id}/moves/{game['moves_played']}").get_json()
            assert recorded["placement"] == move["placement"]


def test_a_placement_in_both_forms_needs_the_same_cells_in_any_order(table, client):
    """Both forms are taken when they name the same cells, as a set: any order, any of the
    orientations that cover them; else 422 does_not_fit naming the cells the orientation covers:
    a wrong move, judged with the rules (after the game, the token and the turn), as every
    schema-valid but wrong move is (issue 38: it was a 400 that schemathesis took for the spec
    and the answers disagreeing)."""
    t = table({"patch_order": ORDER})  # market 2 (.X/XX), 3, 4 (a 1x3 bar)
    shown = t.legal(patch_id=2)["moves"][0]
    assert shown["placement"] == {
        "row": 0,
        "col": 0,
        "rotation": 0,
        "flipped": False,
        "cells": [[0, 1], [1, 0], [1, 1]],
    }

    def with_placement(patch_id, **placement):
        return {"action": "buy", "patch_id": patch_id, "placement": placement}

    mismatches = [
        # Another spot than the cells.
        (
            with_placement(2, row=1, col=0, cells=[[0, 1], [1, 0], [1, 1]]),
            "patch 2 at row 1, col 0, rotation 0, flipped false covers [[1, 1], [2, 0], [2, 1]], "
            "not [[0, 1], [1, 0], [1, 1]]",
        ),
        # Another orientation: mirrored, .X/XX becomes X./XX.
        (
            with_placement(2, row=0, col=0, flipped=True, cells=[[0, 1], [1, 0], [1, 1]]),
            "patch 2 at row 0, col 0, rotation 0, flipped true covers [[0, 0], [1, 0], [1, 1]], "
            "not [[0, 1], [1, 0], [1, 1]]",
        ),
        # An orientation off the board's edge, beside cells on it.
        (
            with_placement(4, row=0, col=7, rotation=90, cells=[[0, 6], [0, 7], [0, 8]]),
            "patch 4 at row 0, col 7, rotation 90, flipped false covers [[0, 7], [0, 8], [0, 9]], "
            "not [[0, 6], [0, 7], [0, 8]]",
        ),
        # A cell named twice, or left out.
        (
            with_placement(2, row=0, col=0, cells=[[0, 1], [1, 0], [1, 1], [1, 0]]),
            "patch 2 at row 0, col 0, rotation 0, flipped false covers [[0, 1], [1, 0], [1, 1]], "
            "not [[0, 1], [1, 0], [1, 0], [1, 1]] (a cell named twice)",
        ),
        (
            with_placement(2, row=0, col=0, cells=[[0, 1], [1, 0]]),
            "patch 2 at row 0, col 0, rotation 0, flipped false covers [[0, 1], [1, 0], [1, 1]], "
            "not [[0, 1], [1, 0]]",
        ),
    ]
    before = client.get(f"/games/{t.id}").get_data()
    for body, message in mismatches:
        resp = t.move(body, seat=0)
        assert code(resp) == (422, "does_not_fit"), body
        assert resp.get_json()["detail"] == message
        # A move error: the game (404), the token (401) and the turn (409) come first.
        assert code(client.post("/games/no-such-game/moves", json=body)) == (404, "game_not_found")
        assert code(t.move(body, seat=1)) == (409, "not_your_turn")
    assert client.get(f"/games/{t.id}").get_data() == before

    # The same cells in another order, and a bar turned 180 degrees (it covers what 0 does):
    # accepted, and recorded as the service shows placements.
    game = t.play(with_placement(2, row=0, col=0, rotation=0, cells=[[1, 1], [0, 1], [1, 0]]), seat=0)
    game = t.play(with_placement(4, row=2, col=0, rotation=180, cells=[[4, 0], [2, 0], [3, 0]]), seat=1)
    recorded = client.get(f"/games/{t.id}/moves/2").get_json()["placement"]
    assert recorded == {
        "row": 2,
        "col": 0,
        "rotation": 0,
        "flipped": False,
        "cells": [[2, 0], [3, 0], [4, 0]],
    }
    assert game["moves_played"] == 2


def test_refusals_in_the_order_api_md_gives(table):
    t = table({"patch_order": ORDER_14_FIRST})  # market 14, 2, 3
    assert code(t.move(ADVANCE, seat=1)) == (409, "not_your_turn")
    assert code(t.move(buy(9, 0, 0), seat=0)) == (422, "patch_not_available")
    # Not in the market beats cannot afford and does not fit.
    assert code(t.move(buy(33, 8, 8), seat=0)) == (422, "patch_not_available")
    assert code(t.move(buy(14, 0, 0), seat=0)) == (422, "cannot_afford")
    # Cannot afford beats does not fit.
    assert code(t.move(buy(14, 8, 8), seat=0)) == (422, "cannot_afford")
    assert code(t.move(buy(2, 8, 0), seat=0)) == (422, "does_not_fit")  # 2x2 box off the bottom
    assert code(t.move(buy_cells(2, [[0, 0], [0, 1], [0, 2]]), seat=0)) == (
        422,
        "does_not_fit",
    )  # not its shape
    assert code(t.move({"action": "place_leather", "row": 0, "col": 0}, seat=0)) == (409, "wrong_phase")
    t.play(buy(2, 0, 0), seat=0)  # seat 0: 4 buttons, token on 3
    t.play(buy(3, 0, 0), seat=1)  # seat 1: 2 buttons, token on 1, cells (0,1) (1,0) (1,1)
    # The upright bar from row 1 would cover seat 1's own patch 3 at (1, 0).
    assert code(t.move(buy(4, 1, 0), seat=1)) == (422, "does_not_fit")
    assert t.move(buy(4, 2, 0), seat=1).status_code == 201


def test_refused_moves_change_nothing(table, client):
    t = table({"patch_order": ORDER})
    before = client.get(f"/games/{t.id}").get_data()
    for body, seat in ((buy(9, 0, 0), 0), (ADVANCE, 1), (buy(4, 8, 8), 0)):
        assert t.move(body, seat=seat).status_code in (409, 422)
    assert client.get(f"/games/{t.id}").get_data() == before
    assert client.get(f"/games/{t.id}/moves").get_json() == {"moves": []}


def test_advance_only_game_hand_worked_to_the_end(table, client):
    """Both seats only advance, on the revised board.

    Each advance lands on the next space (1, 2, 3, ...), seat 0 on odd ones,
    seat 1 on even ones, so seat 1 lands on every leather space (26, 32, 38,
    44, 50) and places five leather patches. Each seat moves 53 spaces for 53
    buttons and has no income: seat 0 scores 5 + 53 - 2*81 = -104, seat 1
    5 + 53 - 2*76 = -94. Seat 0 reaches 53 first but seat 1 wins.
    """
    t = table({"seed": 1})
    leather_cells = iter([(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)])
    game = t.game
    advances = 0
    while game["status"] == "active":
        if game["phase"] == "place_leather":
            assert game["turn"] == 1
            row, col = next(leather_cells)
            game = t.play({"action": "place_leather", "row": row, "col": col}, seat=1)
        else:
            game = t.play(ADVANCE, seat=game["turn"])
            advances += 1
    assert advances == 54
    assert game["moves_played"] == 59
    assert game["leather_spaces"] == []
    assert [p["buttons"] for p in game["players"]] == [58, 58]
    assert [p["empty_cells"] for p in game["players"]] == [81, 76]
    assert game["players"][1]["quilt"][0][:5] == [0, 0, 0, 0, 0]
    assert game["result"] == {"scores": [-104, -94], "winner": 1, "reason": "completed"}
    assert code(t.move(ADVANCE, seat=0)) == (409, "game_finished")
    assert client.get(f"/games/{t.id}/legal-moves").get_json()["moves"] == []


def test_leather_phase_refuses_other_moves_and_occupied_cells(table):
    t = table({"seed": 1})
    game = t.game
    while game["phase"] != "place_leather":
        game = t.play(ADVANCE, seat=game["turn"])
    # Seat 1 landed on 26 and must place before anyone acts again.
    assert game["turn"] == 1 and game["players"][1]["position"] == 26
    assert game["leather_spaces"] == [32, 38, 44, 50]
    legal = t.legal()
    assert legal["phase"] == "place_leather" and len(legal["moves"]) == 81
    assert code(t.move(ADVANCE, seat=1)) == (409, "wrong_phase")
    assert code(t.move(ADVANCE, seat=0)) == (409, "not_your_turn")
    game = t.play({"action": "place_leather", "row": 4, "col": 4}, seat=1)
    assert game["players"][1]["quilt"][4][4] == 0 and game["phase"] == "choose"
    while game["phase"] != "place_leather":
        game = t.play(ADVANCE, seat=game["turn"])
    assert code(t.move({"action": "place_leather", "row": 4, "col": 4}, seat=1)) == (422, "cell_occupied")


@pytest.mark.parametrize("auth", [None, "Basic abc", "Bearer", "Bearer not-a-token"])
def test_bad_tokens_are_401(table, client, auth):
    t = table()
    headers = {} if auth is None else {"Authorization": auth}
    resp = client.post(f"/games/{t.id}/moves", json=ADVANCE, headers=headers)
    expected = "invalid_token" if auth == "Bearer not-a-token" else "missing_token"
    assert code(resp) == (401, expected)
    assert "Bearer" in resp.headers["WWW-Authenticate"]


def test_token_of_another_game_is_invalid(table, client):
    a, b = table(), table()
    resp = client.post(f"/games/{a.id}/moves", json=ADVANCE, headers=b.auth(0))
    assert code(resp) == (401, "invalid_token")


def test_if_match(table):
    t = table({"patch_order": ORDER})
    assert t.move(ADVANCE, seat=0, headers={"If-Match": '"1"'}).status_code == 201
    stale = t.move(ADVANCE, seat=1, headers={"If-Match": '"1"'})
    assert code(stale) == (412, "version_mismatch")
    assert stale.headers["ETag"] == '"2"'
    assert t.state()["version"] == 2
    assert t.move(ADVANCE, seat=1, headers={"If-Match": '"5", "2"'}).status_code == 201
    assert t.move(ADVANCE, seat=0, headers={"If-Match": "*"}).status_code == 201
    for bad in ("3", 'W/"3"', '"3', ""):
        resp = t.move(ADVANCE, seat=t.state()["turn"], headers={"If-Match": bad})
        assert code(resp) == (400, "invalid_request"), bad
        assert resp.get_json()["errors"][0]["header"] == "If-Match"


def test_check_order_between_groups(table, client):
    t = table({"patch_order": ORDER})
    # 404 before 401: no token, unknown game.
    assert code(client.post("/games/unknown/moves", json=ADVANCE)) == (404, "game_not_found")
    # 401 before 412.
    resp = client.post(f"/games/{t.id}/moves", json=ADVANCE, headers={"If-Match": '"9"'})
    assert code(resp) == (401, "missing_token")
    # 412 before 409 (wrong seat) and before 422.
    assert code(t.move(ADVANCE, seat=1, headers={"If-Match": '"9"'})) == (412, "version_mismatch")
    assert code(t.move(buy(9, 0, 0), seat=0, headers={"If-Match": '"9"'})) == (412, "version_mismatch")
    # 400 before 404.
    assert code(client.post("/games/unknown/moves", json={"action": "jump"})) == (400, "invalid_request")


def test_move_history_reads(table, client):
    t = table({"patch_order": ORDER})
    t.play(ADVANCE, seat=0)
    assert code(client.get(f"/games/{t.id}/moves/2")) == (404, "not_found")
    for bad in ("0", "abc", "-1"):
        assert code(client.get(f"/games/{t.id}/moves/{bad}")) == (400, "invalid_request"), bad
    resp = client.get(f"/games/{t.id}/moves", headers={"If-None-Match": '"2"'})
    assert resp.status_code == 304
    assert client.get(f"/games/{t.id}/moves/1", headers={"If-None-Match": '"2"'}).status_code == 304
    assert client.get(f"/games/{t.id}/legal-moves", headers={"If-None-Match": '"2"'}).status_code == 304
    assert code(client.get(f"/games/{t.id}/moves", query_string={"since": "-1"})) == (400, "invalid_request")
