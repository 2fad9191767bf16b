"""Game storage: the GameStore interface, its Redis implementation, and the bot queue and request counters beside it."""

from .analyses import Analyses
from .backend import Storage, open_storage, open_store, storage_from_settings
from .bot_jobs import BotJob, BotJobs
from .deadlines import Deadlines, DueGame
from .request_counter import RequestCounter
from .store import (
    ClockFill,
    Commit,
    CommitResult,
    EventSlice,
    EventWatch,
    GameStore,
    IdempotencyAnswer,
    IdempotencyRecord,
    NewEvent,
    StorageError,
    StoreBusy,
    StoredEvent,
    StoredGame,
)

__all__ = [
    "Analyses",
    "BotJob",
    "BotJobs",
    "ClockFill",
    "Commit",
    "CommitResult",
    "Deadlines",
    "DueGame",
    "EventSlice",
    "EventWatch",
    "GameStore",
    "IdempotencyAnswer",
    "IdempotencyRecord",
    "NewEvent",
    "RequestCounter",
    "Storage",
    "StorageError",
    "StoreBusy",
    "StoredEvent",
    "StoredGame",
    "open_storage",
    "open_store",
    "storage_from_settings",
]
