"""The Patchwork rules engine: pure, standard library only, frozen states.

`new_game` sets a game up, `legal_moves` lists what the seat in turn may do,
`apply_move` returns the next state or raises a typed RuleError.
"""

from .errors import (
    CannotAfford,
    CellOccupied,
    DoesNotFit,
    GameFinished,
    InvalidSetup,
    NotationError,
    NotYourTurn,
    PatchNotAvailable,
    RuleError,
    StateFormatError,
    WrongPhase,
)
from .moves import Abort, Advance, Buy, Move, PlaceLeather, Placement, Resign, Timeout, move_from_json
from .notation import format_move, format_moves, parse_move, parse_moves
from .patches import LEATHER_PATCH_ID, PATCHES, Patch
from .placements import (
    PLACEMENT_MASKS,
    canonical_move,
    canonical_placement,
    describe_placement,
    orientation_cells,
    resolve_placement,
)
from .quilt import BOARD_SIZE
from .rules import apply_move, legal_moves, play_advance, play_buy, play_leather, play_resign
from .serialization import FORMAT_VERSION, replay, state_from_dict, state_to_dict
from .state import (
    ABORTED,
    COMPLETED,
    RESIGNED,
    TIMEOUT,
    GameState,
    Outcome,
    PlayerState,
    new_game,
    seeded_patch_order,
)
from .track import INCOME_SPACES, LEATHER_SPACES, TIME_BOARDS, TRACK_END, income_spaces_passed

__all__ = [
    "ABORTED",
    "BOARD_SIZE",
    "COMPLETED",
    "FORMAT_VERSION",
    "INCOME_SPACES",
    "LEATHER_PATCH_ID",
    "LEATHER_SPACES",
    "PATCHES",
    "PLACEMENT_MASKS",
    "RESIGNED",
    "TIMEOUT",
    "TIME_BOARDS",
    "TRACK_END",
    "Abort",
    "Advance",
    "Buy",
    "CannotAfford",
    "CellOccupied",
    "DoesNotFit",
    "GameFinished",
    "GameState",
    "InvalidSetup",
    "Move",
    "NotYourTurn",
    "NotationError",
    "Outcome",
    "Patch",
    "PatchNotAvailable",
    "PlaceLeather",
    "Placement",
    "PlayerState",
    "Resign",
    "RuleError",
    "StateFormatError",
    "Timeout",
    "WrongPhase",
    "apply_move",
    "canonical_move",
    "canonical_placement",
    "describe_placement",
    "format_move",
    "format_moves",
    "income_spaces_passed",
    "legal_moves",
    "move_from_json",
    "new_game",
    "orientation_cells",
    "parse_move",
    "parse_moves",
    "play_advance",
    "play_buy",
    "play_leather",
    "play_resign",
    "replay",
    "resolve_placement",
    "seeded_patch_order",
    "state_from_dict",
    "state_to_dict",
]
