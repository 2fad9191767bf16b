"""SIGTERM to a `patchwork-service` under load: nothing in flight is lost, nothing holds it up.

Players make moves (each with an Idempotency-Key) on instance A while
streams follow their games there, and an idle client holds a kept-alive
connection to A, as a proxy's connection pool does (as the streams' clients
do with theirs once a stream has ended). A is sent SIGTERM. Every
move A had read is answered (a move sent where A no longer listens, or on a
connection A closed while it waited between requests, went unread: the
player retries it on instance B with the same key); each stream ends as a
whole response (the final chunk, not a cut) well inside gunicorn's
graceful_timeout and resumes on B with Last-Event-ID with nothing missed or
repeated; A exits 0 within a few seconds; the histories hold exactly the
acknowledged moves.
"""

from __future__ import annotations

import http.client
import os
import random
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

from tests.support.history_check import assert_acks_in_history, assert_history_replays
from tests.support.live_service import LiveService
from tests.support.patchwork_service import PatchworkService
from tests.support.service_client import Ack, Choice, ServiceClient, choose_move
from tests.support.sse import EventStream

GAMES = 4
STREAMS = 3
# Idle kept-alive connections stay open this long: as behind a proxy whose
# idle timeout to the upstream is long (README: raise KEEPALIVE_SECONDS above
# it). An idle connection must not hold a stopping worker for this long.
LONG_KEEPALIVE = {"KEEPALIVE_SECONDS": "30", "WEB_CONCURRENCY": "2", "BOT_WORKERS": "1"}
# gunicorn_conf.py's graceful_timeout is 10 s: stopping must take well under it.
PROMPTLY = 6.0


@dataclass
class Player:
    """One thread playing one game, both seats, to its end; A first, then B once A is gone."""

    game_id: str
    tokens: list[str]
    urls: list[str]
    acks: list[Ack] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)  # moves applied but never answered
    error: BaseException | None = None

    def play(self, seed: int) -> None:
        try:
            self._play(random.Random(seed))
        except BaseException as error:  # re-raised by the test's thread
            self.error = error

    def _play(self, rng: random.Random) -> None:
        clients = [ServiceClient(url) for url in self.urls]
        try:
            for number in range(1, 500):
                choice = self._choose(clients, rng)
                if choice is None:
                    return
                self.acks.append(self._move(clients, choice, f"{self.game_id}-{number}"))
        finally:
            for client in clients:
                client.close()
        raise AssertionError(f"{self.game_id} did not end")

    def _choose(self, clients: list[ServiceClient], rng: random.Random) -> Choice | None:
        while True:
            try:
                status, choice = choose_move(clients[0], self.game_id, rng)
            except requests.ConnectionError:
                clients.pop(0)  # A is gone: a read is simply made again on B
                continue
            assert status == 200, status
            return choice

    def _move(self, clients: list[ServiceClient], choice: Choice, key: str) -> Ack:
        while True:
            try:
                resp = clients[0].move(choice, self.tokens[choice.seat], key=key)
            except requests.ConnectionError:
                # No answer. This thread alone plays the game: had the move been
                # read and applied, the game would be past the version it was chosen at.
                if clients[-1].game(self.game_id)["version"] != choice.version:
                    self.unanswered.append(key)
                clients.pop(0)
                continue
            return Ack.of(choice, resp)  # asserts a 201: not even 409 idempotency_key_in_use


@dataclass
class Follower:
    """One game's stream: on A until A ends it, then resumed on B from the last event id."""

    game_id: str
    urls: list[str]
    versions: list[int] = field(default_factory=list)
    ends: list[str] = field(default_factory=list)  # how each stream ended: "clean", "game over", a cut
    ended_at: float | None = None  # when A's stream ended
    # Left open when read to their end, as a client's connection pool keeps
    # them: A must close them itself, not wait on them. The test closes them.
    streams: list[EventStream] = field(default_factory=list)
    error: BaseException | None = None

    def follow(self) -> None:
        try:
            for url in self.urls:
                if self._read(url):
                    return
            raise AssertionError(f"the stream of {self.game_id} did not reach the end on B")
        except BaseException as error:
            self.error = error

    def _read(self, url: str) -> bool:
        """Read one stream to its close; True once it showed the game's end."""
        last_id = str(self.versions[-1]) if self.versions else None
        stream = EventStream(url, self.game_id, last_event_id=last_id, timeout=30)
        self.streams.append(stream)
        if stream.status == 204:  # lost after the final move: the game is over, we have all of it
            self.ends.append("game over")
            return True
        assert stream.status == 200, stream.status
        try:
            while (event := stream.next()) is not None:
                if event.kind == "move":
                    self.versions.append(event.version)
                elif event.kind == "game":
                    assert not self.versions, "a snapshot on resuming: events were lost"
                    self.versions.append(event.version)
                elif event.kind == "end":
                    self.ends.append("game over")
                    return True
        except (OSError, http.client.HTTPException) as cut:
            self.ends.append(f"cut: {cut!r}")  # not a clean end: the test fails on it
            return False
        finally:
            self.ended_at = self.ended_at or time.monotonic()
        assert stream.ended
        self.ends.append("clean")
        return False


def _started(target, *args) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread


def _wait_for(condition, what: str, workers) -> None:
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, what
        errors = [worker.error for worker in workers if worker.error is not None]
        if errors:
            raise errors[0]
        time.sleep(0.01)


