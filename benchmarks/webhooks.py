"""Webhooks (issue 41): what a notice costs a player without webhooks, and how fast one sender delivers.

Starts a Redis and, in this process, the app (its test client, loopback
webhooks allowed), a quick HTTP receiver on 127.0.0.1 and one webhook
sender (botworker/webhook_sender.py, its threads in this process). Prints:
- the notice script's Redis time per call (`INFO commandstats`, usec per
  EVALSHA) for a player with no webhook: before this change (the script
  without the lookup, from git's main) and now (one HGET of a missing key
  more), and the whole call's wall time each way;
- a move's wall time through the app for players with 0 webhooks and with
  3 failing (500) webhooks each;
- the delay from a move's request to its `your_turn` webhook's arrival
  (an upper bound of commit to arrival), p50 and p99, with the sender
  running (it, the receiver and the app share this process's GIL);
- deliveries per second one sender sends to the quick receiver (a backlog
  queued at once, WEBHOOK_CONCURRENCY 16).
Figures are printed, never asserted.

    ./dev bench webhooks [--moves 300] [--backlog 2000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

import redis

from benchmarks.tournament_round import percentile
from service.api import create_app
from service.botworker.webhook_sender import SenderSettings, WebhookSender
from service.config import Settings
from service.games.jsontext import compact
from service.site.webhook_addresses import AddressGuard
from service.storage import open_storage
from service.storage.webhooks import QueuedDelivery
from tests.support.redis_servers import ThrowawayRedis
from tests.support.webhook_receiver import WebhookReceiver


def _old_notify_script() -> str:
    """player_notify.lua as it was before webhooks (git's main)."""
    return subprocess.run(
        ["git", "show", "main:service/storage/lua/player_notify.lua"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def notice_cost(url: str, calls: int) -> None:
    storage = open_storage(url)
    raw = redis.Redis.from_url(url, decode_responses=True)
    old = raw.register_script(_old_notify_script())
    players = storage.players
    args = players.stream_args("benchplayer")
    data = compact({"game": "g" * 22, "seat": 1, "version": 12})
    key = players.key("benchplayer") + ":events"

    def run_old() -> None:
        old(keys=[key], args=["your_turn", data, *args])

    def run_unlooked() -> None:
        players.notice("benchplayer", "challenge_declined", data, ())

    def run_new() -> None:
        players.notice("benchplayer", "your_turn", data, ("your_turn",))

    runs = (
        ("before webhooks (main's script)", run_old),
        ("now, an event no webhook takes", run_unlooked),
        ("now, a webhook event, 0 webhooks", run_new),
    )
    for name, call in runs:
        for _ in range(200):
            call()
        raw.config_resetstat()
        for _ in range(calls):
            call()
        stats = raw.info("commandstats")
        usec = stats.get("cmdstat_evalsha", {}).get("usec_per_call", float("nan"))
        print(f"  the notice script in Redis, {name}: {usec:.2f} us a call")
    raw.close()
    storage.close()


def _player(client, name):
    body = client.post("/players", json={"name": name}).get_json()
    return body["token"]


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _game(client, first, second):
    gid = client.post(
        "/games", json={"players": [{"name": "x"}, {"open": True}]}, headers=_bearer(first)
    ).get_json()["game"]["id"]
    client.post(f"/games/{gid}/join", headers=_bearer(second))
    return gid


def moves(client, first, second, count: int) -> list[tuple[float, float, str]]:
    """`count` moves (each the first legal one) over as many games as it takes: (sent, answered, game id) each."""
    done: list[tuple[float, float, str]] = []
    while len(done) < count:
        gid = _game(client, first, second)
        tokens = (first, second)
        while len(done) < count:
            game = client.get(f"/games/{gid}").get_json()
            if game["status"] != "active":
                break
            move = client.get(f"/games/{gid}/legal-moves").get_json()["moves"][0]
            sent = time.perf_counter()
            resp = client.post(
                f"/games/{gid}/moves",
                data=json.dumps(move),
                content_type="application/json",
                headers=_bearer(tokens[game["turn"]]),
            )
            done.append((sent, time.perf_counter(), gid))
            assert resp.status_code == 201, resp.get_json()
    return done


def move_cost(url: str, count: int, receiver: WebhookReceiver) -> None:
    settings = Settings(redis_url=url, webhook_allow_http=True, webhook_allow_private=True)
    for label, hooks in (("0 webhooks", 0), ("3 failing webhooks each", 3)):
        app = create_app(settings)
        client = app.test_client()
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        for token in (ann, bob):
            for _ in range(hooks):
                client.post(
                    "/players/me/webhooks",
                    json={"url": receiver.url("/fail"), "events": ["your_turn", "game_start", "game_end"]},
                    headers=_bearer(token),
                )
        moves(client, ann, bob, 50)  # warm up
        timed = moves(client, ann, bob, count)
        ms = [(answered - sent) * 1000 for sent, answered, _ in timed]
        print(
            f"  a move, players with {label}: median {statistics.median(ms):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms"
        )
        app.extensions["patchwork"].store.close()


def delay(url: str, count: int, receiver: WebhookReceiver) -> None:
    settings = Settings(redis_url=url, webhook_allow_http=True, webhook_allow_private=True)
    app = create_app(settings)
    client = app.test_client()
    ann, bob = _player(client, "Ann"), _player(client, "Bob")
    for token, path in ((ann, "/ok?ann"), (bob, "/ok?bob")):
        client.post(
            "/players/me/webhooks",
            json={"url": receiver.url(path), "events": ["your_turn"]},
            headers=_bearer(token),
        )
    storage = open_storage(url)
    sender = WebhookSender(
        storage.webhooks,
        AddressGuard(allow_http=True, allow_private=True),
        SenderSettings(),
        storage.games.now_ms,
    )
    thread = threading.Thread(target=sender.run, daemon=True)
    thread.start()
    try:
        timed: list[float] = []
        while len(timed) < count:
            # One move at a time, its webhook awaited: the delay of each, unqueued behind others. A move
            # after which the same seat moves again hands nobody the turn: no webhook to wait for.
            before = len(receiver.received)
            sent = time.monotonic()
            moves(client, ann, bob, 1)
            try:
                arrived = receiver.wait_for(before + 1, timeout=0.5)[-1].at
            except AssertionError:
                continue
            timed.append((arrived - sent) * 1000)
    finally:
        sender.stop()
        thread.join(10)
        storage.close()
        app.extensions["patchwork"].store.close()
    print(
        f"  a move sent to its webhook's arrival: p50 {percentile(timed, 0.5):.1f} ms, p99 {percentile(timed, 0.99):.1f} ms"
    )


def throughput(url: str, backlog: int, receiver: WebhookReceiver) -> None:
    storage = open_storage(url)
    app = create_app(Settings(redis_url=url, webhook_allow_http=True, webhook_allow_private=True))
    client = app.test_client()
    token = _player(client, "Cy")
    hook = client.post(
        "/players/me/webhooks",
        json={"url": receiver.url("/ok?bulk"), "events": ["your_turn"]},
        headers=_bearer(token),
    ).get_json()["webhook"]
    player = token.partition(".")[0]
    payload = compact({"type": "your_turn", "timestamp": "2026-01-01T00:00:00.000Z", "data": {"game": "x"}})
    for start in range(0, backlog, 500):
        storage.webhooks.enqueue(
            [
                QueuedDelivery(
                    f"{hook['id']}/{n}-0",
                    hook["id"],
                    compact(
                        {
                            "player": player,
                            "hook": hook["id"],
                            "message": f"msg_{n}",
                            "event": "your_turn",
                            "created_ms": storage.games.now_ms(),
                            "payload": payload,
                        }
                    ),
                )
                for n in range(start, min(backlog, start + 500))
            ],
            backlog,
        )
    # Many origins' worth: the per-origin limit (2) is lifted, as for deliveries to many endpoints.
    sender = WebhookSender(
        storage.webhooks,
        AddressGuard(allow_http=True, allow_private=True),
        SenderSettings(per_url=16),
        storage.games.now_ms,
    )
    thread = threading.Thread(target=sender.run, daemon=True)
    started = time.perf_counter()
    thread.start()
    receiver.wait_for(backlog, "/ok?bulk", timeout=600)
    took = time.perf_counter() - started
    sender.stop()
    thread.join(10)
    storage.close()
    app.extensions["patchwork"].store.close()
    print(f"  one sender, {backlog} queued deliveries: {backlog / took:.0f} deliveries/s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--backlog", type=int, default=2000)
    options = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as work,
        ThrowawayRedis(Path(work)) as server,
        WebhookReceiver() as receiver,
    ):
        print("webhooks (issue 41)")
        notice_cost(server.url, 5000)
        move_cost(server.url, options.moves, receiver)
        delay(server.url, min(options.moves, 200), receiver)
        throughput(server.url, options.backlog, receiver)


if __name__ == "__main__":
    main()
