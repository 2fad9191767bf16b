"""A TCP proxy in front of a service that a test can cut: every connection through it dropped at once.

What a flaky network or a load balancer's reload does to a client's open
streams, made on demand. New connections after a cut go through as before;
one whose upstream refuses (a service restarting) is closed at once.
"""

from __future__ import annotations

import socket
import threading

from tests.support.redis_servers import free_port


class TcpProxy:
    def __init__(self, upstream_port: int):
        self.upstream_port = upstream_port
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.cuts = 0
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # closed
            try:
                upstream = socket.create_connection(("127.0.0.1", self.upstream_port), timeout=2)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._open.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            self._drop(source, sink)

    def _drop(self, *sockets: socket.socket) -> None:
        with self._lock:
            for sock in sockets:
                self._open.discard(sock)
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                sock.close()

    def open_connections(self) -> int:
        """How many client connections go through the proxy now."""
        with self._lock:
            return len(self._open) // 2

    def cut(self) -> int:
        """Drop every open connection; how many there were."""
        with self._lock:
            sockets = list(self._open)
        self._drop(*sockets)
        self.cuts += 1
        return len(sockets) // 2

    def close(self) -> None:
        self._listener.close()
        self.cut()
