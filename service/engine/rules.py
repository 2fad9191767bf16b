"""Legal moves and applying a move: every rule of docs/rules.md.

`legal_moves` and `apply_move` are the checked public path. `play_advance`,
`play_buy` and `play_leather` are the unchecked transitions underneath, on
masks, for callers (a search) that already know the move is legal.
"""

from dataclasses import replace

from .errors import (
    CannotAfford,
    CellOccupied,
    DoesNotFit,
    GameFinished,
    NotYourTurn,
    PatchNotAvailable,
    WrongPhase,
)
from .moves import Abort, Advance, Buy, Move, PlaceLeather, Resign, Timeout
from .patches import LEATHER_PATCH_ID, PATCHES
from .placements import BUYS, describe_placement, resolve_placement
from .quilt import BOARD_SIZE, CELL_COUNT, FULL_QUILT, covers_seven_window, on_board
from .state import CHOOSE, MARKET_SIZE, PLACE_LEATHER, GameState, PlayerState
from .track import TRACK_END, income_spaces_passed

ADVANCE = Advance()
_LEATHER_MOVES = tuple(PlaceLeather(*divmod(cell, BOARD_SIZE)) for cell in range(CELL_COUNT))


def legal_moves(state: GameState, patch_id: int | None = None) -> list[Move]:
    """Every legal move of the seat in turn (Advance first); only patch_id's buys if given.

    Resigning is always allowed while the game runs and is not listed: it is
    no move a player (or a bot) chooses among the others.
    """
    phase = state.phase
    if phase is None:
        return []
    turn = state.turn
    assert turn is not None  # a game with a phase is unfinished: a seat is in turn
    player = state.players[turn]
    quilt = player.quilt
    if phase == PLACE_LEATHER:
        if patch_id is not None:
            return []
        return [move for cell, move in enumerate(_LEATHER_MOVES) if not quilt >> cell & 1]
    moves: list[Move] = [] if patch_id is not None else [ADVANCE]
    buttons = player.buttons
    for pid in state.circle[:MARKET_SIZE]:
        if (patch_id is None or pid == patch_id) and PATCHES[pid].cost <= buttons:
            moves += [buy for mask, buy in BUYS[pid] if not mask & quilt]
    return moves


def apply_move(state: GameState, move: Move, seat: int | None = None) -> GameState:
    """The state after move by the seat in turn; raises a RuleError if it is illegal.

    A Resign may come from either seat, in turn or not, in any phase.
    """
    phase = state.phase
    if phase is None:
        # No count of moves: an abort or a timeout is a history entry, not a move anybody made.
        raise GameFinished("the game is finished: nobody can {action} any more", action=_action(move))
    turn = state.turn
    assert turn is not None  # the game is not finished (checked above)
    if isinstance(move, Resign):
        return play_resign(state, _resigning_seat(move, seat, turn))
    if isinstance(move, Timeout):
        # The seat in turn is the one whose clock runs: only its time can run out.
        return replace(state, timed_out=turn, moves_played=state.moves_played + 1)
    if isinstance(move, Abort):
        return replace(state, aborted=True, moves_played=state.moves_played + 1)
    if seat is not None and seat != turn:
        raise NotYourTurn(
            "seat {seat} cannot {action}: it is seat {turn}'s turn",
            seat=repr(seat),
            action=_action(move),
            turn=turn,
        )
    if isinstance(move, PlaceLeather):
        if phase != PLACE_LEATHER:
            # The one other phase is `choose`: said in words, not by the field's value.
            raise WrongPhase(
                "seat {seat} has no leather patch to place: it buys a patch or advances", seat=turn
            )
        if not on_board(move.row, move.col):
            raise DoesNotFit(
                "leather patch at row {row}, col {col}: off the 9x9 board",
                row=repr(move.row),
                col=repr(move.col),
            )
        bit = 1 << (move.row * BOARD_SIZE + move.col)
        if state.players[turn].quilt & bit:
            raise CellOccupied("cell row {row}, col {col} is already covered", row=move.row, col=move.col)
        return play_leather(state, bit)
    if not isinstance(move, (Advance, Buy)):
        raise TypeError(f"not a move: {move!r}")
    if phase != CHOOSE:
        raise WrongPhase(
            "seat {seat} must place a leather patch before it can {action}", seat=turn, action=_action(move)
        )
    if isinstance(move, Advance):
        return play_advance(state)
    market = state.circle[:MARKET_SIZE]
    patch_id = move.patch_id
    if type(patch_id) is not int or patch_id not in market:
        raise PatchNotAvailable(
            "patch {patch} is not in the market {market}", patch=repr(patch_id), market=list(market)
        )
    player = state.players[turn]
    cost = PATCHES[patch_id].cost
    if cost > player.buttons:
        raise CannotAfford(
            "patch {patch} costs {cost} and seat {seat} has {buttons}: not enough buttons",
            patch=patch_id,
            cost=cost,
            seat=turn,
            buttons=player.buttons,
        )
    mask = resolve_placement(patch_id, move.placement)
    if mask & player.quilt:
        raise DoesNotFit(
            "patch {patch} at {placement} overlaps patches already on seat {seat}'s quilt",
            patch=patch_id,
            placement=describe_placement(move.placement),
            seat=turn,
        )
    return play_buy(state, patch_id, mask)


