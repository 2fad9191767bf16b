"""The game-play core: creating, reading and playing stored games, with no web framework.

The HTTP API (service/api) and any other caller play through `GamePlay`;
refusals come out as typed `Refusal`s carrying the API's stable code.
"""

from service.problems import CATALOGUE, ProblemType

from .answers import AcceptedAnswer, RecordedAnswer, RefusedAnswer
from .events import EventFeed, GameEvent
from .kept import GameCopy, KeptCopies
from .play import GamePlay
from .records import DEFAULT_NAMES, NO_BOTS, GameRecord, token_hash
from .refusals import (
    BotsUnavailable,
    GameBusy,
    GameNotFound,
    IdempotencyKeyInUse,
    IdempotencyKeyReused,
    InvalidToken,
    MissingToken,
    NotABot,
    Refusal,
    RuleBroken,
    VersionMismatch,
    VersionNotFound,
    entry_of,
)
from .values import Committed, Created, IdempotencyKey, VersionCondition

__all__ = [
    "CATALOGUE",
    "DEFAULT_NAMES",
    "NO_BOTS",
    "AcceptedAnswer",
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
    "IdempotencyKey",
    "IdempotencyKeyInUse",
    "IdempotencyKeyReused",
    "InvalidToken",
    "KeptCopies",
    "MissingToken",
    "NotABot",
    "ProblemType",
    "RecordedAnswer",
    "Refusal",
    "RefusedAnswer",
    "RuleBroken",
    "VersionCondition",
    "VersionMismatch",
    "VersionNotFound",
    "entry_of",
    "token_hash",
]
