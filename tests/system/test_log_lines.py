"""gunicorn's and the app's log lines, from a real gunicorn: request ids everywhere, JSON with LOG_FORMAT=json.

The app's lines go through gunicorn's error log (service/run/gunicorn_conf.py);
the access line is written by gunicorn after the app returned; a request
gunicorn refuses itself never reaches the app. Each of them must name its
request's id, the one the client got in X-Request-ID.
"""

from __future__ import annotations

import json
import socket

import pytest
import requests

from tests.support.live_service import LiveService
from tests.support.redis_servers import ThrowawayRedis


def _refused_by_gunicorn(port: int) -> dict[str, str]:
    """Headers of the answer to a request line gunicorn cannot parse."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n")
        raw = b""
        while chunk := sock.recv(4096):
            raw += chunk
    head = raw.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    assert head[0].startswith("HTTP/1.1 400"), head
    return {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in head[1:])}


def test_json_log_lines_name_every_request_by_its_id(tmp_path):
    log_path = tmp_path / "service.log"
    with ThrowawayRedis(tmp_path / "redis") as redis:
        with LiveService(redis.url, log_path, env={"LOG_FORMAT": "json", "ACCESS_LOG": "1"}) as service:
            assert (
                requests.get(
                    f"{service.url}/games/nosuch", headers={"X-Request-ID": "log-test-1"}, timeout=10
                ).headers["X-Request-ID"]
                == "log-test-1"
            )
            refused_id = _refused_by_gunicorn(service.port)["x-request-id"]
            game_id = requests.post(f"{service.url}/games", json={}, timeout=10).json()["game"]["id"]
            redis.close()  # the store goes away: the app logs it
            gone = requests.get(f"{service.url}/readyz", headers={"X-Request-ID": "log-test-2"}, timeout=10)
            assert gone.status_code == 503
            games = requests.get(
                f"{service.url}/games/{game_id}", headers={"X-Request-ID": "log-test-3"}, timeout=10
            )
            assert games.status_code == 503
    docs = [json.loads(line) for line in log_path.read_text().splitlines() if line.strip()]
    by_id: dict[str, list[dict]] = {}
    for doc in docs:
        assert {"time", "level", "logger", "pid", "message"} <= set(doc), doc
        by_id.setdefault(doc.get("request_id", ""), []).append(doc)
    access = [d for d in by_id["log-test-1"] if d["logger"] == "gunicorn.access"]
    assert access and access[0]["status"] == 404 and access[0]["path"] == "/games/nosuch"
    assert any("Invalid request" in d["message"] for d in by_id[refused_id])
    assert any(
        d["logger"].startswith("service") and "store unavailable" in d["message"] for d in by_id["log-test-3"]
    ), by_id.get("log-test-3")
    # The arbiter's own lines are JSON too, and belong to no request.
    assert any("Booting worker" in d["message"] for d in by_id[""])


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_a_stream_ticket_never_reaches_the_access_log_and_a_refused_request_uses_it_up(tmp_path, log_format):
    """Issue 36: `?ticket=T&ticket=x` was refused (400) yet left T valid, and the access log held the URL."""
    log_path = tmp_path / "service.log"
    with ThrowawayRedis(tmp_path / "redis") as redis:
        with LiveService(redis.url, log_path, env={"LOG_FORMAT": log_format, "ACCESS_LOG": "1"}) as service:
            token = requests.post(f"{service.url}/players", json={"name": "Ann"}, timeout=10).json()["token"]
            issued = requests.post(
                f"{service.url}/players/me/stream-tickets",
                headers={"Authorization": f"Bearer {token}"},
                timeout=10,
            )
            ticket = issued.json()["ticket"]
            stream = f"{service.url}/players/me/events"
            refused = requests.get(
                stream,
                params=[("ticket", ticket), ("ticket", "x")],
                headers={"X-Request-ID": "t-1"},
                timeout=10,
            )
            assert refused.status_code == 400
            again = requests.get(
                stream, params={"ticket": ticket}, headers={"X-Request-ID": "t-2"}, timeout=10
            )
            assert again.status_code == 401 and again.json()["code"] == "invalid_token"
    text = log_path.read_text()
    assert ticket not in text and token not in text
    access_lines = [line for line in text.splitlines() if "/players/me/events" in line]
    assert len(access_lines) == 2 and all("t-1" in line or "t-2" in line for line in access_lines)
    assert all("ticket=[redacted]" in line for line in access_lines), access_lines
