"""Live updates across real gunicorn instances: GET /games/{id}/events.

Moves made on one instance reach streams opened on another, in version
order, each event's data valid against openapi.yaml; resuming with
Last-Event-ID (header or query) gives exactly the missed events; Redis
stopped and restarted, or an instance killed, with streams open: clients
that reconnect miss nothing; hundreds of idle streams leave moves and reads
answered; idle streams get keep-alives; a stopping worker ends its streams.
A client that closes its connection ends its stream at once (not at the
keep-alive), one address holds at most STREAMS_PER_CLIENT streams on an
instance, and opening and closing streams fast never fills a worker.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import requests

from tests.support.bot_workers import wait_for
from tests.support.live_service import LiveService, worker_pids
from tests.support.metrics import open_streams
from tests.support.redis_cluster import ThrowawayCluster
from tests.support.service_client import ServiceClient, choose_move, wait_until_ready
from tests.support.sse import Event, EventStream, open_when_ready

SHORT_KEEPALIVE = {"EVENTS_KEEPALIVE_SECONDS": "0.3"}
CLUSTER = {"REDIS_CLUSTER": "1"}


def play(
    client: ServiceClient, game_id: str, tokens: list[str], rng: random.Random, moves: int | None = None
) -> list[int]:
    """Play random legal moves (all of the game when `moves` is None); the versions they made."""
    versions = []
    while moves is None or len(versions) < moves:
        _, choice = choose_move(client, game_id, rng)
        if choice is None:
            break
        resp = client.move(choice, tokens[choice.seat])
        assert resp.status_code == 201, resp.text
        versions.append(int(resp.headers["ETag"].strip('"')))
    return versions


def assert_moves_match_history(events: list[Event], history: list[dict]) -> None:
    """Each move event is the history's move of its number, with the game after it."""
    for event in events:
        data = event.json()
        assert data["move"] == history[data["move"]["number"] - 1]
        assert data["game"]["version"] == event.version == data["move"]["number"] + 1


def test_a_whole_game_made_on_one_instance_streams_from_the_other(redis_url, tmp_path):
    with (
        LiveService(redis_url, tmp_path / "a.log") as a,
        LiveService(redis_url, tmp_path / "b.log") as b,
        ServiceClient(a.url) as client,
    ):
        game_id, tokens = client.create_game(11)
        with EventStream(b.url, game_id) as stream:
            assert stream.response.getheader("Content-Type") == "text/event-stream; charset=utf-8"
            assert stream.response.getheader("Cache-Control") == "no-cache"
            assert stream.response.getheader("X-Accel-Buffering") == "no"
            opening = stream.next(skip_comments=False)
            assert opening.retry is not None and opening.kind is None
            snapshot = stream.next()
            assert (snapshot.kind, snapshot.version) == ("game", 1)
            versions = play(client, game_id, tokens, random.Random(3))
            events = stream.rest()
            assert stream.ended
        moves, end = events[:-1], events[-1]
        assert [e.kind for e in moves] == ["move"] * len(versions)
        assert [e.version for e in moves] == versions == list(range(2, len(versions) + 2))
        assert end.kind == "end" and end.json() == moves[-1].json()["game"]["result"]
        assert_moves_match_history(moves, client.history(game_id))


def test_resume_gives_exactly_the_missed_events_on_either_instance(redis_url, tmp_path):
    with (
        LiveService(redis_url, tmp_path / "a.log") as a,
        LiveService(redis_url, tmp_path / "b.log") as b,
        ServiceClient(a.url) as client,
    ):
        game_id, tokens = client.create_game(12)
        rng = random.Random(5)
        with EventStream(a.url, game_id) as stream:
            stream.take(1)
            play(client, game_id, tokens, rng, 3)
            seen = stream.take(3)
        k = seen[-1].version
        assert k == 4
        missed = play(client, game_id, tokens, rng, 4)
        for resume in ({"last_event_id": str(k)}, {"query": f"?last_event_id={k}"}):
            with EventStream(b.url, game_id, **resume) as stream:
                events = stream.take(len(missed))
                assert [e.kind for e in events] == ["move"] * len(missed)
                assert [e.version for e in events] == missed
                # Nothing more: no duplicate, no snapshot; the next move comes next.
                later = play(client, game_id, tokens, rng, 1)
                assert [e.version for e in stream.take(1)] == later
                missed += later  # what a client still at k has missed by now
                assert_moves_match_history(events, client.history(game_id))


