"""Requests gunicorn refuses before the app sees them still get problem+json."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import pytest

from service.api.validation import load_spec
from tests.api.contract import ResponseContract
from tests.live_service import LiveService


@pytest.fixture(scope="module")
def live(redis_server, tmp_path_factory):
    with LiveService(redis_server.url, tmp_path_factory.mktemp("refusals") / "svc.log") as service:
        yield service


def raw_exchange(url: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes, read until the server closes: (status, headers, body)."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip(): value.strip() for name, _, value in (h.partition(":") for h in header_lines)}
    return int(status_line.split()[1]), headers, body


def test_overlong_request_line_is_414_problem(live):
    path = "/games/abc/moves?" + "&".join(["since=1"] * 1000)
    status, headers, body = raw_exchange(live.url, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert status == 414
    assert headers["Content-Type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["code"] == "uri_too_long" and problem["status"] == 414
    ResponseContract(load_spec()).check("GET", "/games/abc/moves", status, headers, body)


def test_too_many_headers_is_431_problem(live):
    extra = "".join(f"X-Filler-{n}: {n}\r\n" for n in range(120))
    status, headers, body = raw_exchange(live.url, f"GET /games/abc HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode())
    assert status == 431
    problem = json.loads(body)
    assert problem["code"] == "headers_too_large" and problem["status"] == 431
    ResponseContract(load_spec()).check("GET", "/games/abc", status, headers, body)


def test_malformed_request_line_is_400_problem(live):
    status, headers, body = raw_exchange(live.url, b"GET /healthz HTTP/9.9 extra\r\nHost: x\r\n\r\n")
    assert status == 400
    assert headers["Content-Type"] == "application/problem+json"
    assert json.loads(body)["code"] == "invalid_request"
    # The service is unharmed.
    status, _, body = raw_exchange(live.url, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert status == 200 and json.loads(body) == {"status": "ok"}
