"""The market of three, the neutral token, and which buys are legal."""

import pytest

from service.engine import (
    Advance,
    Buy,
    PatchNotAvailable,
    Placement,
    apply_move,
    legal_moves,
    resolve_placement,
)
from tests.support.positions import position, seat

FIRST_PLACEMENT = Placement(row=0, col=0)


def buys_by_patch(moves):
    counts = {}
    for move in moves:
        if isinstance(move, Buy):
            counts[move.patch_id] = counts.get(move.patch_id, 0) + 1
    return counts


def test_start_position_legal_move_count():
    state = position(seat(), seat(), circle=(2, 3, 4, 5))
    moves = legal_moves(state)
    assert moves[0] == Advance()
    # Patches 2 and 3 (L-tromino, 4 orientations in a 2x2 box): 4 * 8 * 8 = 256
    # each; patch 4 (1x3, 2 orientations): 2 * 9 * 7 = 126; plus the advance.
    assert buys_by_patch(moves) == {2: 256, 3: 256, 4: 126}
    assert len(moves) == 1 + 256 + 256 + 126


def test_buys_are_one_per_set_of_covered_cells():
    state = position(seat(buttons=10), seat(), circle=(27, 9, 1))
    moves = [m for m in legal_moves(state) if isinstance(m, Buy)]
    keys = {(m.patch_id, resolve_placement(m.patch_id, m.placement)) for m in moves}
    assert len(keys) == len(moves) == 448 + 64 + 144


def test_unaffordable_patches_are_not_legal():
    # 14 costs 7, 9 costs 6, 25 costs 10; 5 buttons buy none of them.
    assert legal_moves(position(seat(buttons=5), seat(), circle=(14, 9, 25))) == [Advance()]
    # 6 buttons buy the 2x2 (64 placements) only
    six_buttons = position(seat(buttons=6), seat(), circle=(14, 9, 25))
    assert buys_by_patch(legal_moves(six_buttons)) == {9: 64}


def test_unplaceable_patches_are_not_legal():
    rows = ("XXXXXXXXX",) * 4 + (".........",) + ("XXXXXXXXX",) * 4
    state = position(seat(buttons=20, rows=rows), seat(), circle=(9, 14, 4))
    # only row 4 is empty: the 2x2 never fits; 1x5 lying: 5 starts; 1x3 lying: 7
    assert buys_by_patch(legal_moves(state)) == {14: 5, 4: 7}


def test_the_market_is_the_first_three_of_the_circle():
    state = position(seat(buttons=50), seat(), circle=(5, 6, 7, 8))
    assert state.market == (5, 6, 7)
    assert set(buys_by_patch(legal_moves(state))) == {5, 6, 7}
    with pytest.raises(PatchNotAvailable, match=r"patch 8 is not in the market \[5, 6, 7\]"):
        apply_move(state, Buy(8, FIRST_PLACEMENT))


@pytest.mark.parametrize("circle, market", [((5, 7), (5, 7)), ((7,), (7,)), ((), ())])
def test_the_market_with_fewer_than_three_patches_left(circle, market):
    state = position(seat(buttons=50), seat(), circle=circle)
    assert state.market == market
    assert set(buys_by_patch(legal_moves(state))) == set(market)
    assert legal_moves(state)[0] == Advance()


@pytest.mark.parametrize(
    "circle, bought, after",
    [
        # the token moves to the bought patch: the circle restarts after it and the
        # skipped patches come round again at the end
        ((10, 11, 12, 13, 14), 12, (13, 14, 10, 11)),
        ((10, 11, 12, 13, 14), 11, (12, 13, 14, 10)),
        ((10, 11, 12, 13, 14), 10, (11, 12, 13, 14)),
        ((7, 5), 5, (7,)),
        ((7,), 7, ()),
    ],
)
def test_the_neutral_token_moves_to_the_bought_patch(circle, bought, after):
    state = position(seat(buttons=50), seat(), circle=circle)
    assert apply_move(state, legal_moves(state, patch_id=bought)[0]).circle == after


def test_buying_pays_the_cost_and_moves_by_the_time():
    state = position(seat(buttons=9), seat(position=20), circle=(16, 2, 3))
    after = apply_move(state, Buy(16, FIRST_PLACEMENT))
    # patch 16: cost 7, time 4, income 2; 0 -> 4 passes no income space
    me = after.players[0]
    assert (me.buttons, me.position, me.income, me.empty_cells) == (2, 4, 2, 75)
    # X./XX/XX/X. in the top-left corner
    corner = [row[:2] for row in after.quilt_grid(0)[:4]]
    assert corner == [[16, None], [16, 16], [16, 16], [16, None]]


def test_legal_moves_for_one_patch():
    state = position(seat(), seat(), circle=(2, 3, 4))
    assert buys_by_patch(legal_moves(state, patch_id=4)) == {4: 126}
    assert Advance() not in legal_moves(state, patch_id=4)
    assert legal_moves(state, patch_id=5) == []