def test_streams_closed_by_a_redis_restart_resume_without_a_gap(durable_redis, tmp_path):
    url = durable_redis.url
    with (
        LiveService(url, tmp_path / "a.log") as a,
        LiveService(url, tmp_path / "b.log") as b,
        ServiceClient(a.url) as client,
    ):
        game_id, tokens = client.create_game(13)
        rng = random.Random(8)
        streams = [EventStream(service.url, game_id) for service in (a, b)]
        play(client, game_id, tokens, rng, 2)
        last = [stream.take(3)[-1].version for stream in streams]
        assert last == [3, 3]
        durable_redis.stop()
        for stream in streams:
            # The open stream is closed by the service (within the listener's
            # ping interval and a read's timeout), not left hanging.
            assert stream.rest() == [] and stream.ended
            stream.close()
        durable_redis.start()
        wait_until_ready(a.url)
        made = play(client, game_id, tokens, rng, 3)
        for service in (a, b):
            with open_when_ready(service.url, game_id, last_event_id="3") as stream:
                assert [e.version for e in stream.take(len(made))] == made
                # And the stream is live again: the next move arrives.
                later = play(client, game_id, tokens, rng, 1)
                assert [e.version for e in stream.take(1)] == later
                made = made + later


def test_a_killed_instance_s_clients_resume_on_the_other(redis_url, tmp_path):
    with (
        LiveService(redis_url, tmp_path / "a.log") as a,
        LiveService(redis_url, tmp_path / "b.log") as b,
        ServiceClient(b.url) as client,
    ):
        game_id, tokens = client.create_game(14)
        rng = random.Random(9)
        with EventStream(a.url, game_id) as stream:
            play(client, game_id, tokens, rng, 2)
            last = stream.take(3)[-1].version
            os.killpg(a.process.pid, signal.SIGKILL)
            a.process.wait(10)
            made = play(client, game_id, tokens, rng, 3)
            try:
                leftover = stream.rest()
            except (OSError, http.client.HTTPException):
                leftover = []  # cut off mid-response: what a killed process leaves
            assert leftover == []
        with open_when_ready(b.url, game_id, last_event_id=str(last)) as stream:
            assert [e.version for e in stream.take(3)] == made


def test_keep_alives_while_idle(redis_url, tmp_path):
    with LiveService(redis_url, tmp_path / "a.log", env=SHORT_KEEPALIVE) as a, ServiceClient(a.url) as client:
        game_id, _ = client.create_game(15)
        with EventStream(a.url, game_id) as stream:
            stream.take(1)
            blocks = [stream.next(skip_comments=False) for _ in range(3)]
        assert all(block.kind is None and block.comments == ["keep-alive"] for block in blocks)


def test_a_stopping_service_ends_its_streams_at_once(redis_url, tmp_path):
    with LiveService(redis_url, tmp_path / "a.log") as a:
        with ServiceClient(a.url) as client:  # closed: an idle keep-alive would hold a worker 5 s
            game_id, _ = client.create_game(16)
        streams = [EventStream(a.url, game_id) for _ in range(4)]
        for stream in streams:
            stream.take(1)
        started = time.monotonic()
        os.killpg(a.process.pid, signal.SIGTERM)
        for stream in streams:
            assert stream.rest() == [] and stream.ended  # a clean end of the response
            stream.close()
        try:
            a.process.wait(10)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running 10 s after SIGTERM\n{a.log()}") from None
        # Well inside gunicorn's graceful_timeout (10 s), which open streams used to take whole.
        assert time.monotonic() - started < 6


IDLE_STREAMS = 300


