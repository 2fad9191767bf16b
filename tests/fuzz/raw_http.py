"""One HTTP/1.1 request as exact bytes, on its own connection, with a bound on how long the answer may take.

An HTTP library would normalise what the hostile-input fuzzing needs to send
as is: any method token, percent-encoding junk and raw bytes in the path,
header values of any byte, a body that does not match its Content-Type.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RawRequest:
    method: str
    target: bytes  # path and query, as sent on the request line
    headers: list[tuple[str, bytes]] = field(default_factory=list)
    body: bytes = b""

    def encode(self) -> bytes:
        lines = [
            self.method.encode("ascii") + b" " + self.target + b" HTTP/1.1",
            b"Host: fuzz.test",
            b"Connection: close",
            b"Content-Length: " + str(len(self.body)).encode(),
        ]
        lines += [name.encode("ascii") + b": " + value for name, value in self.headers]
        return b"\r\n".join(lines) + b"\r\n\r\n" + self.body

    def __repr__(self) -> str:  # what hypothesis prints for a falsifying example: the bytes to replay
        return f"RawRequest({self.encode()[:2000]!r})"


@dataclass(frozen=True)
class RawResponse:
    status: int
    headers: dict[str, str]  # lower-case names; a repeated header keeps its last value
    body: bytes


class NoAnswer(AssertionError):
    """The service closed the connection without an answer, or took longer than the bound."""


def send(host: str, port: int, request: RawRequest, timeout: float) -> RawResponse:
    """Send `request` and read the whole answer (the request asks to close the connection after it)."""
    with socket.create_connection((host, port), timeout=timeout) as conn:
        conn.settimeout(timeout)
        try:
            conn.sendall(request.encode())
        except (BrokenPipeError, ConnectionResetError):
            pass  # the service may answer (413) and close before reading a whole body
        chunks = []
        try:
            while chunk := conn.recv(65536):
                chunks.append(chunk)
        except TimeoutError:
            raise NoAnswer(f"no complete answer within {timeout} s; got {b''.join(chunks)[:300]!r}") from None
        except ConnectionResetError:
            if not chunks:
                raise NoAnswer("connection reset without an answer") from None
    return parse_response(b"".join(chunks), head_only=request.method == "HEAD")


def parse_response(data: bytes, head_only: bool) -> RawResponse:
    head, separator, rest = data.partition(b"\r\n\r\n")
    if not separator:
        raise NoAnswer(f"no complete response head: {data[:300]!r}")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    version, status, *_ = status_line.split(" ", 2)
    assert version.startswith("HTTP/1."), status_line
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if head_only or "content-length" not in headers:
        body = b"" if head_only else rest
    else:
        length = int(headers["content-length"])
        if len(rest) < length:
            raise NoAnswer(f"body cut short: {len(rest)} of {length} bytes")
        body = rest[:length]
    return RawResponse(int(status), headers, body)
