"""Game storage: the GameStore interface and its Redis implementation."""

from .redis_store import open_store
from .store import CommitResult, GameStore, IdempotencyRecord, StorageError, StoredGame

__all__ = ["CommitResult", "GameStore", "IdempotencyRecord", "StorageError", "StoredGame", "open_store"]
