"""Real nginx (deploy/nginx.conf) in front of two gunicorn instances on one real Redis.

Games are played to their end through nginx while one instance is killed
with SIGKILL mid-play, one of them against a bot that a real bot worker
(`patchwork-worker` on the same Redis) plays by itself: clients retry what
failed with the same Idempotency-Key and carry on through the other
instance, every acknowledged move is in the history and nothing else is but
the bot's, and a game's event stream through nginx (reconnecting with
Last-Event-ID, as EventSource does, when its instance dies) sees every move. The rate limit counts by the address
nginx saw (X-Forwarded-For with TRUSTED_PROXIES=1), whatever the client
forges; request ids, strong ETags on gzipped answers and a hidden /metrics
come through nginx as the README says, and what nginx refuses itself (not
HTTP, over its buffers, over its body limit) is problem+json like the
service's own refusals.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import random
import signal
import socket
import threading
import time
from collections import Counter

import requests

from tests.support.bot_workers import BotWorkerProcess
from tests.support.history_check import assert_acks_in_history, assert_history_replays
from tests.support.live_service import LiveService
from tests.support.nginx_server import ThrowawayNginx
from tests.support.service_client import Ack, ServiceClient, choose_move
from tests.support.sse import EventStream

BEHIND_NGINX = {"TRUSTED_PROXIES": "1"}
GAMES = 3  # between people, and one more against a bot
# What a client sees while an instance dies: nginx retries what never
# reached an instance; a move in flight on the dead one gets nginx's 503.
RETRYABLE = {502, 503, 504}


# What a client sees of an instance killed mid-answer: no connection, or an
# answer nginx had begun to relay and could not finish. Either is retried.
CUT_OFF = (requests.ConnectionError, requests.exceptions.ChunkedEncodingError)


def _upstream(service: LiveService) -> str:
    return f"127.0.0.1:{service.port}"


def _play_to_the_end(
    url: str,
    game_id: str,
    tokens: list[str | None],
    seed: int,
    acks: list[Ack],
    statuses: Counter,
    lock: threading.Lock,
) -> None:
    """Random legal moves for the people's seats until the game ends, each retried with its key
    until it is answered; a bot's seat (no token) is left to the bot worker."""
    rng = random.Random(seed)
    deadline = time.monotonic() + 150
    number = 0
    with ServiceClient(url) as client:
        while time.monotonic() < deadline:
            try:
                status, choice = choose_move(client, game_id, rng)
            except CUT_OFF:
                continue  # a read cut short by the killed instance: read again
            with lock:
                statuses[status] += 1
            if status in RETRYABLE:
                time.sleep(0.05)
                continue
            assert status == 200
            if choice is None:
                return
            token = tokens[choice.seat]
            if token is None:
                time.sleep(0.05)  # the bot's turn: its move comes by itself
                continue
            number += 1
            # A move claimed by the killed instance keeps its key in use until
            # the claim frees itself (30 s, docs/api-guide.md#idempotency).
            give_up = time.monotonic() + 45
            while time.monotonic() < give_up:
                try:
                    resp = client.move(choice, token, key=f"{game_id}-{number}")
                except CUT_OFF:
                    continue
                with lock:
                    statuses[resp.status_code] += 1
                if resp.status_code in RETRYABLE:
                    time.sleep(0.05)
                elif _key_in_use(resp):
                    time.sleep(float(resp.headers["Retry-After"]))
                else:
                    break
            assert resp.status_code == 201, resp.text
            with lock:
                acks.append(Ack.of(choice, resp))
    raise AssertionError(f"{game_id} did not end")


def _against_a_bot(client: ServiceClient, seed: int) -> tuple[str, list[str | None]]:
    """A new game of a person against a bot: (id, tokens), once a bot worker has been seen."""
    deadline = time.monotonic() + 20
    while True:
        resp = client.post(
            "/games", json={"seed": seed, "players": [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}]}
        )
        if resp.status_code != 503 or time.monotonic() > deadline:
            break
        time.sleep(float(resp.headers["Retry-After"]))  # bots_unavailable: the worker is starting
    assert resp.status_code == 201, resp.text
    created = resp.json()
    return created["game"]["id"], created["tokens"]


def _key_in_use(resp: requests.Response) -> bool:
    return resp.status_code == 409 and resp.json()["code"] == "idempotency_key_in_use"


