"""Clients that connect and then hold the connection without finishing a request.

The system test and benchmarks/slowclients.py open hundreds of these next
to honest clients: a server that gives each one a thread, or waits for it
without a deadline, stops answering everybody else.
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

# A request head that never ends: the blank line that would close it is not sent.
UNFINISHED_HEAD = b"GET /healthz HTTP/1.1\r\nHost: x\r\n"


class SlowClients:
    """`count` connections to the service at `url`, each sending `opening` (maybe nothing) and then nothing more."""

    def __init__(self, url: str, count: int, opening: bytes = UNFINISHED_HEAD):
        parts = urlsplit(url)
        self._address = (parts.hostname, parts.port)
        self.count = count
        self.opening = opening
        self.sockets: list[socket.socket] = []

    def __enter__(self) -> SlowClients:
        try:
            for _ in range(self.count):
                sock = socket.create_connection(self._address, timeout=10)
                self.sockets.append(sock)
                if self.opening:
                    sock.sendall(self.opening)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()
        self.sockets = []

    def still_open(self) -> int:
        """How many the server has neither answered nor closed."""
        held = 0
        for sock in self.sockets:
            sock.setblocking(False)
            try:
                sock.recv(1)
            except BlockingIOError:
                held += 1
            except OSError:
                pass
            finally:
                sock.setblocking(True)
        return held
