"""The game-play core: creating, reading and playing stored games, with no web framework.

The HTTP API (service/api) and any other caller play through `GamePlay`;
refusals come out as typed `Refusal`s carrying the API's stable code.
"""

from .catalogue import CATALOGUE, ProblemType
from .events import EventFeed, GameEvent
from .kept import GameCopy, KeptCopies
from .play import Committed, Created, GamePlay, IdempotencyClaim, VersionCondition
from .records import DEFAULT_NAMES, NO_BOTS, GameRecord, token_hash
from .refusals import (
    BotsUnavailable,
    GameBusy,
    GameNotFound,
    InvalidToken,
    MissingToken,
    NotABot,
    Refusal,
    RuleBroken,
    VersionMismatch,
    VersionNotFound,
    entry_of,
)

__all__ = [
    "CATALOGUE",
    "DEFAULT_NAMES",
    "NO_BOTS",
    "BotsUnavailable",
    "Committed",
    "Created",
    "EventFeed",
    "GameBusy",
    "GameCopy",
    "GameEvent",
    "GameNotFound",
    "GamePlay",
    "GameRecord",
    "IdempotencyClaim",
    "InvalidToken",
    "KeptCopies",
    "MissingToken",
    "NotABot",
    "ProblemType",
    "Refusal",
    "RuleBroken",
    "VersionCondition",
    "VersionMismatch",
    "VersionNotFound",
    "entry_of",
    "token_hash",
]