def _resigning_seat(move: Resign, seat: int | None, turn: int) -> int:
    """Who resigns: the seat the move names, else the seat acting, else the seat in turn."""
    if move.seat is not None and seat is not None and move.seat != seat:
        raise NotYourTurn(
            "seat {seat} cannot resign for seat {other}", seat=repr(seat), other=repr(move.seat)
        )
    resigning = move.seat if move.seat is not None else seat if seat is not None else turn
    if resigning not in (0, 1):
        raise NotYourTurn("seat {seat} is not a seat of this game (0 or 1)", seat=repr(resigning))
    return resigning


def play_resign(state: GameState, seat: int) -> GameState:
    """Seat gives up, unchecked: the game ends now and the other seat wins.

    It counts as a move (moves_played + 1) so that it has its number in the
    history and the game's version moves on, like any other accepted move.
    """
    return replace(state, resigned=seat, moves_played=state.moves_played + 1)


def _action(move: object) -> str:
    """What `move` does, as the verb of a message ("cannot {action}"); the API says it in its languages."""
    return getattr(move, "action", "move").replace("_", " ")


def play_advance(state: GameState) -> GameState:
    """Action A for the seat in turn, unchecked: just in front of the opponent."""
    seat = state.turn
    assert seat is not None  # callers play on unfinished games only
    me = state.players[seat]
    new = min(state.players[1 - seat].position + 1, TRACK_END)
    return _move_token(
        state,
        seat,
        me.buttons + new - me.position,
        me.income,
        me.quilt,
        me.pieces,
        new,
        state.circle,
        state.bonus_owner,
    )


def play_buy(state: GameState, patch_id: int, mask: int) -> GameState:
    """Action B for the seat in turn, unchecked: pay, place mask, move the neutral token."""
    seat = state.turn
    assert seat is not None  # callers play on unfinished games only
    me = state.players[seat]
    patch = PATCHES[patch_id]
    circle = state.circle
    index = circle.index(patch_id)
    quilt = me.quilt | mask
    return _move_token(
        state,
        seat,
        me.buttons - patch.cost,
        me.income + patch.income,
        quilt,
        me.pieces + ((patch_id, mask),),
        min(me.position + patch.time, TRACK_END),
        circle[index + 1 :] + circle[:index],
        _bonus_owner(state, seat, quilt),
    )


def _move_token(
    state: GameState,
    seat: int,
    buttons: int,
    income: int,
    quilt: int,
    pieces: tuple[tuple[int, int], ...],
    new: int,
    circle: tuple[int, ...],
    bonus_owner: int | None,
) -> GameState:
    """Move seat's token to new and resolve the income and leather spaces passed."""
    old = state.players[seat].position
    # Income counts the patch just bought: it was sewn on before the token moved.
    buttons += income * income_spaces_passed(old, new)
    leather_spaces = tuple(s for s in state.leather_spaces if not old < s <= new)
    # Every leather patch passed is won; one that finds no empty cell is discarded.
    won = min(len(state.leather_spaces) - len(leather_spaces), CELL_COUNT - quilt.bit_count())
    me = PlayerState(buttons, new, income, quilt, pieces, won)
    players = (me, state.players[1]) if seat == 0 else (state.players[0], me)
    first_to_end = state.first_to_end
    if first_to_end is None and new == TRACK_END:
        first_to_end = seat
    # The mover's token goes on top: on a shared space the last to arrive acts.
    return GameState(
        circle=circle,
        players=players,
        time_board=state.time_board,
        first_player=state.first_player,
        seed=state.seed,
        on_top=seat,
        leather_spaces=leather_spaces,
        bonus_owner=bonus_owner,
        moves_played=state.moves_played + 1,
        first_to_end=first_to_end,
    )


def play_leather(state: GameState, bit: int) -> GameState:
    """Place a won leather patch on the empty cell `bit` of the seat in turn, unchecked."""
    seat = state.turn
    assert seat is not None  # callers play on unfinished games only
    me = state.players[seat]
    quilt = me.quilt | bit
    due = me.leather_to_place - 1 if quilt != FULL_QUILT else 0
    me = PlayerState(me.buttons, me.position, me.income, quilt, me.pieces + ((LEATHER_PATCH_ID, bit),), due)
    players = (me, state.players[1]) if seat == 0 else (state.players[0], me)
    return GameState(
        circle=state.circle,
        players=players,
        time_board=state.time_board,
        first_player=state.first_player,
        seed=state.seed,
        on_top=state.on_top,
        leather_spaces=state.leather_spaces,
        bonus_owner=_bonus_owner(state, seat, quilt),
        moves_played=state.moves_played + 1,
        first_to_end=state.first_to_end,
    )


def _bonus_owner(state: GameState, seat: int, quilt: int) -> int | None:
    """Who holds the 7x7 bonus once seat's quilt is `quilt`: the first to cover a window."""
    if state.bonus_owner is None and covers_seven_window(quilt):
        return seat
    return state.bonus_owner
