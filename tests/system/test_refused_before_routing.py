"""Requests gunicorn refuses before the app sees them still get problem+json."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import pytest

from service.api.contract.spec import load_spec
from tests.support.contract import ResponseContract
from tests.support.live_service import LiveService


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
    status, headers, body = raw_exchange(
        live.url, f"GET /games/abc HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode()
    )
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


def chunked_create(body: bytes) -> bytes:
    """POST /games with `body` sent in 8 KiB chunks."""
    chunks = b"".join(
        b"%x\r\n%s\r\n" % (len(part), part)
        for part in (body[i : i + 8192] for i in range(0, len(body), 8192))
    )
    return (
        b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunks + b"0\r\n\r\n"
    )


def test_chunked_body_over_64_kib_is_413_problem(live):
    # Valid JSON for its first 64 KiB: a server that cuts the stream short at
    # the limit would parse it and create the game.
    body = b'{"seed": 7}' + b" " * (70 * 1024)
    status, headers, body = raw_exchange(live.url, chunked_create(body))
    assert status == 413
    assert headers["Content-Type"] == "application/problem+json"
    assert json.loads(body)["code"] == "payload_too_large"


def test_chunked_body_under_the_limit_is_read_whole(live):
    body = b'{"seed": 7}' + b" " * (60 * 1024)
    status, _, body = raw_exchange(live.url, chunked_create(body))
    assert status == 201
    assert json.loads(body)["game"]["seed"] == 7


def test_unmet_expectation_is_417_problem(live):
    status, headers, body = raw_exchange(
        live.url, b"GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n"
    )
    assert status == 417
    assert headers["Content-Type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["status"] == 417 and problem["code"] == "expectation_failed"


SECRET = "s3cr3t-T0KEN-do-not-log"

# Requests gunicorn cannot parse, each carrying a secret where a client may
# put one: none of it may come back in the answer or reach the log.
MALFORMED_WITH_SECRET = {
    "header line without a colon": f"GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization Bearer {SECRET}\r\n\r\n",
    "invalid header name": f"GET /healthz HTTP/1.1\r\nHost: x\r\nAuth{SECRET}(): Bearer x\r\n\r\n",
    "invalid header value": f"GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {SECRET}\x01\r\n\r\n",
    "malformed request line": f"GET /games?token={SECRET} HTTP/1.1 extra\r\nHost: x\r\n\r\n",
    "invalid method": f"G{SECRET}T /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
    "invalid HTTP version": f"GET /games?token={SECRET} HTTP/9.{SECRET}\r\nHost: x\r\n\r\n",
    "header too long": f"GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {SECRET}{'x' * 9000}\r\n\r\n",
    "request line too long": f"GET /games?token={SECRET}&{'a' * 5000} HTTP/1.1\r\nHost: x\r\n\r\n",
    "bad chunk size": (
        f"POST /games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n{SECRET}\r\n{{}}\r\n0\r\n\r\n"
    ),
}


@pytest.mark.parametrize("request_text", MALFORMED_WITH_SECRET.values(), ids=MALFORMED_WITH_SECRET.keys())
def test_refusals_never_echo_or_log_request_text(live, request_text):
    logged_before = len(live.log())
    status, headers, body = raw_exchange(live.url, request_text.encode("latin-1"))
    assert 400 <= status < 500
    assert headers["Content-Type"] == "application/problem+json"
    assert json.loads(body)["status"] == status
    assert SECRET.encode() not in body
    assert SECRET not in live.log()[logged_before:]


def test_a_refusal_after_the_head_speaks_the_requests_language(live):
    # gunicorn read the whole head before the body's fault: its Accept-Language counts.
    status, headers, body = raw_exchange(
        live.url,
        b"POST /games HTTP/1.1\r\nHost: x\r\nAccept-Language: fr-CA, en;q=0.5\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
    )
    assert status == 400
    assert headers["Content-Type"] == "application/problem+json"
    assert headers["Content-Language"] == "fr" and headers["Vary"] == "Accept-Language"
    problem = json.loads(body)
    assert problem["code"] == "invalid_request"
    assert problem["title"] == "La requête ne respecte pas l'API"
    assert problem["detail"] == "Le corps découpé (chunked) est mal formé."


def test_a_refusal_before_the_head_was_read_is_english(live):
    # The request line is refused before any header is read: no language is known.
    status, headers, body = raw_exchange(
        live.url, f"GET /games?{'a' * 5000} HTTP/1.1\r\nHost: x\r\nAccept-Language: es\r\n\r\n".encode()
    )
    assert status == 414
    assert headers["Content-Language"] == "en"
    assert json.loads(body)["detail"] == "The request line is over 4094 bytes."
