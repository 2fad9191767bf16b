"""Following a player: the events of its stream (notices.py) after the last one the client has, as they come.

Like a game's feed (events.py), minus the snapshot: a client that names the
last event it has (Last-Event-ID) gets every event kept after it, then each
new one (stream_feed.py); a client that names none starts from now.
"""

from __future__ import annotations

from functools import partial

from service.storage import PlayerStore

from .stream_feed import StreamFeed


class PlayerFeed(StreamFeed):
    """One follower of one player's stream (`game_start`, `your_turn`, `game_end`, `rematch_offer`, ...)."""

    @classmethod
    def open(cls, store: PlayerStore, player_id: str, after: str | None, idle_seconds: float) -> PlayerFeed:
        """Watch first, then settle where to start (StorageError raises here, before any event)."""
        watch = store.watch(player_id)
        try:
            if after is None:
                after = store.newest_event_id(player_id) or "0-0"
        except BaseException:
            watch.close()
            raise
        return cls(partial(store.events_after, player_id), watch, after, idle_seconds)
