"""Idle event streams held open against the service: GET /games/{id}/events, snapshot read, then nothing.

Plain blocking sockets of the benchmark process: an idle stream only gets a
keep-alive comment now and then, which the kernel buffers without anyone
reading it.
"""

from __future__ import annotations

import resource
import socket
import time

SNAPSHOT_MARK = b"event: game\n"


def raise_open_file_limit() -> int:
    """Raise this process's open-file soft limit to the hard limit; the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def open_stream(host: str, port: int, game_id: str, timeout: float = 10.0) -> socket.socket:
    """A connection on which the game's stream has sent its snapshot."""
    sock = socket.create_connection((host, port), timeout=timeout)
    sock.sendall(
        f"GET /games/{game_id}/events HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode(
            "ascii"
        )
    )
    received = b""
    while SNAPSHOT_MARK not in received:
        chunk = sock.recv(65536)
        if not chunk:
            sock.close()
            raise ConnectionError(f"stream closed before its snapshot: {received[:200]!r}")
        received += chunk
    if not received.startswith(b"HTTP/1.1 200"):
        sock.close()
        raise ConnectionError(f"stream refused: {received[:200]!r}")
    return sock


class IdleStreams:
    """`count` idle streams spread over `game_ids`, open until close()."""

    def __init__(self, host: str, port: int, game_ids: list[str], count: int):
        raise_open_file_limit()
        self.sockets: list[socket.socket] = []
        self.failures = 0
        started = time.monotonic()
        for index in range(count):
            try:
                self.sockets.append(open_stream(host, port, game_ids[index % len(game_ids)]))
            except OSError as error:
                self.failures += 1
                if self.failures == 1:
                    self.first_error = repr(error)
        self.open_seconds = time.monotonic() - started

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()
        self.sockets = []

    def __enter__(self) -> IdleStreams:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
