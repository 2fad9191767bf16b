"""Webhooks sent by the sender process that `patchwork-service` starts (issue 41), over real HTTP both ways.

One `patchwork-service` (its embedded Redis, one gunicorn worker, no bot
workers, WEBHOOK_SENDERS=1, loopback allowed as a test setting), a receiver
on 127.0.0.1: a game joined over HTTP reaches the receiver as two signed
`game_start` deliveries; the sender killed, the supervisor starts it again
and the next event is delivered too.
"""

from __future__ import annotations

import os
import signal
import time

import requests
from standardwebhooks import Webhook as Verifier

from tests.support.patchwork_service import PatchworkService, children, program
from tests.support.webhook_receiver import WebhookReceiver

ENV = {
    "BOT_WORKERS": "0",
    "TIMEKEEPERS": "0",
    "WEBHOOK_SENDERS": "1",
    "WEBHOOK_ALLOW_HTTP": "1",
    "WEBHOOK_ALLOW_PRIVATE": "1",
}


def _player(url, name):
    body = requests.post(f"{url}/players", json={"name": name}, timeout=10).json()
    return body["token"]


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _senders(service):
    assert service.process is not None
    return [pid for pid in children(service.process.pid) if "webhooks_main" in _cmdline(pid)]


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as found:
            return found.read().decode(errors="replace")
    except OSError:
        return ""


def test_the_sender_that_patchwork_service_starts_delivers_and_is_restarted(tmp_path):
    with (
        WebhookReceiver() as receiver,
        PatchworkService(tmp_path / "data", tmp_path / "service.log", env=ENV) as service,
    ):
        url = service.url
        ann, bob = _player(url, "Ann"), _player(url, "Bob")
        secrets = {}
        for token, name in ((ann, "ann"), (bob, "bob")):
            resp = requests.post(
                f"{url}/players/me/webhooks",
                json={"url": receiver.url(f"/ok?{name}"), "events": ["game_start", "your_turn"]},
                headers=_bearer(token),
                timeout=10,
            )
            assert resp.status_code == 201, resp.text
            secrets[f"/ok?{name}"] = resp.json()["secret"]
        created = requests.post(
            f"{url}/games",
            json={"players": [{"name": "x"}, {"open": True}]},
            headers=_bearer(ann),
            timeout=10,
        ).json()
        gid = created["game"]["id"]
        assert requests.post(f"{url}/games/{gid}/join", headers=_bearer(bob), timeout=10).status_code == 201
        for got in receiver.wait_for(2, timeout=20):
            body = Verifier(secrets[got.path]).verify(got.body, got.headers)
            assert body["type"] == "game_start" and body["data"]["game"] == gid
        [sender] = _senders(service)
        assert program(sender)  # a live child
        os.kill(sender, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while not [pid for pid in _senders(service) if pid != sender]:
            assert time.monotonic() < deadline, service.log()
            time.sleep(0.1)
        moved = requests.post(
            f"{url}/games/{gid}/moves", json={"action": "advance"}, headers=_bearer(ann), timeout=10
        )
        assert moved.status_code == 201, moved.text
        got = receiver.wait_for(3, timeout=20)[-1]
        assert Verifier(secrets[got.path]).verify(got.body, got.headers)["type"] == "your_turn"