def _every_move_event(url: str, game_id: str, deadline: float) -> list[int]:
    """The versions of the "move" events of a game's stream until its end, reconnecting after a loss."""
    versions: list[int] = []
    last_id = None
    while time.monotonic() < deadline:
        try:
            with EventStream(url, game_id, last_event_id=last_id, timeout=30) as stream:
                if stream.status == 204:
                    return versions  # lost after the final move: the game is over, we have all of it
                if stream.status != 200:
                    time.sleep(0.1)
                    continue
                while (event := stream.next()) is not None:
                    if event.id is not None:
                        last_id = event.id
                    if event.kind == "move":
                        versions.append(event.version)
                    elif event.kind == "end":
                        return versions
        except (OSError, http.client.HTTPException):
            time.sleep(0.1)
    raise AssertionError(f"the stream of {game_id} did not reach the end: {versions}")


def test_games_through_nginx_survive_an_instance_killed_mid_play(redis_url, tmp_path):
    with (
        # First: it is up (its heartbeat seen) by the time the web is.
        BotWorkerProcess(redis_url, tmp_path / "bots.log") as bots,
        LiveService(redis_url, tmp_path / "a.log", env=BEHIND_NGINX) as first,
        LiveService(redis_url, tmp_path / "b.log", env=BEHIND_NGINX) as second,
        ThrowawayNginx(tmp_path / "nginx", [_upstream(first), _upstream(second)]) as nginx,
    ):
        with ServiceClient(nginx.url) as setup:
            games: dict[str, list[str | None]] = dict(
                setup.create_game(seed) for seed in range(40, 40 + GAMES)
            )
            bot_game, bot_tokens = _against_a_bot(setup, 40 + GAMES)
            games[bot_game] = bot_tokens
        watched = sorted(games)[0]
        streamed: list[list[int]] = []
        watcher = threading.Thread(
            target=lambda: streamed.append(_every_move_event(nginx.url, watched, time.monotonic() + 120)),
            daemon=True,
        )
        watcher.start()
        acks: list[Ack] = []
        statuses: Counter = Counter()
        lock = threading.Lock()
        failures: list[BaseException] = []

        def player(n: int, game_id: str) -> None:
            try:
                _play_to_the_end(nginx.url, game_id, games[game_id], n, acks, statuses, lock)
            except BaseException as error:  # re-raised below, in the test's thread
                failures.append(error)

        players = [
            threading.Thread(target=player, args=(n, game_id), daemon=True)
            for n, game_id in enumerate(sorted(games))
        ]
        for thread in players:
            thread.start()
        deadline = time.monotonic() + 60
        while len(acks) < 15 and not failures:
            assert time.monotonic() < deadline, f"no play through nginx: {statuses}"
            time.sleep(0.02)
        assert first.process is not None
        os.killpg(first.process.pid, signal.SIGKILL)
        first.process.wait(10)
        killed_at = len(acks)
        for thread in players:
            thread.join(180)
        assert not any(thread.is_alive() for thread in players), "a player hung"
        if failures:
            raise failures[0]
        assert len(acks) > killed_at + 15, "hardly any play after the kill"
        assert set(statuses) <= {200, 201, 409} | RETRYABLE, statuses

        with ServiceClient(nginx.url) as reader:
            stored = {game_id: assert_history_replays(reader, game_id) for game_id in games}
        assert_acks_in_history(acks, stored)
        for game_id, (game, history) in stored.items():
            assert game["status"] == "finished"
            # Nothing in the history that no client was told of, but the bot's moves.
            people = [entry for entry in history if games[game_id][entry["seat"]] is not None]
            assert len(people) == sum(1 for ack in acks if ack.game_id == game_id)
        bot_seat = bot_tokens.index(None)
        assert any(entry["seat"] == bot_seat for entry in stored[bot_game][1]), bots.log()
        watcher.join(120)
        final = stored[watched][0]["version"]
        assert streamed == [list(range(2, final + 1))]
        # Both instances served through nginx before the kill.
        log = nginx.access_log()
        assert _upstream(first) in log and _upstream(second) in log


