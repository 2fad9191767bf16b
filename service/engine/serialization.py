"""The storage form of a state (a versioned, JSON-ready dict) and replaying a game."""

from collections.abc import Iterable, Mapping
from typing import Any, cast

from .errors import StateFormatError
from .moves import Move
from .patches import LEATHER_PATCH_ID, PATCHES
from .quilt import CELL_COUNT
from .rules import apply_move
from .state import GameState, PlayerState, new_game
from .track import TIME_BOARDS, TRACK_END

FORMAT_VERSION = 1
_MAX_MASK = 1 << CELL_COUNT


def state_to_dict(state: GameState) -> dict[str, object]:
    """A compact JSON-ready dict of the state; masks are hex strings (JSON-safe)."""
    return {
        "format": FORMAT_VERSION,
        "circle": list(state.circle),
        "time_board": state.time_board,
        "first_player": state.first_player,
        "seed": state.seed,
        "on_top": state.on_top,
        "leather_spaces": list(state.leather_spaces),
        "bonus_owner": state.bonus_owner,
        "moves_played": state.moves_played,
        "first_to_end": state.first_to_end,
        "resigned": state.resigned,
        # Left out unless set: states stored before clocks read the same.
        **({"timed_out": state.timed_out} if state.timed_out is not None else {}),
        **({"aborted": True} if state.aborted else {}),
        "players": [_player_to_dict(player) for player in state.players],
    }


def _player_to_dict(player: PlayerState) -> dict[str, object]:
    return {
        "buttons": player.buttons,
        "position": player.position,
        "income": player.income,
        "leather_to_place": player.leather_to_place,
        "pieces": [[patch_id, format(mask, "x")] for patch_id, mask in player.pieces],
    }


def state_from_dict(data: object) -> GameState:
    """The state a dict of state_to_dict describes; StateFormatError if it cannot be read."""
    if not isinstance(data, dict) or data.get("format") != FORMAT_VERSION:
        version = data.get("format") if isinstance(data, dict) else None
        raise StateFormatError(f"state format {version!r} is not {FORMAT_VERSION}")
    try:
        players = tuple(_player_from_dict(p) for p in data["players"])
        if len(players) != 2 or data["time_board"] not in TIME_BOARDS:
            raise StateFormatError("state dict needs two players and a known time_board")
        state = GameState(
            circle=_ints(data["circle"], "circle", 1, len(PATCHES)),
            players=players,
            time_board=data["time_board"],
            first_player=_int(data["first_player"], "first_player", 0, 1),
            seed=None if data["seed"] is None else _int(data["seed"], "seed", 0, None),
            on_top=_int(data["on_top"], "on_top", 0, 1),
            leather_spaces=_ints(data["leather_spaces"], "leather_spaces", 1, TRACK_END),
            bonus_owner=_optional_seat(data["bonus_owner"], "bonus_owner"),
            moves_played=_int(data["moves_played"], "moves_played", 0, None),
            first_to_end=_optional_seat(data["first_to_end"], "first_to_end"),
            # Absent from states stored before resigning existed: nobody resigned.
            resigned=_optional_seat(data.get("resigned"), "resigned"),
            timed_out=_optional_seat(data.get("timed_out"), "timed_out"),
            aborted=data.get("aborted") is True,
        )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, StateFormatError):
            raise
        raise StateFormatError(f"state dict is malformed: {error!r}") from None
    return state


# A player's dict as decoded, its values not yet checked: each read checks what it takes.
def _player_from_dict(data: Mapping[str, Any]) -> PlayerState:
    # One pass over the pieces: every game state is read back on every move.
    pieces = []
    quilt = 0
    for pid, hex_mask in data["pieces"]:
        mask = int(hex_mask, 16)
        if type(pid) is not int or not LEATHER_PATCH_ID <= pid <= len(PATCHES):
            _int(pid, "piece id", LEATHER_PATCH_ID, len(PATCHES))
        if quilt & mask or not 0 < mask < _MAX_MASK:
            raise StateFormatError(f"piece mask {mask:x} overlaps or leaves the board")
        quilt |= mask
        pieces.append((pid, mask))
    return PlayerState(
        buttons=_int(data["buttons"], "buttons", 0, None),
        position=_int(data["position"], "position", 0, TRACK_END),
        income=_int(data["income"], "income", 0, None),
        quilt=quilt,
        pieces=tuple(pieces),
        leather_to_place=_int(data["leather_to_place"], "leather_to_place", 0, None),
    )


def _int(value: object, name: str, low: int, high: int | None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        raise StateFormatError(f"{name} {value!r} is not an integer in {low}..{high or ''}")
    return value


def _ints(values: Iterable[object], name: str, low: int, high: int) -> tuple[int, ...]:
    """A tuple of ints in low..high (checked in one loop rather than a call each)."""
    checked = tuple(values)
    for value in checked:
        if type(value) is not int or not low <= value <= high:
            _int(value, name, low, high)
    # _int raised unless every value is an int in range.
    return cast("tuple[int, ...]", checked)


def _optional_seat(value: object, name: str) -> int | None:
    return None if value is None else _int(value, name, 0, 1)


def replay(
    moves: Iterable[Move],
    *,
    seed: int | None = None,
    patch_order: Iterable[int] | None = None,
    first_player: int = 0,
    time_board: str = "revised",
) -> GameState:
    """The state after playing moves (Move values) from a new game with these parameters.

    A resigned game replays when its Resign carries the seat (as the history's
    entry does): the seat in turn is not always the one who gave up.
    """
    state = new_game(seed=seed, patch_order=patch_order, first_player=first_player, time_board=time_board)
    for move in moves:
        state = apply_move(state, move)
    return state
