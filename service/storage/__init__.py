"""Game storage: the GameStore interface and its Redis implementation."""

from .redis_store import open_store
from .store import GameStore, IdempotencyRecord, StorageError, StoredGame

__all__ = ["GameStore", "IdempotencyRecord", "StorageError", "StoredGame", "open_store"]
