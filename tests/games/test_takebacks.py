"""Takebacks in the core (issue 38): the moves in force, the last turn, and a takeback's state against a replay.

The hand-worked history: seat 0 advances (version 2), seat 1 advances twice
(versions 3 and 4; in_force does not judge the rules, it only reads the
history). Seat 1's last turn is its two moves, made on versions 2 and 3, so
taking it back returns to version 2 (version 5 holds seat 0's move alone).
Seat 1 advances again (version 6): its last turn is that one move, made on
version 5, and a takeback returns to version 5 (version 7: seat 0's move
alone again). A takeback of seat 0's turn then returns to version 1 (no
move in force).
"""

from __future__ import annotations

import pytest

from service.engine import Advance, apply_move, canonical_move, move_from_json, new_game, replay
from service.games.jsontext import compact, parse
from service.games.takebacks import InForce, in_force, last_turn, takeback_entry
from tests.support.anu import anu_games, create_body, request_body, tokens


def _advance(number: int, seat: int) -> str:
    return compact({"number": number, "seat": seat, "action": "advance", "outcome": {}})


def test_the_moves_in_force_and_the_last_turn_of_a_hand_worked_history():
    history = [_advance(1, 0), _advance(2, 1), _advance(3, 1)]
    forced = in_force(history)
    assert forced == (InForce(Advance(), 0, 1), InForce(Advance(), 1, 2), InForce(Advance(), 1, 3))
    turn = last_turn(forced)
    assert turn is not None and (turn.seat, turn.to_version, turn.kept) == (1, 2, (Advance(),))
    history.append(takeback_entry(4, 1, 2))
    assert in_force(history) == (InForce(Advance(), 0, 1),)
    history.append(_advance(5, 1))
    forced = in_force(history)
    assert forced == (InForce(Advance(), 0, 1), InForce(Advance(), 1, 5))
    turn = last_turn(forced)
    assert turn is not None and (turn.seat, turn.to_version, turn.kept) == (1, 5, (Advance(),))
    history.append(takeback_entry(6, 1, 5))
    forced = in_force(history)
    assert forced == (InForce(Advance(), 0, 1),)
    turn = last_turn(forced)
    assert turn is not None and (turn.seat, turn.to_version, turn.kept) == (0, 1, ())
    history.append(takeback_entry(7, 0, 1))
    assert in_force(history) == () and last_turn(()) is None
    # Every version's moves in force, read from the history up to it.
    assert [len(in_force(history[:n])) for n in range(len(history) + 1)] == [0, 1, 2, 3, 1, 2, 1, 0]
    assert parse(history[3]) == {"number": 4, "seat": 1, "action": "takeback", "to_version": 2}


def _anu_moves(game: dict) -> list:
    return [move_from_json(request_body(token)) for token in tokens(game["moves"])]


def _seats(game: dict, moves: list) -> list[int]:
    """The seat of each move, as the rules give the turn (replayed here, move by move)."""
    state = new_game(**create_body(game))
    seats = []
    for move in moves:
        seats.append(state.turn)
        state = apply_move(state, move, state.turn)
    return seats


def _turn_start(seats: list[int], played: int) -> int:
    """Where the last turn of the first `played` moves begins: its seat's moves since the other's."""
    start = played - 1
    while start > 0 and seats[start - 1] == seats[played - 1]:
        start -= 1
    return start


@pytest.mark.parametrize("played", [1, 6, 17, 30])
def test_a_takeback_is_the_replay_without_the_turn_and_the_game_plays_on_to_its_known_end(play, played):
    game = anu_games()[0]
    moves = _anu_moves(game)
    seats = _seats(game, moves)
    created = play.create(("Ann", "Bob"), **create_body(game))
    gid, seat_tokens = created.game_id, created.tokens
    for move, seat in zip(moves[:played], seats, strict=False):
        play.play(gid, move, seat_tokens[seat])
    start = _turn_start(seats, played)
    expected = replay(
        moves[:start],
        patch_order=game["circle"],
        first_player=game["first_player"],
        time_board=game["time_board"],
    )

    def take(copy):
        turn = play.last_turn(gid, copy)
        assert turn is not None and turn.seat == seats[played - 1] and turn.to_version == start + 1
        return play.take_back(gid, copy, turn, "", lambda committed: committed)

    committed = play.amend(gid, take)
    assert committed.version == played + 2 and committed.number == played + 1
    assert play.load(gid).record.state == expected
    # The version it went back to and the new one show the same state.
    _current, then = play.view_at(gid, start + 1)
    now, back = parse(then.view), parse(committed.view)
    for member in ("version", "updated_at"):
        back.pop(member), now.pop(member)
    assert back == now
    # Playing the game on from there, its own moves again, ends as the ANU game did.
    for move, seat in zip(moves[start:], seats[start:], strict=True):
        play.play(gid, move, seat_tokens[seat])
    record, version, _start, in_force_now = play.played(gid)
    assert list(record.state.result.scores) == game["final_scores"]
    # The history keeps each move as accepted (a placement in both forms).
    assert in_force_now == [canonical_move(move) for move in moves] and version == len(moves) + 2 + (
        played - start
    )
