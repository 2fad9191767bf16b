"""The facts about whole games of docs/rules.md#facts-to-check-against: the advance-only game and the longest game."""

import pytest

from service.engine import PATCHES, Advance, PlaceLeather, apply_move, legal_moves, new_game


def play(state, choose):
    while not state.finished:
        state = apply_move(state, choose(state))
    return state


def first_empty_cell_or(move):
    def choose(state):
        if state.phase == "place_leather":
            return next(m for m in legal_moves(state) if isinstance(m, PlaceLeather))
        return move(state)

    return choose


@pytest.mark.parametrize("time_board", ["revised", "original"])
def test_a_game_of_advances_only(time_board):
    end = play(new_game(seed=7, time_board=time_board), first_empty_cell_or(lambda s: Advance()))
    # Seat 0 lands on the odd spaces 1, 3, ..., 53 and seat 1 on 2, 4, ..., 52,
    # 53. Every leather space (26 32 38 44 50, or 20 26 32 44 50) is even, so
    # seat 1 reaches each first. Each seat moves 53 spaces: 5 + 53 = 58 buttons.
    # Seat 0: 58 - 2 * 81 = -104. Seat 1: 58 - 2 * (81 - 5) = -94.
    assert end.result.scores == (-104, -94)
    assert end.result.winner == 1
    # 27 advances each (seat 1's last one from 52 to the capped 53) + 5 leather
    assert end.moves_played == 27 + 27 + 5


# The longest game. Every move that takes the leading token further (every
# advance, or a buy whose time is one more than the gap) can move it by one
# space at best: 53 such moves. The seat behind by one can also buy a patch of
# time 1 without taking the lead (it lands on top): the four time-1 patches
# (ids 1, 3, 14, 18) give four more. Add the last move to 53 of the other seat
# and the five leather patches: 53 + 4 + 1 + 5 = 63.
TIME_ONE = [pid for pid, patch in PATCHES.items() if patch.time == 1]
# Every third patch of the circle is one this plan buys; each buy of the
# third patch moves the neutral token three on, so the ten bought in turn
# bring the 1x2 (id 1, last of the circle) into the market: 32 - 3 * 10 = 2.
BOUGHT = [26, 30, 18, 4, 6, 11, 3, 5, 10, 14]
OTHERS = [pid for pid in range(2, 34) if pid not in BOUGHT]
CIRCLE = [pid for group in zip(OTHERS[0::2], OTHERS[1::2], BOUGHT) for pid in group] + OTHERS[20:] + [1]


def longest_move(state):
    me, other = state.players[state.turn], state.players[1 - state.turn]
    gap = other.position - me.position
    for pid in state.market[2:] + ((1,) if 1 in state.market else ()):
        time = PATCHES[pid].time
        moves = legal_moves(state, patch_id=pid)
        if moves and ((time == 1 and gap >= 1) or (time == 2 and gap == 1)):
            return moves[0]
    return Advance()


def test_the_longest_game_is_63_moves():
    assert sorted(TIME_ONE) == [1, 3, 14, 18]
    assert sorted(CIRCLE) == list(range(1, 34)) and CIRCLE[2::3][:10] == BOUGHT
    end = play(new_game(patch_order=CIRCLE), first_empty_cell_or(longest_move))
    assert end.moves_played == 53 + 4 + 1 + 5
    assert sum(len(p.pieces) for p in end.players) == len(BOUGHT) + 1 + 5
