"""Clients playing random legal moves in the background while a test breaks things.

Each client thread picks a game, reads its legal moves, posts one (now and
then with If-Match or an Idempotency-Key), and keeps every status it saw and
every move acknowledged with 201, until the test stops it. A 503 must say
when to come back (Retry-After); one that does not is kept apart.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

from .service_client import Ack, ServiceClient, choose_move

# What a client may see from a live service whose Redis comes and goes:
# reads, accepted and refused moves, and 503 while the store is away. Never 500.
EXPECTED_STATUSES = {200, 201, 409, 412, 422, 503}


class BackgroundPlay:
    """`clients` threads playing on `games` ({id: tokens}) through the service at `url`.

    Client threads are numbered from `first`: plays running side by side on
    the same games (through other instances) take distinct numbers, so their
    Idempotency-Keys never collide.
    """

    def __init__(self, url: str, games: dict[str, list[str]], clients: int = 4, first: int = 0):
        self.url = url
        self.games = games
        self.statuses: Counter[int] = Counter()
        self.move_statuses: Counter[int] = Counter()  # of the moves alone
        self.unavailable_without_retry_after = 0
        self.acks: list[Ack] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._errors: list[BaseException] = []
        self._threads = [
            threading.Thread(target=self._play, args=(n,), daemon=True) for n in range(first, first + clients)
        ]

    def __enter__(self) -> BackgroundPlay:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def ack_count(self) -> int:
        with self._lock:
            return len(self.acks)

    def status_count(self, status: int) -> int:
        with self._lock:
            return self.statuses[status]

    def wait_until(self, condition, what: str, timeout: float = 20.0) -> None:
        """Poll `condition()` until true; fail after `timeout` or if a client thread failed."""
        deadline = time.monotonic() + timeout
        while not condition():
            if self._errors:
                raise self._errors[0]
            if time.monotonic() > deadline:
                raise AssertionError(f"not within {timeout} s: {what} (statuses {dict(self.statuses)})")
            time.sleep(0.02)

    def stop(self, timeout: float = 30.0) -> None:
        """Stop every client (each finishes the request in hand) and re-raise a client's failure."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout)
        assert not any(thread.is_alive() for thread in self._threads), "a client thread hung"
        if self._errors:
            raise self._errors[0]

    def _play(self, n: int) -> None:
        rng = random.Random(1000 + n)
        try:
            with ServiceClient(self.url) as client:
                attempt = 0
                while not self._stop.is_set():
                    attempt += 1
                    self._turn(client, rng, f"bg{n}-{attempt}")
        except BaseException as error:  # surfaced by wait_until/stop in the test's thread
            self._errors.append(error)

    def _turn(self, client: ServiceClient, rng: random.Random, key: str) -> None:
        status, choice = choose_move(client, rng.choice(sorted(self.games)), rng)
        self._count(status)
        if choice is None:
            return
        token = self.games[choice.game_id][choice.seat]
        kind = rng.randrange(3)
        resp = client.move(
            choice, token, if_match=choice.version if kind == 1 else None, key=key if kind == 2 else None
        )
        self._count(resp.status_code)
        with self._lock:
            self.move_statuses[resp.status_code] += 1
            if resp.status_code == 503 and "Retry-After" not in resp.headers:
                self.unavailable_without_retry_after += 1
            if resp.status_code == 201:
                self.acks.append(Ack.of(choice, resp))

    def _count(self, status: int) -> None:
        with self._lock:
            self.statuses[status] += 1
