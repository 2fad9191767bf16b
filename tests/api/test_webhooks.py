"""Players' webhooks (issue 41): made, listed and removed; every event delivered, signed, retried, disabled.

A real HTTP receiver on 127.0.0.1 (tests/support/webhook_receiver.py) takes
the deliveries, which a sender (botworker/webhook_sender.py) sends from a
thread of the test, on a single Redis and on a Cluster. Loopback is allowed
by WEBHOOK_ALLOW_PRIVATE and WEBHOOK_ALLOW_HTTP, as a test setting; the
address guard's refusals are tested with them off, and connect nowhere.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from standardwebhooks import Webhook as Verifier

from service.botworker.webhook_sender import SenderSettings, WebhookSender
from service.site.webhook_addresses import AddressGuard
from service.site.webhooks import WEBHOOK_EVENTS
from service.storage import storage_from_settings
from tests.api.conftest import client_with
from tests.support.webhook_receiver import WebhookReceiver

ADVANCE = {"data": json.dumps({"action": "advance"}), "content_type": "application/json"}
LOOPBACK = {"webhook_allow_http": True, "webhook_allow_private": True}
ALL_EVENTS = list(WEBHOOK_EVENTS)


def _player(client, name):
    body = client.post("/players", json={"name": name}).get_json()
    return body["player"], body["token"]


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _hook(client, token, url, events=ALL_EVENTS):
    resp = client.post("/players/me/webhooks", json={"url": url, "events": events}, headers=_bearer(token))
    assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    return body["webhook"], body["secret"]


def _game_between(client, first_token, second_token):
    resp = client.post(
        "/games", json={"players": [{"name": "x"}, {"open": True}]}, headers=_bearer(first_token)
    )
    gid = resp.get_json()["game"]["id"]
    assert client.post(f"/games/{gid}/join", headers=_bearer(second_token)).status_code == 201
    return gid


@contextmanager
def sender(backend, **settings) -> Iterator[WebhookSender]:
    """A webhook sender on `backend`, running in a thread until the block ends."""
    storage = storage_from_settings(backend.settings(), needed_by="the test's sender")
    running = WebhookSender(
        storage.webhooks,
        AddressGuard(allow_http=True, allow_private=settings.pop("allow_private", True)),
        SenderSettings(**settings),
        storage.games.now_ms,
    )
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    try:
        yield running
    finally:
        running.stop()
        thread.join(15)
        storage.close()


def _first_attempts(client, token, hook_id, within_s=5.0):
    """The webhook's delivery log once it has an attempt (the sender writes it after the answer)."""
    deadline = time.monotonic() + within_s
    while True:
        log = client.get(f"/players/me/webhooks/{hook_id}/deliveries", headers=_bearer(token)).get_json()
        if log["deliveries"] or time.monotonic() > deadline:
            return log["deliveries"]
        time.sleep(0.05)


def _verified(received, secret):
    """The body of a delivery whose signature the Standard Webhooks library verifies."""
    return Verifier(secret).verify(received.body, received.headers)