def test_sigterm_under_load_answers_every_move_ends_streams_cleanly_and_loses_nothing(redis_url, tmp_path):
    with (
        PatchworkService(
            tmp_path / "unused", tmp_path / "a.log", redis_url=redis_url, env=LONG_KEEPALIVE
        ) as a,
        LiveService(redis_url, tmp_path / "b.log") as b,
    ):
        with ServiceClient(b.url) as setup:
            games = dict(setup.create_game(seed) for seed in range(60, 60 + GAMES))
        idle = ServiceClient(a.url)  # one answer, then an idle kept-alive connection
        followers = [Follower(game_id, [a.url, b.url]) for game_id in sorted(games)[:STREAMS]]
        try:
            assert idle.get("/healthz").status_code == 200

            players = [Player(game_id, tokens, [a.url, b.url]) for game_id, tokens in sorted(games.items())]
            threads = [_started(follower.follow) for follower in followers]
            _wait_for(lambda: all(f.versions == [1] for f in followers), "no snapshot from A", followers)
            threads += [_started(player.play, n) for n, player in enumerate(players)]
            _wait_for(lambda: sum(len(p.acks) for p in players) >= 8 * GAMES, "no play on A", players)
            # Every stream is open on A, and has seen moves.
            assert all(len(f.versions) > 1 and f.ended_at is None for f in followers), [
                f.ends for f in followers
            ]

            acked_at_signal = sum(len(p.acks) for p in players)
            stopped_at = time.monotonic()
            os.kill(a.process.pid, signal.SIGTERM)
            assert a.process.wait(30) == 0, a.log()
            stopping = time.monotonic() - stopped_at
            for thread in threads:
                thread.join(60)
            assert not any(thread.is_alive() for thread in threads), "a player or a follower hung"
            for worker in (*players, *followers):
                if worker.error is not None:
                    raise worker.error
        finally:
            idle.close()
            for follower in followers:
                for stream in follower.streams:
                    stream.close()

        # Every move A read, it answered: none applied without an answer, none
        # left claimed (409 idempotency_key_in_use) for B to refuse.
        assert [key for p in players for key in p.unanswered] == []
        with ServiceClient(b.url) as reader:
            stored = {game_id: assert_history_replays(reader, game_id) for game_id in games}
        acks = [ack for p in players for ack in p.acks]
        assert_acks_in_history(acks, stored)
        for game_id, (game, history) in stored.items():
            assert game["status"] == "finished"
            assert len(history) == sum(1 for ack in acks if ack.game_id == game_id)
        for follower in followers:
            # A's stream ended whole and promptly; B's resumed it to the game's end.
            assert follower.ends == ["clean", "game over"], follower.ends
            assert follower.ended_at - stopped_at < PROMPTLY
            final = stored[follower.game_id][0]["version"]
            assert follower.versions == list(range(1, final + 1))
        # Load was on A at the signal and play went on through it: moves were
        # acknowledged after it too. (Whether a move was also caught unread on
        # a closing connection is a race the test does not count on: it failed
        # so in a clean-clone CI run on a quiet machine.)
        assert sum(len(p.acks) for p in players) > acked_at_signal
        assert stopping < PROMPTLY, f"A took {stopping:.1f} s to stop\n{a.log()}"


# Attempts at catching a worker between its fork and its own signal
# handlers; the first nearly always does (the window spans gevent's patching).
BOOT_WINDOW_ATTEMPTS = 20


def _caught_signals(pid: int) -> int:
    """The set of signals `pid` has handlers for (a bit per signal, from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return int(line.split()[1], 16)
    raise AssertionError(f"no SigCgt for {pid}")


def _first_child_stopped(parent: subprocess.Popen) -> int:
    """The first process `parent` forks, SIGSTOPped as soon as it shows."""
    children = Path(f"/proc/{parent.pid}/task/{parent.pid}/children")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        pids = children.read_text().split()
        if pids:
            os.kill(int(pids[0]), signal.SIGSTOP)
            return int(pids[0])
    raise AssertionError("gunicorn forked no worker within 30 s")


def test_an_instance_stopped_while_a_worker_boots_stops_promptly(redis_url, tmp_path):
    """SIGTERM to the group while a worker is between its fork and its own handlers.

    The arbiter's handlers, inherited with the fork, only queue the signal:
    the worker used to take it for nothing and serve on, and gunicorn waited
    its whole graceful_timeout (10 s) before killing it.
    """
    for attempt in range(BOOT_WINDOW_ATTEMPTS):
        service = LiveService(redis_url, tmp_path / f"attempt-{attempt}.log", workers=1)
        service.spawn()
        try:
            arbiter = service.process
            assert arbiter is not None
            worker = _first_child_stopped(arbiter)
            # Until the worker installs its own handlers it catches SIGHUP
            # (the arbiter's handler); its own leave SIGHUP to the default.
            if not _caught_signals(worker) & (1 << (signal.SIGHUP - 1)):
                os.kill(worker, signal.SIGCONT)
                continue  # caught after the window: try a new instance
            os.killpg(arbiter.pid, signal.SIGTERM)  # pending in the stopped worker
            stopped_at = time.monotonic()
            os.kill(worker, signal.SIGCONT)
            arbiter.wait(30)
            took = time.monotonic() - stopped_at
            assert took < PROMPTLY, f"took {took:.1f} s to stop\n{service.log()}"
            assert arbiter.returncode == 0
            return
        finally:
            service.close()
    raise AssertionError(f"no worker caught booting in {BOOT_WINDOW_ATTEMPTS} attempts")
