"""The bridge's HTTP side against a real local HTTP server: Retry-After honoured, long waits handed back, SSE read."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from service.bridge.service_client import ServiceClient, parse_events


class Scripted(BaseHTTPRequestHandler):
    """Answers each request with the next of its server's scripted (status, headers) answers."""

    def do_GET(self):
        status, headers = self.server.answers.pop(0)  # type: ignore[attr-defined]
        self.server.seen.append((time.monotonic(), self.headers.get("Authorization")))  # type: ignore[attr-defined]
        body = b'{"ok": true}'
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    httpd.answers, httpd.seen = [], []  # type: ignore[attr-defined]
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def client_of(server) -> ServiceClient:
    return ServiceClient(f"http://127.0.0.1:{server.server_port}", "bot.secret", threading.Event())


def test_a_503_and_a_429_are_asked_again_after_their_retry_after(server):
    server.answers += [(503, {"Retry-After": "1"}), (429, {"Retry-After": "1"}), (200, {})]
    answer = client_of(server).call("GET", "/players/me")
    assert answer.status_code == 200
    times = [at for at, _ in server.seen]
    assert len(times) == 3
    assert times[1] - times[0] >= 0.95 and times[2] - times[1] >= 0.95
    assert {token for _, token in server.seen} == {"Bearer bot.secret"}


def test_a_retry_after_longer_than_a_minute_is_an_answer_not_a_pause(server):
    server.answers += [(429, {"Retry-After": "86400"})]
    assert client_of(server).call("GET", "/challenges/x/accept").status_code == 429
    assert len(server.seen) == 1


def test_events_are_read_whatever_the_chunks_they_arrive_in():
    stream = b'retry: 1000\n\n: keep-alive\n\nevent: game\nid: 3\ndata: {"version": 3}\n\nevent: watchers\ndata: {"count": 2}\n\n'
    chunks = [stream[i : i + 5] for i in range(0, len(stream), 5)]
    events = list(parse_events(iter(chunks)))
    assert [(e.event, e.id, e.data) for e in events] == [
        ("game", "3", {"version": 3}),
        ("watchers", None, {"count": 2}),
    ]


def test_a_data_field_over_several_lines_is_joined_with_newlines():
    events = list(parse_events(iter([b'event: end\r\ndata: {"a":\r\ndata: 1}\r\n\r\n'])))
    assert [(e.event, e.data) for e in events] == [("end", {"a": 1})]
