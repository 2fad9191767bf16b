"""Game storage: the GameStore interface and its Redis implementation."""

from .bot_jobs import BotJob, BotJobs
from .redis_store import open_store
from .store import CommitResult, GameStore, IdempotencyRecord, StorageError, StoredGame

__all__ = ["BotJob", "BotJobs", "CommitResult", "GameStore", "IdempotencyRecord", "StorageError", "StoredGame", "open_store"]
