"""The built-in load generator: forked processes, each driving keep-alive sockets.

Used when wrk is not installed. Each process runs one selector loop over its
share of the connections, sends ready-made request bytes and reads answers
by Content-Length; no HTTP library sits in the way. It costs more CPU per
request than wrk, which takes CPU from the service on a small machine, so
its figures are a little lower and its ratios a little closer to 1.
"""

from __future__ import annotations

import multiprocessing
import selectors
import socket
import time
from array import array
from collections import deque

from .plans import GetPlan, MovePlan, request_text
from .results import RunResult, percentile

_HEADER_END = b"\r\n\r\n"


class _GetFeed:
    """Round-robin over the plan's requests, each connection from its own offset."""

    def __init__(self, plan: GetPlan, host: str, offset: int):
        self.expect = plan.expect
        self.requests = [
            request_text("GET", path, host, plan.headers_for(i)) for i, path in enumerate(plan.paths)
        ]
        self.index = offset % len(self.requests)

    def next_request(self) -> bytes | None:
        self.index = (self.index + 1) % len(self.requests)
        return self.requests[self.index]

    def answered(self, status: int) -> None:
        pass


class _GamePool:
    """One process's games, handed from connection to connection as players take turns.

    A game whose move was answered joins the back of a queue that is kept
    at least `hold_back` games long, so its next move goes out on whichever
    connection is free next, not on the one that sent the last: the two
    seats of a game are two clients, who reach the service on connections
    of their own.
    """

    def __init__(self, games: list, hold_back: int):
        self.fresh = iter(games)
        self.ready: deque[list] = deque()  # [game, next step]
        self.hold_back = hold_back

    def take(self) -> list | None:
        if len(self.ready) > self.hold_back:
            return self.ready.popleft()
        game = next(self.fresh, None)
        if game is not None:
            return [game, 0]
        return self.ready.popleft() if self.ready else None

    def give_back(self, entry: list) -> None:
        self.ready.append(entry)


class _MoveFeed:
    """The next move of a game from the process's pool; the game goes back to it once answered."""

    def __init__(self, plan: MovePlan, host: str, pool: _GamePool):
        self.expect = plan.expect
        self.host = host
        self.script = plan.script
        self.pool = pool
        self.current: list | None = None

    def next_request(self) -> bytes | None:
        self.current = self.pool.take()
        if self.current is None:
            return None  # out of games: this connection stops
        game, step = self.current
        move = self.script[step]
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {game.tokens[move.seat]}"}
        return request_text("POST", f"/games/{game.id}/moves", self.host, headers, move.body)

    def answered(self, status: int) -> None:
        # A refused move leaves the game where it was; retrying it would refuse again.
        assert self.current is not None  # request() found a game
        game, step = self.current
        if status == 201 and step + 1 < len(self.script):
            self.pool.give_back([game, step + 1])


class _Connection:
    def __init__(self, address: tuple[str, int], feed):
        self.address = address
        self.feed = feed
        self.sock = socket.create_connection(address)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        self.sent_at = 0.0

    def send_next(self) -> bool:
        request = self.feed.next_request()
        if request is None:
            return False
        self.sent_at = time.perf_counter()
        self.sock.sendall(request)
        return True

    def read_answer(self) -> int | None:
        """The status once a whole answer is in; None while more is to come."""
        chunk = self.sock.recv(262144)
        if not chunk:
            raise ConnectionError("the service closed a keep-alive connection")
        self.buffer += chunk
        end = self.buffer.find(_HEADER_END)
        if end < 0:
            return None
        head = self.buffer[:end]
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        total = end + len(_HEADER_END) + length
        if len(self.buffer) < total:
            return None
        self.buffer = self.buffer[total:]
        return int(head[9:12])


def _drive(feeds: list, address: tuple[str, int], start_at: float, duration: float, out) -> None:
    """One process: run the feeds' connections from start_at for duration; send back counts."""
    connections = [_Connection(address, feed) for feed in feeds]
    selector = selectors.DefaultSelector()
    latencies = array("d")
    unexpected = 0
    time.sleep(max(0.0, start_at - time.time()))
    end = time.perf_counter() + duration
    for conn in connections:
        if conn.send_next():
            selector.register(conn.sock, selectors.EVENT_READ, conn)
    while selector.get_map():
        now = time.perf_counter()
        if now >= end:
            break
        for key, _ in selector.select(end - now):
            conn = key.data
            status = conn.read_answer()
            if status is None:
                continue
            done = time.perf_counter()
            if done > end:
                break
            latencies.append(done - conn.sent_at)
            if status != conn.feed.expect:
                unexpected += 1
            conn.feed.answered(status)
            if not conn.send_next():
                selector.unregister(conn.sock)
    for conn in connections:
        conn.sock.close()
    out.send((latencies.tobytes(), unexpected))
    out.close()


class PythonRun:
    """One run: `connections` keep-alive sockets spread over `processes` forked processes."""

    def __init__(
        self,
        plan: GetPlan | MovePlan,
        host: str,
        port: int,
        *,
        connections: int,
        processes: int,
        duration: float,
    ):
        processes = max(1, min(processes, connections))
        hostname = f"{host}:{port}"
        feeds: list[_MoveFeed] | list[_GetFeed]
        if isinstance(plan, MovePlan):
            # Process i drives connections i, i + processes, ...; they share its pool of
            # games, so a game is never in flight twice.
            pools = [
                _GamePool(plan.games[i::processes], hold_back=connections // processes)
                for i in range(processes)
            ]
            feeds = [_MoveFeed(plan, hostname, pools[i % processes]) for i in range(connections)]
        else:
            feeds = [_GetFeed(plan, hostname, i * 7) for i in range(connections)]
        context = multiprocessing.get_context("fork")
        self.duration = duration
        # All processes connect first, then start sending together.
        self.load_starts = time.time() + 0.3 + 0.1 * processes
        self._children = []
        for index in range(processes):
            receiver, sender = context.Pipe(duplex=False)
            child = context.Process(
                target=_drive,
                args=(feeds[index::processes], (host, port), self.load_starts, duration, sender),
            )
            child.start()
            sender.close()
            self._children.append((child, receiver))

    def result(self) -> RunResult:
        """Wait for the end of the run and gather its figures."""
        latencies = array("d")
        unexpected = 0
        for child, receiver in self._children:
            raw, bad = receiver.recv()
            child.join()
            latencies.frombytes(raw)
            unexpected += bad
        ordered = sorted(latencies)
        return RunResult(
            requests=len(ordered),
            seconds=self.duration,
            p50_ms=percentile(ordered, 50) * 1000,
            p99_ms=percentile(ordered, 99) * 1000,
            unexpected=unexpected,
        )

    def abort(self) -> None:
        """Stop the run now; its figures are dropped."""
        for child, receiver in self._children:
            child.kill()
            child.join()
            receiver.close()
