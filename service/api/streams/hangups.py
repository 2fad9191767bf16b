"""Noticing at once that a client has closed its connection while its answer waits (an event stream).

A stream that waits for the next move writes nothing for up to
EVENTS_KEEPALIVE_SECONDS, and a closed connection is otherwise noticed only
when a write to it fails: until then the stream holds its greenlet, its
file descriptor and one of the worker's WORKER_CONNECTIONS, so a client
that opened and closed streams quickly could fill them all while holding
a single socket. Watching the socket for readability costs nothing while
the client is there (a client of a stream sends nothing), and tells the
moment it closes.

The web workers are gevent's (service/run/gunicorn_worker.py), so the watch is
an I/O watcher in gevent's loop whose callback runs in the hub: no greenlet
of its own, nothing that may wait. Readable means the peer closed (EOF or
an error: gone), or that it sent more bytes after its request (legal
HTTP/1.1 pipelining, never answered while the stream lasts). Those bytes
keep the socket readable, so from then on the socket is looked at once a
second instead, where poll's POLLRDHUP still tells a close behind them.
"""

from __future__ import annotations

import select
import socket
from collections.abc import Callable

import gevent
import gevent.socket
from gevent.monkey import get_original

# The system's poll: gevent's own waits, and the hub may not wait.
_poll = get_original("select", "poll")
# Linux tells a peer's close even behind unread bytes; elsewhere a close is
# seen only when nothing unread is left (a peek at the socket then reads EOF).
_RDHUP = getattr(select, "POLLRDHUP", 0)
_GONE = select.POLLHUP | select.POLLERR | select.POLLNVAL | _RDHUP
_READ = 1  # libev's EV_READ
# How often a socket with pipelined bytes is looked at for its client's close.
PIPELINED_RECHECK_SECONDS = 1.0


def _peer_gone(sock: socket.socket) -> bool | None:
    """True: the client closed or reset the connection; False: it sent bytes; None: nothing to tell."""
    try:
        ready = _poll()
        ready.register(sock.fileno(), select.POLLIN | _RDHUP)
        events = ready.poll(0)
        if not events:
            return None
        if events[0][1] & _GONE:
            return True
        # Readable without a close we can see: EOF, or bytes sent after the request.
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return None
    except OSError:
        return True  # reset, or the socket is closed already


class HangupWatch:
    """Calls `on_gone` (in gevent's hub) once when the client of `sock` closes the connection.

    Stop it before the socket is closed or read again (the response's end).
    """

    def __init__(self, sock: socket.socket, on_gone: Callable[[], None]):
        self._sock = sock
        self._on_gone = on_gone
        loop = gevent.get_hub().loop
        self._readable = loop.io(sock.fileno(), _READ)
        self._recheck = loop.timer(PIPELINED_RECHECK_SECONDS, PIPELINED_RECHECK_SECONDS)
        self._rechecking = False
        self._readable.start(self._look)

    @classmethod
    def of_request(cls, environ: dict, on_gone: Callable[[], None]) -> HangupWatch | None:
        """A watch on the request's client connection; None when the server is not gevent's."""
        sock = environ.get("gunicorn.socket")
        if not isinstance(sock, gevent.socket.socket):
            return None  # the Flask test client, or a server of another kind
        return cls(sock, on_gone)

    def _look(self) -> None:
        gone = _peer_gone(self._sock)
        if gone:
            # Stopped, not closed: this runs inside the watcher's own callback.
            self._readable.stop()
            self._recheck.stop()
            self._on_gone()
        elif gone is False and not self._rechecking:
            # Pipelined bytes keep the socket readable until they are read.
            self._rechecking = True
            self._readable.stop()
            self._recheck.start(self._look)

    def stop(self) -> None:
        """Stop watching, for good (a second call does nothing)."""
        self._readable.close()  # stops the watcher and lets its loop resources go
        self._recheck.close()
