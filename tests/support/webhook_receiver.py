"""A real HTTP server that receives webhook deliveries, for the tests and the benchmark.

It listens on a free port of 127.0.0.1 and answers by the path it is sent
to: `/ok` 200, `/fail` 500, `/hang` after `hang_s` (past a sender's
timeout), `/redirect` 302 to `/ok`. Every request is kept (when, path,
headers, body); `stop()` makes it go away (connections refused after).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    at: float  # time.monotonic() when it arrived
    path: str
    headers: dict[str, str]
    body: bytes


class WebhookReceiver:
    """The server, started on construction; use as a context manager or call stop()."""

    def __init__(self, hang_s: float = 10.0):
        self.hang_s = hang_s
        self.received: list[Received] = []
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                with receiver._arrived:
                    receiver.received.append(
                        Received(time.monotonic(), self.path, dict(self.headers.items()), body)
                    )
                    receiver._arrived.notify_all()
                if self.path.startswith("/hang"):
                    time.sleep(receiver.hang_s)
                status = {"/fail": 500, "/redirect": 302}.get(self.path.split("?")[0], 200)
                self.send_response(status)
                if status == 302:
                    self.send_header("Location", "/ok")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def wait_for(self, count: int, path: str | None = None, timeout: float = 10.0) -> list[Received]:
        """The requests received (to `path` only, when given), once there are `count`; AssertionError after `timeout`."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                found = [r for r in self.received if path is None or r.path == path]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                assert left > 0, f"{len(found)} of {count} deliveries arrived in {timeout} s"
                self._arrived.wait(left)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> WebhookReceiver:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()
