"""A burst of HTTP requests sent at once, each on its own connection, each answer timed.

Hundreds of concurrent requests from threads would take the test's CPU (and
the 2-core machine's) away from the service under test, and a thread pool
would send them in waves. Here one selector loop connects every socket,
sends each request as soon as its connection is up, and reads each answer
to the end (`Connection: close`: the server ends it by closing); no HTTP
library sits in the way.
"""

from __future__ import annotations

import selectors
import socket
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit


@dataclass
class Answer:
    """One request's answer: its status, headers (lower-case names), body and seconds from connecting to its end."""

    path: str
    status: int = 0  # 0: no answer (the connection failed or closed before a status line)
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    seconds: float = 0.0
    error: str = ""


@dataclass
class _Exchange:
    answer: Answer
    sock: socket.socket
    request: bytes
    started: float
    received: bytearray = field(default_factory=bytearray)


def _parse(exchange: _Exchange) -> None:
    head, _, body = bytes(exchange.received).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        exchange.answer.error = exchange.answer.error or "no status line"
        return
    exchange.answer.status = int(parts[1])
    for line in lines[1:]:
        name, _, value = line.partition(":")
        exchange.answer.headers[name.strip().lower()] = value.strip()
    exchange.answer.body = body


def burst(
    url: str, paths: list[str], *, headers: dict[str, str] | None = None, timeout: float = 30.0
) -> list[Answer]:
    """GET each of `paths` on its own new connection, all at once; the answers in the order of `paths`."""
    parts = urlsplit(url)
    address = (parts.hostname, parts.port)
    extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    selector = selectors.DefaultSelector()
    exchanges = []
    for path in paths:
        sock = socket.socket()
        sock.setblocking(False)
        request = f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n{extra}\r\n"
        exchange = _Exchange(Answer(path), sock, request.encode(), time.monotonic())
        sock.connect_ex(address)
        selector.register(sock, selectors.EVENT_WRITE, exchange)
        exchanges.append(exchange)
    deadline = time.monotonic() + timeout
    pending = len(exchanges)
    try:
        while pending and time.monotonic() < deadline:
            for key, events in selector.select(timeout=0.5):
                exchange = key.data
                if events & selectors.EVENT_WRITE:
                    try:
                        exchange.sock.sendall(exchange.request)  # small: fits the send buffer at once
                    except OSError as error:
                        exchange.answer.error = f"send: {error}"
                        pending -= _finish(selector, exchange)
                        continue
                    selector.modify(exchange.sock, selectors.EVENT_READ, exchange)
                    continue
                try:
                    chunk = exchange.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError as error:
                    exchange.answer.error = f"recv: {error}"
                    chunk = b""
                if chunk:
                    exchange.received += chunk
                else:
                    pending -= _finish(selector, exchange)
    finally:
        for exchange in exchanges:
            if exchange.answer.seconds == 0.0:
                exchange.answer.error = exchange.answer.error or f"no answer within {timeout} s"
                _finish(selector, exchange)
        selector.close()
    return [exchange.answer for exchange in exchanges]


def _finish(selector: selectors.BaseSelector, exchange: _Exchange) -> int:
    exchange.answer.seconds = time.monotonic() - exchange.started
    selector.unregister(exchange.sock)
    exchange.sock.close()
    _parse(exchange)
    return 1
