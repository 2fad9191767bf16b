"""What the browser tests talk to: the service under gunicorn on real Redis, and a page on another origin."""

from __future__ import annotations

import functools
import re
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.support.live_service import LiveService

PAGES = Path(__file__).resolve().parent / "pages"

_REQUEST_LINE = re.compile(r'"(?P<method>[A-Z]+) (?P<target>\S+) HTTP/[0-9.]+"')


class CountedService(LiveService):
    """The service with its access log on: what a browser sent it is counted from there."""

    def __init__(self, redis_url: str, log_path: Path):
        super().__init__(redis_url, log_path, env={"ACCESS_LOG": "1"})

    def settled_log(self, quiet: float = 0.3, bound: float = 5.0) -> str:
        """The log once no line has come for `quiet` seconds (at most `bound`).

        gunicorn logs a request after its answer went out, so the browser can
        be done before the last line is written.
        """
        text, deadline = self.log(), time.monotonic() + bound
        while time.monotonic() < deadline:
            time.sleep(quiet)
            later = self.log()
            if later == text:
                break
            text = later
        return text

    def requests(self) -> list[tuple[str, str]]:
        """(method, path and query) of every request the service has logged."""
        return [(m["method"], m["target"]) for m in _REQUEST_LINE.finditer(self.settled_log())]

    def preflights(self) -> int:
        return sum(1 for method, _ in self.requests() if method == "OPTIONS")


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


class PageServer:
    """The test pages, served on http://localhost:<port>: another origin than the service's 127.0.0.1."""

    def __init__(self):
        handler = functools.partial(_QuietHandler, directory=str(PAGES))
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://localhost:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> PageServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._server.shutdown()
        self._server.server_close()
