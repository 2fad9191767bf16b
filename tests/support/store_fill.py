"""Bring a Redis node near its maxmemory quickly and deterministically, for the store-reserve tests (issue 36)."""

from __future__ import annotations

from collections.abc import Callable

from redis import Redis
from redis.exceptions import MovedError

# Room above a node's data when squeezed: its 10 % reserve (about 0.5 MB) holds a game played to
# its end many times over (the first move loads its script, about 110 KB; each move about 2 KB).
ROOM = 4 * 1024 * 1024


def squeeze(node: Redis, fraction: float, room: int = ROOM) -> None:
    """Give the node `room` bytes of maxmemory (noeviction) above its data, then fill it to `fraction` of that.

    Filled with strings of 16 KB until used_memory reaches the mark (one big
    argument would count twice, in the client's query buffer as well); a
    cluster node takes only keys of its own slots, so the others are skipped.
    """
    node.config_set("maxmemory-policy", "noeviction")
    used = node.info("memory")["used_memory"]
    node.config_set("maxmemory", used + room)
    target = int((used + room) * fraction)
    keys = iter(range(1_000_000))
    while node.info("memory")["used_memory"] < target:
        try:
            node.set(f"filler:{{{next(keys)}}}", b"x" * 16384)
        except MovedError:  # another node's slot
            continue


def play_out(game: dict, move: Callable[[dict, int], dict]) -> dict:
    """Play a game (as read) to its end, both seats only advancing: `move(body, seat)` sends one and returns
    the game after it. With seed 1 that is 59 moves (tests/api/test_moves.py works the game out)."""
    leather_cells = iter([(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)])
    while game["status"] == "active":
        if game["phase"] == "place_leather":
            row, col = next(leather_cells)
            game = move({"action": "place_leather", "row": row, "col": col}, game["turn"])
        else:
            game = move({"action": "advance"}, game["turn"])
    return game