def test_webhooks_are_made_listed_capped_and_removed(backend, contract):
    with client_with(backend, contract, **LOOPBACK, webhooks_per_player=2) as client:
        _ann, ann = _player(client, "Ann")
        _bob, bob = _player(client, "Bob")
        first, secret = _hook(client, ann, "http://127.0.0.1:9/a", ["your_turn"])
        assert secret.startswith("whsec_") and len(Verifier(secret)._whsecret) == 24
        assert first["events"] == ["your_turn"] and first["disabled_at"] is None
        second, _ = _hook(client, ann, "http://127.0.0.1:9/b", ["game_end", "game_start"])
        assert second["events"] == ["game_start", "game_end"]
        third = client.post(
            "/players/me/webhooks",
            json={"url": "http://127.0.0.1:9/c", "events": ["low_time"]},
            headers=_bearer(ann),
        )
        assert third.status_code == 409 and third.get_json()["code"] == "too_many_webhooks"
        listed = client.get("/players/me/webhooks", headers=_bearer(ann)).get_json()["webhooks"]
        assert [hook["id"] for hook in listed] == [first["id"], second["id"]]
        assert "secret" not in json.dumps(listed)
        assert client.get("/players/me/webhooks", headers=_bearer(bob)).get_json() == {"webhooks": []}
        # Another player's webhook is not yours to read or remove.
        gone = client.delete(f"/players/me/webhooks/{first['id']}", headers=_bearer(bob))
        assert gone.status_code == 404 and gone.get_json()["code"] == "webhook_not_found"
        log = client.get(f"/players/me/webhooks/{first['id']}/deliveries", headers=_bearer(ann))
        assert log.status_code == 200 and log.get_json() == {"deliveries": []}
        assert client.delete(f"/players/me/webhooks/{first['id']}", headers=_bearer(ann)).status_code == 204
        assert client.delete(f"/players/me/webhooks/{first['id']}", headers=_bearer(ann)).status_code == 404
        assert (
            client.get("/players/me/webhooks/nonsense}/deliveries", headers=_bearer(ann)).status_code == 404
        )
        assert client.get("/players/me/webhooks").get_json()["code"] == "missing_token"
        unknown = client.post(
            "/players/me/webhooks",
            json={"url": "http://127.0.0.1:9/", "events": ["moves"]},
            headers=_bearer(ann),
        )
        assert unknown.status_code == 400


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/hook",  # not https
        "https://127.0.0.1/hook",  # loopback
        "https://10.1.2.3/hook",  # private
        "https://192.168.0.1/hook",
        "https://169.254.169.254/latest",  # link-local (a cloud's metadata service)
        "https://[::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",  # IPv4-mapped IPv6
        "https://[fe80::1]/hook",
        "https://0.0.0.0/hook",
        "https://224.0.0.1/hook",  # multicast
        "https://localhost/hook",  # a name that resolves to loopback
        "https://user:pw@example.com/hook",
        "ftp://example.com/hook",
    ],
)
def test_the_address_guard_refuses_what_is_not_a_public_https_url(backend, contract, url):
    with client_with(backend, contract) as client:
        _ann, ann = _player(client, "Ann")
        resp = client.post(
            "/players/me/webhooks", json={"url": url, "events": ["your_turn"]}, headers=_bearer(ann)
        )
        assert resp.status_code == 422, resp.get_json()
        assert resp.get_json()["code"] == "webhook_url_refused"


def test_every_event_is_delivered_signed_with_a_stable_id(backend, contract):
    with WebhookReceiver() as receiver, client_with(backend, contract, **LOOPBACK) as client:
        _ann, ann = _player(client, "Ann")
        bob_player, bob = _player(client, "Bob")
        _ann_hook, ann_secret = _hook(client, ann, receiver.url("/ok?ann"))
        _bob_hook, bob_secret = _hook(client, bob, receiver.url("/ok?bob"))
        with sender(backend):
            gid = _game_between(client, ann, bob)  # game_start to both
            assert client.post(f"/games/{gid}/moves", headers=_bearer(ann), **ADVANCE).status_code == 201
            assert client.post(f"/games/{gid}/resign", headers=_bearer(bob)).status_code == 201
            assert client.post(f"/games/{gid}/rematch", headers=_bearer(ann)).status_code == 202
            challenge = client.post("/challenges", json={"to": bob_player["id"]}, headers=_bearer(ann))
            assert challenge.status_code == 201, challenge.get_json()
            bobs = receiver.wait_for(5, "/ok?bob")
            anns = receiver.wait_for(2, "/ok?ann")
        types: dict[str, list[str]] = {}
        for got, secret in [(r, bob_secret) for r in bobs] + [(r, ann_secret) for r in anns]:
            body = _verified(got, secret)
            types.setdefault(got.path, []).append(body["type"])
            assert got.headers["webhook-id"].startswith("msg_")
            if body["type"] != "challenge":
                assert body["data"]["game"] in (gid, body["data"].get("game"))
        assert sorted(types["/ok?bob"]) == [
            "challenge",
            "game_end",
            "game_start",
            "rematch_offer",
            "your_turn",
        ]
        assert {"game_start", "game_end"} <= set(types["/ok?ann"])
        log = client.get(
            f"/players/me/webhooks/{_bob_hook['id']}/deliveries", headers=_bearer(bob)
        ).get_json()
        assert {entry["status"] for entry in log["deliveries"]} == {"delivered"}
        assert all(entry["attempt"] == 1 and entry["code"] == 200 for entry in log["deliveries"])