def _move_from(source: str, nginx: ThrowawayNginx, game_id: str, forged: str) -> http.client.HTTPResponse:
    """A move (with a wrong token) sent from the loopback address `source`, forging X-Forwarded-For."""
    connection = http.client.HTTPConnection("127.0.0.1", nginx.port, timeout=10, source_address=(source, 0))
    connection.request(
        "POST",
        f"/games/{game_id}/moves",
        body=b'{"action": "advance"}',
        headers={
            "Content-Type": "application/json",
            "Authorization": "Bearer wrong",
            "X-Forwarded-For": forged,
        },
    )
    resp = connection.getresponse()
    resp.read()
    connection.close()
    return resp


def test_nginx_passes_the_real_client_address_request_ids_and_strong_tags(redis_url, tmp_path):
    limit = 3
    env = {**BEHIND_NGINX, "RATE_LIMIT_MOVES": str(limit)}
    with (
        LiveService(redis_url, tmp_path / "a.log", env=env) as first,
        LiveService(redis_url, tmp_path / "b.log", env=env) as second,
        ThrowawayNginx(tmp_path / "nginx", [_upstream(first), _upstream(second)]) as nginx,
    ):
        with ServiceClient(nginx.url) as client:
            game_id, _ = client.create_game(7)
            # Each request forges another address: the limit counts the one nginx saw.
            seen = [
                _move_from("127.0.0.2", nginx, game_id, f"198.51.100.{n}").status for n in range(limit + 1)
            ]
            assert seen == [401] * limit + [429]
            assert _move_from("127.0.0.3", nginx, game_id, "127.0.0.2").status == 401

            traced = client.get(
                f"/games/{game_id}", headers={"X-Request-ID": "through-nginx-1", "Accept-Encoding": "gzip"}
            )
            assert traced.headers["X-Request-ID"] == "through-nginx-1"
            # nginx leaves the service's gzip and strong tag alone.
            assert traced.headers["Content-Encoding"] == "gzip"
            assert traced.headers["ETag"] == '"1"'
            assert json.loads(traced.content)["id"] == game_id  # requests has decompressed it
            raw = requests.get(
                f"{nginx.url}/games/{game_id}", headers={"Accept-Encoding": "gzip"}, stream=True, timeout=10
            )
            assert json.loads(gzip.decompress(raw.raw.read()))["id"] == game_id
            # A ticket in a query (issue 36) stays out of nginx's log as well: the line names the path alone.
            client.get("/players/me/events", params={"ticket": "nginx-secret-ticket"})
            generated = client.get("/healthz").headers["X-Request-ID"]
            # nginx writes the access line after the answer: give it a moment.
            deadline = time.monotonic() + 5
            while generated not in nginx.access_log() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert generated and generated in nginx.access_log()
            assert "/players/me/events" in nginx.access_log()
            assert "nginx-secret-ticket" not in nginx.access_log()

            metrics = client.get("/metrics")
            assert metrics.status_code == 404
            assert metrics.headers["Content-Type"] == "application/problem+json"
            assert metrics.json()["code"] == "not_found"


def _raw(nginx: ThrowawayNginx, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send `request` as it is and read the whole answer (nginx closes after its own refusals)."""
    with socket.create_connection(("127.0.0.1", nginx.port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, body


def test_what_nginx_refuses_itself_is_problem_json_like_the_service(redis_url, tmp_path):
    with (
        LiveService(redis_url, tmp_path / "a.log", env=BEHIND_NGINX, workers=1) as only,
        ThrowawayNginx(tmp_path / "nginx", [_upstream(only)] * 2) as nginx,  # the conf names two
    ):
        long = "a" * 9000  # over nginx's 8 KB header buffers
        cases = {
            b"NOT HTTP AT ALL\r\n\r\n": (400, "invalid_request"),
            f"GET /{long} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode(): (414, "uri_too_long"),
            f"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: {long}\r\nConnection: close\r\n\r\n".encode(): (
                431,
                "headers_too_large",
            ),
            b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 2000000\r\nConnection: close\r\n\r\n{": (413, "payload_too_large"),
        }
        for request, (status, code) in cases.items():
            got, headers, body = _raw(nginx, request)
            assert (got, headers.get("content-type")) == (status, "application/problem+json"), body[:200]
            problem = json.loads(body)
            assert (problem["status"], problem["code"]) == (status, code)
            assert problem["type"] == f"/problems/{code.replace('_', '-')}"
            assert headers.get("x-request-id")
        # An instance's own 4xx still passes through as the service wrote it.
        with ServiceClient(nginx.url) as client:
            refused = client.get("/games/no-such-game")
            assert refused.status_code == 404 and refused.json()["code"] == "game_not_found"