def test_hundreds_of_idle_streams_leave_moves_and_reads_answered(redis_url, tmp_path):
    # All from one address: the per-client stream limit is lifted above them.
    env = {"STREAMS_PER_CLIENT": str(IDLE_STREAMS + 1)}
    with LiveService(redis_url, tmp_path / "a.log", env=env) as a, ServiceClient(a.url) as client:
        game_ids = [client.create_game(seed)[0] for seed in range(20)]
        with ThreadPoolExecutor(32) as pool:
            idle = list(pool.map(lambda n: EventStream(a.url, game_ids[n % 20]), range(IDLE_STREAMS)))
        try:
            assert all(stream.status == 200 for stream in idle)
            game_id, tokens = client.create_game(99)
            rng = random.Random(1)
            with EventStream(a.url, game_id) as watcher:
                watcher.take(1)
                for _ in range(10):
                    started = time.monotonic()
                    made = play(client, game_id, tokens, rng, 1)
                    assert client.get(f"/games/{game_id}").status_code == 200
                    assert client.get(f"/games/{game_id}/moves").status_code == 200
                    assert [e.version for e in watcher.take(1)] == made
                    assert time.monotonic() - started < 2, "a move, two reads and its event within 2 s"
        finally:
            for stream in idle:
                stream.close()


def test_on_a_cluster_games_on_every_master_stream_across_instances(tmp_path):
    """Several games (spread over the masters by their ids) played on A, watched on B; then resumed."""
    with (
        ThrowawayCluster(tmp_path / "cluster") as cluster,
        LiveService(cluster.url, tmp_path / "a.log", env=CLUSTER) as a,
        LiveService(cluster.url, tmp_path / "b.log", env=CLUSTER) as b,
        ServiceClient(a.url) as client,
    ):
        wait_until_ready(a.url)
        wait_until_ready(b.url)
        games = dict(
            client.create_game(seed) for seed in range(400, 409)
        )  # all on one master: 3 * (1/3)**9, 1 in 6,561
        streams = {game_id: EventStream(b.url, game_id) for game_id in games}
        made = {}
        for n, (game_id, tokens) in enumerate(games.items()):
            streams[game_id].take(1)
            made[game_id] = play(client, game_id, tokens, random.Random(n), 4)
        for game_id, stream in streams.items():
            assert [e.version for e in stream.take(4)] == made[game_id]
            stream.close()
        for game_id, tokens in games.items():
            more = play(client, game_id, tokens, random.Random(7), 2)
            with EventStream(b.url, game_id, last_event_id=str(made[game_id][-1])) as stream:
                events = stream.take(2)
            assert [e.version for e in events] == more
            assert_moves_match_history(events, client.history(game_id))
        masters = set()
        for node in cluster.nodes:
            with node.client() as redis:
                if any(redis.scan_iter("patchwork:*:events")):
                    masters.add(node.port)
        assert len(masters) > 1, "every game's stream on one master: the test shows less than it says"


# Far longer than any wait below: a stream that ends within them was ended
# because its client left, never by a failed keep-alive write.
LONG_KEEPALIVE = {"EVENTS_KEEPALIVE_SECONDS": "60"}
# Well past the instant of a close, well short of LONG_KEEPALIVE.
NOTICED_WITHIN = 3.0


