"""Game storage: the GameStore interface, its Redis implementation, and the bot queue and request counters beside it."""

from .analyses import Analyses
from .backend import Storage, open_storage, open_store, storage_from_settings
from .bot_jobs import BotJob, BotJobs
from .challenges import Blocks, ChallengeBook, StoredChallenge
from .deadlines import Deadlines, DueGame
from .event_streams import StreamEvent
from .game_lists import GameList, GameLists
from .lobby import LobbyIndex
from .players import PlayerStore
from .ratings import RatingBook
from .request_counter import RequestCounter
from .seeks import Pairing, SeekPool, StoredSeek
from .store import (
    ClockCheck,
    ClockLog,
    ClockRefusal,
    ClockRefused,
    Commit,
    CommitResult,
    EventSlice,
    EventWatch,
    GameExists,
    GameStore,
    Gone,
    IdempotencyAnswer,
    IdempotencyRecord,
    Moved,
    NewEvent,
    SeatChange,
    SeatExpired,
    StorageError,
    StoreBusy,
    Stored,
    StoredEvent,
    StoredGame,
    StoredView,
    WholeGame,
)
from .tournaments import StoredTournament, TournamentBook
from .watchers import StreamWatchers

__all__ = [
    "Analyses",
    "Blocks",
    "BotJob",
    "BotJobs",
    "ChallengeBook",
    "ClockCheck",
    "ClockLog",
    "ClockRefusal",
    "ClockRefused",
    "Commit",
    "CommitResult",
    "Deadlines",
    "DueGame",
    "EventSlice",
    "EventWatch",
    "GameExists",
    "GameList",
    "GameLists",
    "GameStore",
    "Gone",
    "IdempotencyAnswer",
    "IdempotencyRecord",
    "LobbyIndex",
    "Moved",
    "NewEvent",
    "Pairing",
    "PlayerStore",
    "RatingBook",
    "RequestCounter",
    "SeatChange",
    "SeatExpired",
    "SeekPool",
    "Storage",
    "StorageError",
    "StoreBusy",
    "Stored",
    "StoredChallenge",
    "StoredEvent",
    "StoredGame",
    "StoredSeek",
    "StoredTournament",
    "StoredView",
    "StreamEvent",
    "StreamWatchers",
    "TournamentBook",
    "WholeGame",
    "open_storage",
    "open_store",
    "storage_from_settings",
]
