"""A game's history as the engine protocol's position: takebacks undone, the engine's move checked."""

from service.bridge.positions import checked_move_body, position_of
from service.engine import apply_move, format_move, legal_moves, new_game

START = new_game(seed=7, time_board="original", first_player=1)
GAME_AS_CREATED = {"circle": list(START.circle), "first_player": 1, "time_board": "original"}


def entry(number, seat, move):
    return {"number": number, "seat": seat, **move.to_json(), "outcome": {}}


def test_a_takeback_entry_puts_the_position_back_to_the_moves_of_its_version():
    state, history, tokens = START, [], []
    for number in (1, 2, 3):
        move = legal_moves(state)[-1]
        history.append(entry(number, state.turn, move))
        tokens.append(format_move(move))
        state = apply_move(state, move)
    # Entry 4 takes the game back to version 3: the game after its first two moves.
    history.append({"number": 4, "seat": 0, "action": "takeback", "to_version": 3})
    position = position_of(GAME_AS_CREATED, history)
    assert position.moves == tuple(tokens[:2])
    assert (position.circle, position.first_player, position.time_board) == (START.circle, 1, "original")


def test_the_engine_s_move_is_sent_only_when_the_rules_take_it():
    position = position_of(GAME_AS_CREATED, [])
    advance = checked_move_body(position, ".")
    assert advance == {"action": "advance"}
    # Patch 1 (letter A) is the 1x2, last of the circle: never in the first market.
    assert START.circle[-1] == 1
    assert checked_move_body(position, "AAAA") is None
    assert checked_move_body(position, "not a move") is None
    bought = next(move for move in legal_moves(START) if move.to_json()["action"] == "buy")
    body = checked_move_body(position, format_move(bought))
    assert body is not None and body["patch_id"] == bought.patch_id
    assert body["placement"] == {
        name: bought.to_json()["placement"][name] for name in ("row", "col", "rotation", "flipped")
    }