def test_failures_are_retried_on_schedule_with_one_id_then_the_webhook_disabled_and_the_player_told(
    backend, contract
):
    with WebhookReceiver() as receiver, client_with(backend, contract, **LOOPBACK) as client:
        _ann, ann = _player(client, "Ann")
        _bob, bob = _player(client, "Bob")
        hook, secret = _hook(client, bob, receiver.url("/fail"), ["game_start"])
        with sender(backend, retry_schedule_s=(0.3, 0.6, 1.5, 3.0), disable_after_s=1.1):
            _game_between(client, ann, bob)
            attempts = receiver.wait_for(4, "/fail")
            time.sleep(0.5)
        assert len(receiver.received) == 4  # disabled at the fourth: nothing more
        assert len({got.headers["webhook-id"] for got in attempts}) == 1
        assert all(_verified(got, secret)["type"] == "game_start" for got in attempts)
        offsets = [got.at - attempts[0].at for got in attempts]
        # Each retry at its offset from the first attempt; the fourth fails 1.5 s after the first
        # failure, past the 1.1 s that disable a webhook: no fifth.
        for offset, planned in zip(offsets[1:], (0.3, 0.6, 1.5)):
            assert planned - 0.05 <= offset <= planned + 0.3, offsets
        listed = client.get("/players/me/webhooks", headers=_bearer(bob)).get_json()["webhooks"]
        assert listed[0]["disabled_at"] is not None and listed[0]["failing_since"] is not None
        log = client.get(f"/players/me/webhooks/{hook['id']}/deliveries", headers=_bearer(bob)).get_json()
        assert [entry["attempt"] for entry in log["deliveries"]] == [4, 3, 2, 1]
        assert {(entry["status"], entry["code"]) for entry in log["deliveries"]} == {("failed", 500)}
        told = [event for event in _stream_of(backend, bob) if event.kind == "webhook_disabled"]
        assert [json.loads(event.data) for event in told] == [{"webhook": hook["id"], "url": hook["url"]}]


def _stream_of(backend, token):
    """The events kept on the player's stream (what GET /players/me/events sends from its start)."""
    storage = storage_from_settings(backend.settings(), needed_by="the test")
    try:
        return storage.players.events_after(token.partition(".")[0], None, 100)
    finally:
        storage.close()


def test_a_hanging_endpoint_delays_no_move_and_no_other_players_delivery(backend, contract):
    with (
        WebhookReceiver(hang_s=3.0) as hanging,
        WebhookReceiver() as quick,
        client_with(backend, contract, **LOOPBACK) as client,
    ):
        _ann, ann = _player(client, "Ann")
        _bob, bob = _player(client, "Bob")
        for _ in range(3):
            _hook(client, ann, hanging.url("/hang"))
        _hook(client, bob, quick.url("/ok"))
        with sender(backend, timeout_s=1.0, per_url=1):
            gid = _game_between(client, ann, bob)
            hanging.wait_for(1, "/hang")
            started = time.monotonic()
            for _ in range(4):
                seat = ann if client.get(f"/games/{gid}").get_json()["turn"] == 0 else bob
                assert client.post(f"/games/{gid}/moves", headers=_bearer(seat), **ADVANCE).status_code == 201
            moves_took = time.monotonic() - started
            # Bob's game_start and turns arrive while Ann's endpoint hangs.
            oks = quick.wait_for(3, "/ok", timeout=2.0)
            hanging.wait_for(2, "/hang", timeout=5.0)
        assert moves_took < 1.0, moves_took
        assert oks[2].at - started < 2.0
        # One at a time to the hanging URL (per_url=1), whatever Ann's three webhooks asked.
        hangs = [got.at for got in hanging.received]
        assert len(hangs) >= 2
        assert all(b - a >= 0.9 for a, b in itertools.pairwise(hangs)), hangs


def test_a_redirect_is_a_failed_attempt_and_not_followed(backend, contract):
    with WebhookReceiver() as receiver, client_with(backend, contract, **LOOPBACK) as client:
        _ann, ann = _player(client, "Ann")
        _bob, bob = _player(client, "Bob")
        hook, _ = _hook(client, bob, receiver.url("/redirect"), ["game_start"])
        with sender(backend, retry_schedule_s=(30.0,)):
            _game_between(client, ann, bob)
            receiver.wait_for(1, "/redirect")
            log = _first_attempts(client, bob, hook["id"])
        assert [got.path for got in receiver.received] == ["/redirect"]
        assert log[0]["status"] == "failed" and log[0]["code"] == 302


def test_each_delivery_checks_the_address_again(backend, contract):
    """A webhook made while loopback was allowed is refused at delivery by a sender that does not allow it."""
    with WebhookReceiver() as receiver, client_with(backend, contract, **LOOPBACK) as client:
        _ann, ann = _player(client, "Ann")
        _bob, bob = _player(client, "Bob")
        hook, _ = _hook(client, bob, f"http://localhost:{receiver.port}/ok", ["game_start"])
        with sender(backend, allow_private=False, retry_schedule_s=(30.0,)):
            _game_between(client, ann, bob)
            log = _first_attempts(client, bob, hook["id"])
        assert receiver.received == []
        assert log[0]["status"] == "failed" and log[0]["code"] is None
        assert log[0]["error"].startswith("address refused")
        assert "127.0.0.1" in log[0]["error"] or "::1" in log[0]["error"]
