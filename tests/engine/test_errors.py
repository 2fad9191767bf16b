"""Refused moves: typed errors with the API's codes, in the order of docs/rules.md#refused-moves, naming the bad input."""

import pytest

from service.engine import (
    Advance,
    Buy,
    CannotAfford,
    CellOccupied,
    DoesNotFit,
    GameFinished,
    NotYourTurn,
    PatchNotAvailable,
    PlaceLeather,
    Placement,
    RuleError,
    WrongPhase,
    apply_move,
)
from tests.support.positions import position, seat

OFF_BOARD = Placement(row=8, col=8, rotation=90)  # the 1x2 lying from (8, 8)
FINISHED = position(seat(position=53), seat(position=53), first_to_end=0)
LEATHER_DUE = position(
    seat(position=26, leather_to_place=1, rows=("X........",) + ("." * 9,) * 8),
    seat(position=30),
    leather_spaces=(32, 38, 44, 50),
    circle=(1, 2, 3),
)
CHOOSING = position(
    seat(buttons=1, rows=("XX.......",) + ("." * 9,) * 8), seat(position=3), circle=(14, 1, 2, 3)
)


def refuse(error, state, move, seat=None, match=None):
    with pytest.raises(error, match=match) as caught:
        apply_move(state, move, seat=seat)
    return caught.value


def test_codes_are_the_api_codes():
    codes = {
        cls: cls.code
        for cls in (
            GameFinished,
            NotYourTurn,
            WrongPhase,
            PatchNotAvailable,
            CannotAfford,
            DoesNotFit,
            CellOccupied,
        )
    }
    assert list(codes.values()) == [
        "game_finished",
        "not_your_turn",
        "wrong_phase",
        "patch_not_available",
        "cannot_afford",
        "does_not_fit",
        "cell_occupied",
    ]
    assert all(issubclass(cls, RuleError) and issubclass(cls, ValueError) for cls in codes)


def test_a_finished_game_refuses_first():
    # wrong seat, wrong patch, off the board: the finished game answers
    refuse(GameFinished, FINISHED, Buy(33, OFF_BOARD), seat=1, match="finished")
    refuse(GameFinished, FINISHED, PlaceLeather(0, 0), seat=0)


def test_not_your_turn_before_wrong_phase():
    refuse(NotYourTurn, LEATHER_DUE, Advance(), seat=1, match="seat 1 .*seat 0's turn")
    refuse(WrongPhase, LEATHER_DUE, Advance(), seat=0, match="leather")
    refuse(WrongPhase, LEATHER_DUE, Buy(1, OFF_BOARD), match="leather")
    refuse(WrongPhase, CHOOSING, PlaceLeather(0, 0), match="no leather patch")


def test_seat_may_be_left_out():
    assert apply_move(CHOOSING, Advance()).players[0].position == 4


def test_patch_not_available_before_cannot_afford():
    # patch 33 is not in the market, costs 8 > 1 and does not fit
    refuse(
        PatchNotAvailable,
        CHOOSING,
        Buy(33, OFF_BOARD),
        seat=0,
        match=r"patch 33 is not in the market \[14, 1, 2\]",
    )
    refuse(PatchNotAvailable, CHOOSING, Buy(0, OFF_BOARD), match=r"patch 0 ")


def test_cannot_afford_before_does_not_fit():
    # patch 14 is in the market, costs 7 > 1 and does not fit
    refuse(
        CannotAfford,
        CHOOSING,
        Buy(14, OFF_BOARD),
        match=r"patch 14 costs 7 and seat 0 has 1: not enough buttons",
    )


def test_does_not_fit_off_the_board_and_overlapping():
    rich = position(
        seat(buttons=9, rows=("XX.......",) + ("." * 9,) * 8), seat(position=3), circle=(14, 1, 2)
    )
    refuse(DoesNotFit, rich, Buy(1, OFF_BOARD), match=r"row 8, col 8.*off the 9x9 board")
    refuse(DoesNotFit, rich, Buy(1, Placement(row=0, col=1)), match=r"row 0, col 1.*overlaps")
    refuse(
        DoesNotFit,
        rich,
        Buy(1, Placement(cells=[[0, 1], [1, 1]])),
        match=r"cells \[\[0, 1\], \[1, 1\]\] overlaps",
    )
    refuse(
        DoesNotFit, rich, Buy(2, Placement(cells=[[5, 5], [5, 6]])), match=r"not an orientation of patch 2"
    )


def test_leather_off_the_board_then_occupied():
    refuse(DoesNotFit, LEATHER_DUE, PlaceLeather(9, 0), match=r"row 9, col 0")
    refuse(DoesNotFit, LEATHER_DUE, PlaceLeather(0, -1), match=r"row 0, col -1")
    refuse(CellOccupied, LEATHER_DUE, PlaceLeather(0, 0), match=r"row 0, col 0")


def test_a_refused_move_leaves_the_state_as_it_was():
    before = (CHOOSING.players, CHOOSING.circle, CHOOSING.moves_played)
    refuse(CannotAfford, CHOOSING, Buy(14, Placement(row=5, col=0)))
    assert (CHOOSING.players, CHOOSING.circle, CHOOSING.moves_played) == before


def test_something_that_is_not_a_move_is_a_type_error():
    with pytest.raises(TypeError):
        apply_move(CHOOSING, "advance")
