"""One webhook POST over TLS (botworker/webhook_sender.post): connected to the checked address, the URL's
host named for TLS and in Host, the certificate checked against that name; no redirect followed."""

from __future__ import annotations

import http.server
import ssl
import subprocess
import threading

import pytest

from service.botworker.webhook_sender import post
from service.site.webhook_addresses import Target


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """A self-signed certificate for the name `hooks.test` (never resolved: the address is given)."""
    where = tmp_path_factory.mktemp("tls")
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-subj", "/CN=hooks.test", "-addext", "subjectAltName=DNS:hooks.test",
            "-keyout", str(where / "key.pem"), "-out", str(where / "cert.pem"),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return where / "cert.pem", where / "key.pem"


@pytest.fixture
def tls_server(certificate):
    seen: list[tuple[str, str | None, str | None]] = []
    server_names: list[str | None] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            seen.append((self.path, self.headers.get("Host"), server_names[-1] if server_names else None))
            self.send_response(302 if self.path == "/moved" else 204)
            self.send_header("Location", "/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certificate)
    # The name the client asked for in its TLS hello (SNI).
    context.sni_callback = lambda _socket, name, _context: server_names.append(name)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], seen
    server.shutdown()
    server.server_close()


def _trusting(certificate) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(certificate[0]))
    return context


def test_a_post_over_tls_goes_to_the_checked_address_under_the_urls_name(tls_server, certificate):
    port, seen = tls_server
    target = Target("https", "hooks.test", port, "/in?x=1", ("127.0.0.1",))
    outcome = post(target, {"Content-Type": "application/json"}, b"{}", 5.0, _trusting(certificate))
    assert outcome == (True, 204, None)
    assert seen == [("/in?x=1", f"hooks.test:{port}", "hooks.test")]


def test_a_certificate_for_another_name_fails_the_attempt(tls_server, certificate):
    port, _seen = tls_server
    target = Target("https", "other.test", port, "/", ("127.0.0.1",))
    outcome = post(target, {}, b"{}", 5.0, _trusting(certificate))
    assert not outcome.delivered and outcome.code is None and "CERTIFICATE" in (outcome.error or "").upper()


def test_a_redirect_is_a_failed_attempt(tls_server, certificate):
    port, seen = tls_server
    target = Target("https", "hooks.test", port, "/moved", ("127.0.0.1",))
    assert post(target, {}, b"{}", 5.0, _trusting(certificate)) == (False, 302, None)
    assert [path for path, _, _ in seen] == ["/moved"]


def test_an_address_that_refuses_is_followed_by_the_next():
    target = Target("http", "hooks.test", 9, "/", ("127.0.0.1",))
    assert post(target, {}, b"{}", 2.0) == (False, None, "connection refused")
