"""Typed errors of the rules engine.

Each rule error carries the stable `code` of docs/api-guide.md#errors, so the HTTP layer
maps exceptions to responses without knowing the rules. Messages name the bad
input.

A rule error (and an invalid setup) keeps its message as written (English,
with `{name}` placeholders) and the values apart, so a layer above can show
it in another language (service/languages: the engine imports none of it);
`str()` is the English sentence with the values in it.
"""


class ExplainedError(ValueError):
    """An error whose English message and the values it names are kept apart."""

    def __init__(self, message: str, **values: object):
        super().__init__(message.format_map(values) if values else message)
        self.message = message
        self.values = values


class RuleError(ExplainedError):
    """A move that the rules refuse in the current state."""

    code = "rule_error"


class GameFinished(RuleError):
    """A move on a finished game."""

    code = "game_finished"


class NotYourTurn(RuleError):
    """A move by the seat that is not in turn."""

    code = "not_your_turn"


class WrongPhase(RuleError):
    """A move of the wrong kind for the phase (e.g. a buy while leather is due)."""

    code = "wrong_phase"


class PatchNotAvailable(RuleError):
    """A buy of a patch that is not among the first three of the circle."""

    code = "patch_not_available"


class CannotAfford(RuleError):
    """A buy of a patch that costs more buttons than the seat holds."""

    code = "cannot_afford"


class DoesNotFit(RuleError):
    """A placement off the board, overlapping, or not the patch's shape."""

    code = "does_not_fit"


class CellOccupied(RuleError):
    """A leather patch on a cell that is already covered."""

    code = "cell_occupied"


class InvalidSetup(ExplainedError):
    """Game creation parameters that cannot make a game."""

    code = "invalid_request"


class NotationError(ValueError):
    """A written move that names no move: ANU text (notation.py) or a JSON form (moves.py)."""

    code = "invalid_request"


class StateFormatError(ValueError):
    """A stored state dict that this engine cannot read."""

    code = "invalid_state"
