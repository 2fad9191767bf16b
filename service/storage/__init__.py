"""Game storage: the GameStore interface and its Redis implementation."""

from .bot_jobs import BotJob, BotJobs
from .redis_store import open_store, store_from_settings
from .store import (
    CommitResult,
    EventSlice,
    EventWatch,
    GameStore,
    IdempotencyRecord,
    NewEvent,
    StorageError,
    StoreBusy,
    StoredEvent,
    StoredGame,
)

__all__ = [
    "BotJob",
    "BotJobs",
    "CommitResult",
    "EventSlice",
    "EventWatch",
    "GameStore",
    "IdempotencyRecord",
    "NewEvent",
    "StorageError",
    "StoreBusy",
    "StoredEvent",
    "StoredGame",
    "open_store",
    "store_from_settings",
]
