"""Open event streams per client address, counted across the workers of one instance.

STREAMS_PER_CLIENT is what an operator sets for an instance, and which of
its workers accepts a connection is up to the kernel: counted per worker, one
address could hold WEB_CONCURRENCY times the limit. So the workers count in a
table of anonymous shared memory that the arbiter maps before it forks them
(gunicorn_conf.py), as it does for shared copies of games.

No locks, which a worker killed while holding one would leave held for
good. Each worker has a row of its own, which only it writes; a count is the
sum over the rows. The arbiter hands a worker its row before forking it and
zeroes the row once the worker has exited, so a worker that dies with
streams open leaves nothing counted. Two workers admitting streams of one
address at the same moment can each see room for one more: the limit may be
passed by at most one stream per other worker, never more.

Addresses are not stored: a row is a count-min sketch, each address counted
in one column of each of four quarters, chosen by a hash, and its count is
the smallest of the four sums. That can only overstate an address's count
(when each of its columns is shared with other addresses), never understate
it. An instance holds some 20,000 streams (WORKER_CONNECTIONS x
WEB_CONCURRENCY at most), so at most about 600 addresses are at a limit of
32; a client that holds few streams is refused because of them only when
all four of its columns hold one of those: (600 / 8,192)^4, about 1 in
35,000 addresses (tests/api/test_stream_counts.py).
"""

from __future__ import annotations

import hashlib
import mmap

COLUMNS = 8192  # per quarter of a row
_QUARTERS = 4
_WIDTH = _QUARTERS * COLUMNS  # counts per row
_ROW_BYTES = _WIDTH * 4  # uint32 counts: 128 KiB a row


def _columns(client: str) -> list[int]:
    """The four columns that count `client`, one in each quarter."""
    digest = hashlib.blake2b(client.encode(), digest_size=4 * _QUARTERS).digest()
    return [
        quarter * COLUMNS + int.from_bytes(digest[4 * quarter : 4 * quarter + 4], "little") % COLUMNS
        for quarter in range(_QUARTERS)
    ]


class StreamCounts:
    """Counts of open streams by client address in `rows` rows, one per process writing to them."""

    def __init__(self, rows: int):
        if rows <= 0:
            raise ValueError(f"rows must be positive, not {rows}")
        self.rows = rows
        # Anonymous and MAP_SHARED (mmap's default on Unix): inherited by forked children, shared with them.
        self._memory = mmap.mmap(-1, rows * _ROW_BYTES)
        self._counts = memoryview(self._memory).cast("I")

    def held(self, client: str) -> int:
        """How many streams `client` holds open in every row (an overestimate at worst)."""
        counts = self._counts
        return min(
            sum(counts[row * _WIDTH + column] for row in range(self.rows)) for column in _columns(client)
        )

    def add(self, row: int, client: str, delta: int) -> None:
        """Count `delta` streams of `client` opened (or closed: negative) in `row`, which only this process writes."""
        base = row * _WIDTH
        for column in _columns(client):
            self._counts[base + column] += delta

    def clear(self, row: int) -> None:
        """Forget what `row` counted: the process that wrote it has exited."""
        self._memory[row * _ROW_BYTES : (row + 1) * _ROW_BYTES] = bytes(_ROW_BYTES)


# The table the arbiter made for its workers (gunicorn_conf.py), and this worker's row of it.
_FOR_WORKERS: StreamCounts | None = None
_ROW: int | None = None


def share_with_workers(rows: int) -> None:
    """Make the table that the processes forked from this one will share (call before they fork)."""
    global _FOR_WORKERS
    _FOR_WORKERS = StreamCounts(rows)


def free_row(rows_in_use: set[int | None]) -> int | None:
    """(In the arbiter) a row no live worker writes, for the next; None when there is none."""
    if _FOR_WORKERS is None:
        return None
    return next((row for row in range(_FOR_WORKERS.rows) if row not in rows_in_use), None)


def release_row(row: int | None) -> None:
    """(In the arbiter) a worker that wrote `row` has exited: its streams are closed."""
    if _FOR_WORKERS is not None and row is not None:
        _FOR_WORKERS.clear(row)


def use_row(row: int | None) -> None:
    """(In a new worker) the row the arbiter gave it; None: it counts alone."""
    global _ROW
    _ROW = row


def for_this_worker() -> tuple[StreamCounts, int] | None:
    """The shared table and this worker's row; None outside a worker that has one."""
    if _FOR_WORKERS is None or _ROW is None:
        return None
    return _FOR_WORKERS, _ROW