def open_raw_stream(url: str, game_id: str, extra: bytes = b"") -> socket.socket:
    """A stream opened on a bare socket, read up to its first event; `extra` sent after the request."""
    address = urlsplit(url)
    sock = socket.create_connection((address.hostname, address.port), timeout=10)
    sock.sendall(f"GET /games/{game_id}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode() + extra)
    received = b""
    while b"event: game" not in received:
        chunk = sock.recv(4096)
        assert chunk, f"closed before the first event: {received!r}"
        received += chunk
    assert received.startswith(b"HTTP/1.1 200"), received
    return sock


def test_a_stream_whose_client_closed_ends_at_once_not_at_its_keep_alive(redis_url, tmp_path):
    with LiveService(redis_url, tmp_path / "a.log", env=LONG_KEEPALIVE) as a, ServiceClient(a.url) as client:
        game_id, tokens = client.create_game(17)
        left = open_raw_stream(a.url, game_id)
        # Bytes after the request (HTTP/1.1 pipelining) keep the socket readable: the close behind them still counts.
        pipelined = open_raw_stream(a.url, game_id, extra=b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        with EventStream(a.url, game_id) as staying:
            staying.take(1)
            wait_for(lambda: open_streams(a.url) == 3, 10, "three streams not counted")
            left.close()
            wait_for(lambda: open_streams(a.url) == 2, NOTICED_WITHIN, "a closed client's stream still open")
            pipelined.shutdown(socket.SHUT_RDWR)
            pipelined.close()
            wait_for(
                lambda: open_streams(a.url) == 1, NOTICED_WITHIN, "a pipelining client's stream still open"
            )
            # The client that stayed is served on.
            made = play(client, game_id, tokens, random.Random(17), 1)
            assert [e.version for e in staying.take(1)] == made
            assert open_streams(a.url) == 1


def streams_on_one_worker(
    service: LiveService, running: int, stopped: int, game_id: str, count: int, headers: dict[str, str]
) -> list[EventStream]:
    """`count` streams that worker `running` accepted: each opened while `stopped` is held with SIGSTOP."""
    streams = []
    os.kill(stopped, signal.SIGSTOP)
    try:
        for _ in range(count):
            streams.append(EventStream(service.url, game_id, headers=headers))
    finally:
        os.kill(stopped, signal.SIGCONT)
    assert [stream.status for stream in streams] == [200] * count
    return streams


def test_one_address_holds_at_most_streams_per_client_on_the_instance(redis_url, tmp_path):
    env = {**LONG_KEEPALIVE, "TRUSTED_PROXIES": "1"}
    with LiveService(redis_url, tmp_path / "a.log", workers=2, env=env) as a, ServiceClient(a.url) as client:
        first, second = wait_for(
            lambda: len(found := worker_pids(a)) == 2 and sorted(found), 10, "no two workers"
        )
        game_id, _ = client.create_game(19)
        mine = {"X-Forwarded-For": "203.0.113.7"}
        # Half on each worker: the limit is the instance's, whichever worker the kernel hands a connection.
        held = streams_on_one_worker(a, first, second, game_id, 16, mine)
        try:
            held += streams_on_one_worker(a, second, first, game_id, 16, mine)
            for _ in range(4):  # on either worker
                refused = EventStream(a.url, game_id, headers=mine)
                assert refused.status == 429
                assert refused.response.getheader("Content-Type") == "application/problem+json"
                assert int(refused.response.getheader("Retry-After")) > 0
                assert json.loads(refused.response.read())["code"] == "rate_limited"
                refused.close()
            with EventStream(a.url, game_id, headers={"X-Forwarded-For": "203.0.113.8"}) as other:
                assert other.status == 200 and other.take(1)[0].kind == "game"
            # One of the 32 closes: its place is free again as soon as the service sees it gone.
            held.pop().close()

            def admitted() -> bool:
                stream = EventStream(a.url, game_id, headers=mine)
                if stream.status == 200:
                    held.append(stream)
                    return True
                stream.close()
                return False

            wait_for(admitted, NOTICED_WITHIN, "a freed place not given to the next stream", every=0.2)
            # A worker killed with its streams open leaves none of them counted.
            os.kill(first, signal.SIGKILL)
            wait_for(lambda: len(worker_pids(a) - {first}) == 2, 20, "the killed worker not replaced")

            def room_again() -> bool:
                stream = EventStream(a.url, game_id, headers=mine)
                held.append(stream)
                return stream.status == 200

            wait_for(room_again, 10, "the killed worker's streams still counted", every=0.2)
        finally:
            for stream in held:
                stream.close()


def test_opening_and_closing_streams_quickly_never_fills_the_worker(redis_url, tmp_path):
    """The attack: one address opens a stream and closes it, again and again, holding one socket at
    a time. Each closed stream used to hold a connection until its keep-alive write failed, so a
    few of them filled WORKER_CONNECTIONS and the service stopped answering, /healthz included."""
    env = {**LONG_KEEPALIVE, "WORKER_CONNECTIONS": "20"}
    with LiveService(redis_url, tmp_path / "a.log", workers=1, env=env) as a:
        with ServiceClient(a.url) as client:  # closed: its kept-alive connection would take a place
            game_id, _ = client.create_game(20)
        for n in range(200):
            try:
                open_raw_stream(a.url, game_id).close()
            except TimeoutError:
                raise AssertionError(f"stream {n + 1} not answered: the worker is full") from None
            if n % 20 == 19:
                assert requests.get(f"{a.url}/healthz", timeout=5).status_code == 200
        wait_for(lambda: open_streams(a.url) == 0, NOTICED_WITHIN, "closed streams still open")
