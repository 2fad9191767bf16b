"""The game-play core: creating, reading and playing stored games, with no web framework.

The HTTP API (service/api) and any other caller play through `GamePlay`;
refusals come out as typed `Refusal`s carrying the API's stable code.
"""

from .kept import GameCopy, KeptCopies
from .play import Committed, Created, GamePlay, IdempotencyClaim, VersionCondition
from .records import DEFAULT_NAMES, NO_BOTS, GameRecord, token_hash
from .refusals import (BotsUnavailable, GameBusy, GameNotFound, InvalidToken, MissingToken, NotABot,
                       Refusal, RuleBroken, VersionMismatch)

__all__ = [
    "BotsUnavailable", "Committed", "Created", "DEFAULT_NAMES", "GameBusy", "GameCopy", "GameNotFound", "GamePlay",
    "GameRecord", "IdempotencyClaim", "InvalidToken", "KeptCopies", "MissingToken", "NO_BOTS", "NotABot", "Refusal",
    "RuleBroken", "VersionCondition", "VersionMismatch", "token_hash",
]
