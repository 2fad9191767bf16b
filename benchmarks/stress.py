"""Issue 17's findings under stress, measured again on real processes as users and attackers met them.

Run:  ./dev bench stress                  (about 3 minutes)
      ./dev bench stress --only burst     (one scenario)

Each scenario starts its own throwaway redis-server and gunicorn (2 workers,
service/run/gunicorn_conf.py), and bot workers where it needs them, and
prints its figures next to the ones issue 17 reported before the fixes:

- stall: six person-vs-`random` games get one person move each while the
  web workers are throttled with SIGSTOP/SIGCONT (--run-ms of run, then
  --pause-s stopped, for --throttle-s); then, throttle off, the games whose
  bot is in turn and has not moved within --stuck-after-s are stuck. The
  bot worker's log says how many of those commits came later than its wait
  (they were fenced): before the fix, such a job was dropped.
- streams: one client opens a game's event stream, reads its snapshot and
  closes it, about --streams-rate times a second, one socket at a time,
  for --streams-s, against WORKER_CONNECTIONS=400; /healthz is probed every
  0.2 s (a new connection each time, as a load balancer does) and the open
  streams gauge of /metrics read beside it.
- burst: 1,500 board.svg reads at once, then 590 hints at once (across 60
  games: hints are cached per version), against one instance with its
  default limits; four moves sent during each burst (MOVES_AFTER_S), and
  the store-error metric read before and after.
- restart: the pools filled by bursts of reads, Redis killed -9 and started
  again on its port (append-only file: the games survive), /readyz waited
  for, then --restart-wait-s (the issue's 30 s) and a burst of 200 reads.
- fairness: one bot worker with the levels' own think times; client A
  (X-Forwarded-For behind TRUSTED_PROXIES=1) keeps moving in 10
  person-vs-`search` games while client B plays a `search-quick` game; B's
  bot reply latency (from B's 201 to the bot's next move seen, polled every
  5 ms) alone and with A, and how many of A's bot moves were committed while
  B waited (the commits' wake-up messages, heard on Redis).

One table at the end: scenario, figure, before (issue 17), now.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

# Run as a script, this file's directory would come first on sys.path and
# benchmarks/http.py would shadow the standard library's `http` package.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

import argparse
import json
import os
import signal
import statistics
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import requests

from benchmarks.httpbench.idle_streams import raise_open_file_limit
from tests.support.bot_workers import BotWorkerProcess, create_bot_game, wait_for
from tests.support.burst import Answer, burst
from tests.support.live_service import LiveService, worker_pids
from tests.support.metrics import scrape, value
from tests.support.redis_servers import ThrowawayRedis
from tests.support.service_client import ServiceClient, wait_until_ready
from tests.support.sse import EventStream

# Quiet workers: an access log line per request would be most of what the bursts cost.
QUIET = {"ACCESS_LOG": "0"}
# Every request of the bench is bounded: a stuck service ends a scenario, not the run.
REQUEST_TIMEOUT = 60.0


@dataclass(frozen=True)
class Row:
    """One figure of a scenario: what it is, issue 17's figure before the fixes, what was measured now."""

    figure: str
    before: str
    now: str


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def game_of(url: str, game_id: str) -> dict:
    resp = requests.get(f"{url}/games/{game_id}", timeout=REQUEST_TIMEOUT)
    resp.raise_for_status()
    return resp.json()


def person_move(url: str, game: dict) -> dict:
    """A legal move for the person in turn: advance, or the leather patch's placement when one is due."""
    if game["phase"] == "place_leather":
        resp = requests.get(f"{url}/games/{game['id']}/legal-moves", timeout=REQUEST_TIMEOUT)
        return resp.json()["moves"][0]
    return {"action": "advance"}


def post_move(url: str, game: dict, token: str, headers: dict[str, str] | None = None) -> requests.Response:
    return requests.post(
        f"{url}/games/{game['id']}/moves",
        json=person_move(url, game),
        headers={"Authorization": f"Bearer {token}", **(headers or {})},
        timeout=REQUEST_TIMEOUT,
    )


def bot_in_turn(game: dict) -> bool:
    return game["status"] != "finished" and game["players"][game["turn"]]["bot"] is not None


def new_bot_game(url: str, bot: str) -> tuple[dict, str]:
    """(game, the person's token) of a new person-vs-`bot` game, the person to move."""
    created = create_bot_game(url, [{"name": "Ann"}, {"name": "Bot", "bot": bot}], first_player=0)
    return created["game"], created["tokens"][0]


def by_code(answers: list[Answer]) -> Counter[str]:
    """Answers counted as "200", "503 overloaded", "no answer" ..."""
    counts: Counter[str] = Counter()
    for answer in answers:
        if answer.status == 0:
            counts["no answer"] += 1
        elif answer.status >= 400:
            try:
                code = json.loads(answer.body).get("code", "?")
            except ValueError:
                code = "?"
            counts[f"{answer.status} {code}"] += 1
        else:
            counts[str(answer.status)] += 1
    return counts


def spelled(counts: Counter[str]) -> str:
    return ", ".join(f"{name}: {n:,}" for name, n in sorted(counts.items())) or "none"


def store_errors(url: str) -> float:
    return sum(n for (name, _), n in scrape(url).items() if name == "patchwork_store_errors_total")


def answers_in_background(call: Callable[[], object]) -> tuple[threading.Thread, list]:
    """`call` run in a thread: (the thread, a list that holds its result or exception once it ends)."""
    result: list = []

    def run() -> None:
        try:
            result.append(call())
        except Exception as error:  # reported as the scenario's figure, not lost in a thread
            result.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, result


# --- stall -------------------------------------------------------------------


class Throttle(threading.Thread):
    """The processes run `run_s`, then stop for `pause_s` (SIGSTOP), again and again until stop()."""

    def __init__(self, pids: set[int], run_s: float, pause_s: float):
        super().__init__(daemon=True)
        self.pids, self.run_s, self.pause_s = pids, run_s, pause_s
        self.stopping = threading.Event()

    def _signal(self, signum: int) -> None:
        for pid in self.pids:
            os.kill(pid, signum)

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                self._signal(signal.SIGCONT)
                time.sleep(self.run_s)
                self._signal(signal.SIGSTOP)
                self.stopping.wait(self.pause_s)
        finally:
            self._signal(signal.SIGCONT)

    def stop(self) -> None:
        self.stopping.set()
        self.join()


def stall(args, work: Path) -> list[Row]:
    with (
        ThrowawayRedis(work / "redis") as redis,
        LiveService(redis.url, work / "web.log", workers=2, env=QUIET) as web,
        BotWorkerProcess(redis.url, work / "bot.log", think_ms="") as bot,
    ):
        games = [new_bot_game(web.url, "random") for _ in range(6)]
        throttle = Throttle(worker_pids(web), args.run_ms / 1000, args.pause_s)
        throttle.start()
        try:
            moves = []
            for game, token in games:
                moves.append(answers_in_background(functools.partial(timed_move, web.url, game, token)))
                time.sleep(0.2)  # the moves reach the workers at different points of their throttle
            time.sleep(max(0.0, args.throttle_s - 1.2))
        finally:
            throttle.stop()
        released = time.monotonic()
        for thread, _ in moves:
            thread.join(REQUEST_TIMEOUT)
        statuses = Counter(
            str(result[0][0]) if result and not isinstance(result[0], Exception) else "error"
            for _, result in moves
        )
        slowest = max((r[0][1] for _, r in moves if r and not isinstance(r[0], Exception)), default=0.0)

        def stuck() -> list[str]:
            return [game["id"] for game, _ in games if bot_in_turn(game_of(web.url, game["id"]))]

        # Throttle off: a bot in turn must move within the bound, counted from the release
        # or from its person's answer, whichever came later.
        deadline = max(released, time.monotonic()) + args.stuck_after_s
        while (left := stuck()) and time.monotonic() < deadline:
            time.sleep(0.1)
        # The worker gave up waiting for these commits: before the fix, the games that stalled.
        fenced = bot.log().count("fenced the late commit")
    print(
        f"stall: 6 person-vs-random games, one move each while the web workers ran {args.run_ms:g} ms "
        f"per {args.pause_s:g} s for {args.throttle_s:g} s; moves answered {spelled(statuses)}, "
        f"slowest {slowest:.1f} s; late commits fenced by the bot worker: {fenced}; "
        f"bot in turn and unmoved {args.stuck_after_s:g} s after: {len(left)}"
    )
    return [
        Row("games stuck (bot in turn, no move)", "2 of 6", f"{len(left)} of 6"),
        Row("the throttled moves' answers", "-", f"{spelled(statuses)}; slowest {slowest:.1f} s"),
        Row("commits later than the bot worker's wait (fenced)", "jobs dropped", f"{fenced} of 6"),
    ]


def timed_move(url: str, game: dict, token: str) -> tuple[int, float]:
    started = time.monotonic()
    resp = post_move(url, game, token)
    return resp.status_code, time.monotonic() - started


# --- streams -------------------------------------------------------------------


class Probe(threading.Thread):
    """GET /healthz every `every` s on a new connection, and the open-streams gauge beside it."""

    def __init__(self, url: str, every: float = 0.2, timeout: float = 5.0):
        super().__init__(daemon=True)
        self.url, self.every, self.timeout = url, every, timeout
        self.latencies: list[float] = []
        self.failures: Counter[str] = Counter()
        self.max_open_streams = 0.0
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.wait(self.every):
            started = time.monotonic()
            try:
                resp = requests.get(f"{self.url}/healthz", timeout=self.timeout)
                if resp.status_code != 200:
                    self.failures[str(resp.status_code)] += 1
            except requests.RequestException as error:
                self.failures[type(error).__name__] += 1
            self.latencies.append(time.monotonic() - started)
            try:
                gauge = value(scrape(self.url), "patchwork_open_event_streams")
                self.max_open_streams = max(self.max_open_streams, gauge)
            except (requests.RequestException, AssertionError):
                self.failures["metrics"] += 1

    def stop(self) -> None:
        self.stopping.set()
        self.join()


def streams(args, work: Path) -> list[Row]:
    env = {**QUIET, "WORKER_CONNECTIONS": "400"}
    with (
        ThrowawayRedis(work / "redis") as redis,
        LiveService(redis.url, work / "web.log", workers=2, env=env) as web,
    ):
        with ServiceClient(web.url) as client:
            game_id, _ = client.create_game(17)
        opened: Counter[str] = Counter()
        probe = Probe(web.url)
        probe.start()
        started = time.monotonic()
        try:
            while (elapsed := time.monotonic() - started) < args.streams_s:
                try:
                    with EventStream(web.url, game_id, timeout=5) as stream:
                        if stream.status == 200:
                            stream.take(1)  # its snapshot: the stream is open on the worker
                        opened[str(stream.status)] += 1
                except OSError as error:
                    opened[type(error).__name__] += 1
                # Paced to the rate asked: the next one leaves at its time, not after a fixed pause.
                time.sleep(max(0.0, (sum(opened.values()) / args.streams_rate) - elapsed))
        finally:
            probe.stop()
        rate = sum(opened.values()) / (time.monotonic() - started)
        left_open = value(scrape(web.url), "patchwork_open_event_streams")
    worst = max(probe.latencies, default=0.0)
    failures = sum(probe.failures.values())
    print(
        f"streams: {sum(opened.values()):,} streams opened and closed ({rate:.0f}/s) at WORKER_CONNECTIONS=400: "
        f"{spelled(opened)}; /healthz probed {len(probe.latencies)} times, worst {ms(worst)}, "
        f"failures: {spelled(probe.failures)}; open streams at most {probe.max_open_streams:g}, "
        f"{left_open:g} right after"
    )
    return [
        Row(
            "streams opened and closed",
            "100/s",
            f"{sum(opened.values()):,} ({rate:.0f}/s): {spelled(opened)}",
        ),
        Row(
            "most streams open at once (gauge, every 0.2 s)",
            "1,012 connections held (behind nginx)",
            f"{probe.max_open_streams:g}",
        ),
        Row("streams still open right after", "-", f"{left_open:g}"),
        Row("worst /healthz latency", "timed out for 20 s", ms(worst)),
        Row("/healthz failures", "-", f"{failures} of {len(probe.latencies)}"),
    ]


# --- burst -------------------------------------------------------------------


def moved_during(url: str, game_id: str, token: str, after: float) -> Callable[[], tuple[str, float]]:
    """A move sent `after` s into a burst: (its status and code, seconds it took)."""

    def call() -> tuple[str, float]:
        time.sleep(after)
        started = time.monotonic()
        resp = requests.post(
            f"{url}/games/{game_id}/moves",
            json={"action": "advance"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=REQUEST_TIMEOUT,
        )
        took = time.monotonic() - started
        code = resp.json().get("code", "") if resp.status_code >= 400 else ""
        return f"{resp.status_code} {code}".strip(), took

    return call


def one_burst(
    url: str, paths: list[str], movers: list[Callable[[], tuple[str, float]]]
) -> tuple[list[Answer], str]:
    """The burst, with moves sent during it: (the answers, the moves' results as text)."""
    running = [answers_in_background(mover) for mover in movers]
    answers = burst(url, paths, timeout=REQUEST_TIMEOUT)
    results: list[str] = []
    for thread, result in running:
        thread.join(REQUEST_TIMEOUT)
        if not result or isinstance(result[0], Exception):
            results.append(f"failed: {result[0] if result else 'no answer'}")
        else:
            results.append(f"{result[0][0]} in {result[0][1]:.1f} s")
    return answers, ", ".join(results)


def burst_rows(label: str, before_move: str, answers: list[Answer], move: str) -> list[Row]:
    counts = by_code(answers)
    refused = [a.seconds for a in answers if a.status == 503]
    return [
        Row(f"{label}: answers", "503 storage_unavailable among them", spelled(counts)),
        Row(
            f"{label}: slowest 503 / slowest answer",
            "-",
            f"{ms(max(refused, default=0.0))} / {ms(max(a.seconds for a in answers))}",
        ),
        Row(f"{label}: moves sent during it", before_move, move),
    ]


# When the moves sent during a burst leave, in seconds after it began.
MOVES_AFTER_S = (0.1, 0.5, 1.0, 2.0)


def burst_scenario(args, work: Path) -> list[Row]:
    raise_open_file_limit()  # 1,500 sockets at once
    with (
        ThrowawayRedis(work / "redis") as redis,
        LiveService(redis.url, work / "web.log", workers=2, env=QUIET) as web,
    ):
        with ServiceClient(web.url) as client:
            games = [client.create_game(seed)[0] for seed in range(60)]
            # Each gets one move per burst, sent that many seconds into it (a read would wait too).
            movers = [(*client.create_game(1000 + n), after) for n, after in enumerate(MOVES_AFTER_S)]
        errors_before = store_errors(web.url)
        rows = []
        unavailable = 0
        for label, paths in (
            (f"{args.reads:,} board.svg", [f"/games/{games[n % 12]}/board.svg" for n in range(args.reads)]),
            # Across 60 games: a hint is cached per game version, and the burst is to make them.
            (f"{args.hints:,} hints", [f"/games/{games[n % 60]}/hint" for n in range(args.hints)]),
        ):
            moves = [
                moved_during(web.url, game_id, tokens[game_of(web.url, game_id)["turn"]], after)
                for game_id, tokens, after in movers
            ]
            answers, move = one_burst(web.url, paths, moves)
            print(
                f"burst: {label}: {spelled(by_code(answers))}; moves sent {MOVES_AFTER_S} s into it: {move}"
            )
            rows += burst_rows(label, "waited 3.4-8.6 s for a 503", answers, move)
            unavailable += by_code(answers)["503 storage_unavailable"]
            time.sleep(1)  # the workers catch up before the next burst
        delta = store_errors(web.url) - errors_before
    return [
        *rows,
        Row("503 storage_unavailable, both bursts", "the refusals said so", f"{unavailable}"),
        Row("store errors counted (metric delta)", "counted: the alert fired", f"{delta:g}"),
    ]


# --- restart -------------------------------------------------------------------


def restart(args, work: Path) -> list[Row]:
    raise_open_file_limit()
    durable = ["--appendonly", "yes", "--appendfsync", "always"]  # the games survive kill -9
    # No admission limit in the way: the bursts are to reach every pooled connection, as before the fix.
    env = {**QUIET, "MAX_IN_FLIGHT": "1000"}
    with (
        ThrowawayRedis(work / "redis", durable) as redis,
        LiveService(redis.url, work / "web.log", workers=2, env=env) as web,
    ):
        with ServiceClient(web.url) as client:
            games = [client.create_game(seed)[0] for seed in range(8)]
        paths = [f"/games/{games[n % len(games)]}/board.svg" for n in range(args.restart_reads)]
        with redis.client() as admin:
            for _ in range(5):  # fill both workers' pools
                control = burst(web.url, paths, timeout=REQUEST_TIMEOUT)
            pooled = len(admin.client_list()) - 1
        assert redis.pid is not None
        os.kill(redis.pid, signal.SIGKILL)
        wait_for(lambda: not redis.running, 10, "redis-server outlived SIGKILL", every=0.01)
        redis.start()
        wait_until_ready(web.url, timeout=30)
        time.sleep(args.restart_wait_s)
        answers = burst(web.url, paths, timeout=REQUEST_TIMEOUT)
    failed = sum(1 for a in answers if a.status != 200)
    print(
        f"restart: {pooled} pooled connections to Redis, killed -9 and started again; "
        f"last burst before: {spelled(by_code(control))}; {args.restart_wait_s:g} s after ready: "
        f"{spelled(by_code(answers))}"
    )
    return [
        Row("pooled connections when Redis was killed", "-", f"{pooled}"),
        Row(f"{args.restart_reads} reads before the kill", "-", spelled(by_code(control))),
        Row(
            f"{args.restart_reads} reads {args.restart_wait_s:g} s after /readyz: not 200",
            "41 of 200 (503)",
            f"{failed} of {len(answers)} ({spelled(by_code(answers))})",
        ),
    ]


# --- fairness -------------------------------------------------------------------

CLIENT_A = {"X-Forwarded-For": "203.0.113.1"}
CLIENT_B = {"X-Forwarded-For": "203.0.113.2"}


def reply_latency(url: str, game: dict, token: str, headers: dict[str, str]) -> tuple[float, float, dict]:
    """Post the person's move; (when its 201 came, when the bot's next move was seen, the game then)."""
    resp = post_move(url, game, token, headers)
    resp.raise_for_status()
    handed, game = time.monotonic(), resp.json()
    version = game["version"]
    while game["version"] == version and bot_in_turn(game):
        if time.monotonic() > handed + REQUEST_TIMEOUT:
            raise RuntimeError(f"no bot move in game {game['id']} within {REQUEST_TIMEOUT:g} s")
        time.sleep(0.005)
        game = game_of(url, game["id"])
    return handed, time.monotonic(), game


def b_replies(url: str, moves: int) -> list[tuple[float, float]]:
    """B's waits for its bot, (from, to) each, over `moves` moves (a new game when one ends)."""
    waits: list[tuple[float, float]] = []
    game, token = new_bot_game(url, "search-quick")
    while len(waits) < moves:
        if game["status"] == "finished":
            game, token = new_bot_game(url, "search-quick")
        handed, seen, game = reply_latency(url, game, token, CLIENT_B)
        waits.append((handed, seen))
        while bot_in_turn(game):  # a bot that moves again (it bought and is still behind): not timed
            time.sleep(0.01)
            game = game_of(url, game["id"])
    return waits


class BusyClient(threading.Thread):
    """Client A: `count` person-vs-`bot` games, a move in each as soon as its bot has moved, until stop()."""

    def __init__(self, url: str, count: int, bot: str):
        super().__init__(daemon=True)
        self.url = url
        self.bot = bot
        self.games: list[tuple[dict, str]] = []
        self.game_ids: set[str] = set()
        # (game, version) of the commits of A's own (person) moves: the other commits are its bots'.
        self.person_commits: set[tuple[str, int]] = set()
        for _ in range(count):
            self._new_game()
        self.stopping = threading.Event()

    def _new_game(self, index: int | None = None) -> None:
        game, token = new_bot_game(self.url, self.bot)
        self.game_ids.add(game["id"])
        if index is None:
            self.games.append((game, token))
        else:
            self.games[index] = (game, token)

    def run(self) -> None:
        while not self.stopping.wait(0.05):
            for index, (game, token) in enumerate(self.games):
                game = game_of(self.url, game["id"])
                if game["status"] == "finished":
                    self._new_game(index)
                elif not bot_in_turn(game):
                    resp = post_move(self.url, game, token, CLIENT_A)
                    resp.raise_for_status()
                    self.person_commits.add((game["id"], resp.json()["version"]))
                else:
                    self.games[index] = (game, token)

    def stop(self) -> None:
        self.stopping.set()
        self.join(REQUEST_TIMEOUT)


class Commits(threading.Thread):
    """Every commit as the service announces it (`<game id> <version>` on its events channel), timed."""

    def __init__(self, redis: ThrowawayRedis, channel: str = "patchwork:events"):
        super().__init__(daemon=True)
        self.client = redis.client()
        self.pubsub = self.client.pubsub()
        self.pubsub.subscribe(channel)
        self.seen: list[tuple[float, str, int]] = []
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            message = self.pubsub.get_message(timeout=0.1)
            if message is not None and message["type"] == "message":
                game_id, version = message["data"].split()
                self.seen.append((time.monotonic(), game_id, int(version)))

    def stop(self) -> None:
        self.stopping.set()
        self.join()
        self.pubsub.close()
        self.client.close()


def a_bot_moves_during(commits: Commits, busy: BusyClient, since: float, until: float) -> int:
    """How many of A's bot moves were committed while B waited from `since` to `until`."""
    return sum(
        1
        for at, game_id, version in commits.seen
        if since < at < until and game_id in busy.game_ids and (game_id, version) not in busy.person_commits
    )


def fairness(args, work: Path) -> list[Row]:
    env = {**QUIET, "TRUSTED_PROXIES": "1"}
    with (
        ThrowawayRedis(work / "redis") as redis,
        LiveService(redis.url, work / "web.log", workers=2, env=env) as web,
        BotWorkerProcess(redis.url, work / "bot.log", think_ms=args.think_ms) as _bot,
    ):
        alone = sorted(seen - handed for handed, seen in b_replies(web.url, args.fair_alone))
        busy = BusyClient(web.url, 10, "search")
        commits = Commits(redis)
        commits.start()
        busy.start()
        try:
            # A's ten games each have had a bot job in the queue before B's first move.
            wait_for(lambda: len(busy.person_commits) >= 10, 30, "client A's games did not start")
            windows = b_replies(web.url, args.fair_moves)
        finally:
            busy.stop()
            commits.stop()
    shared = sorted(seen - handed for handed, seen in windows)
    ahead = Counter(a_bot_moves_during(commits, busy, *window) for window in windows)
    think = args.think_ms or "the levels' own (search 1000 ms, search-quick 250 ms)"
    print(
        f"fairness: think_ms {think}; B alone: p50 {ms(statistics.median(alone))}, max {ms(alone[-1])}; "
        f"beside A's 10 search games ({len(busy.person_commits)} moves of A): "
        f"p50 {ms(statistics.median(shared))}, max {ms(shared[-1])}; "
        f"A's bot moves committed during each of B's waits: {spelled(Counter({str(k): n for k, n in ahead.items()}))}"
    )
    return [
        Row(
            f"B's search-quick replies alone ({len(alone)})",
            "0.06-0.3 s",
            f"p50 {ms(statistics.median(alone))}, max {ms(alone[-1])}",
        ),
        Row(
            f"B's replies beside A's 10 search games ({len(shared)})",
            "6 s",
            f"p50 {ms(statistics.median(shared))}, max {ms(shared[-1])}",
        ),
        Row(
            "A's bot moves committed while B waited",
            "-",
            "; ".join(f"{k} in {n} waits" for k, n in sorted(ahead.items())),
        ),
    ]


SCENARIOS: dict[str, Callable[[argparse.Namespace, Path], list[Row]]] = {
    "stall": stall,
    "streams": streams,
    "burst": burst_scenario,
    "restart": restart,
    "fairness": fairness,
}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=SCENARIOS, action="append", help="run this scenario (repeatable)")
    stall_options = parser.add_argument_group("stall")
    stall_options.add_argument("--run-ms", type=float, default=2.0, help="ms the web workers run (2)")
    stall_options.add_argument("--pause-s", type=float, default=2.5, help="s they stay stopped (2.5)")
    stall_options.add_argument("--throttle-s", type=float, default=12.0, help="s of throttling (12)")
    stall_options.add_argument(
        "--stuck-after-s", type=float, default=10.0, help="a bot unmoved this long after is stuck (10)"
    )
    stream_options = parser.add_argument_group("streams")
    stream_options.add_argument("--streams-rate", type=float, default=100.0, help="streams a second (100)")
    stream_options.add_argument("--streams-s", type=float, default=15.0, help="s of opening streams (15)")
    burst_options = parser.add_argument_group("burst")
    burst_options.add_argument("--reads", type=int, default=1500, help="board.svg reads at once (1500)")
    burst_options.add_argument("--hints", type=int, default=590, help="hints at once (590)")
    restart_options = parser.add_argument_group("restart")
    restart_options.add_argument("--restart-reads", type=int, default=200, help="reads in a burst (200)")
    restart_options.add_argument(
        "--restart-wait-s", type=float, default=30.0, help="s after /readyz before the burst (30)"
    )
    fair_options = parser.add_argument_group("fairness")
    fair_options.add_argument(
        "--think-ms", default="", help="BOT_THINK_MS of the bot worker (unset: each level's own)"
    )
    fair_options.add_argument("--fair-alone", type=int, default=5, help="B's replies timed alone (5)")
    fair_options.add_argument("--fair-moves", type=int, default=8, help="B's replies timed beside A (8)")
    return parser.parse_args()


def print_table(results: dict[str, list[Row]]) -> None:
    header = ("scenario", "figure", "before (issue 17)", "now")
    lines = [(name, row.figure, row.before, row.now) for name, rows in results.items() for row in rows]
    widths = [max(len(line[i]) for line in [header, *lines]) for i in range(3)]
    print()
    for line in [header, *lines]:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=False)) + "  " + line[3]
        )


def main() -> None:
    args = parse_args()
    results: dict[str, list[Row]] = {}
    for name in args.only or SCENARIOS:
        began = time.monotonic()
        with tempfile.TemporaryDirectory(prefix=f"bench-stress-{name}-") as scratch:
            try:
                results[name] = SCENARIOS[name](args, Path(scratch))
            except Exception as error:  # one scenario's failure is its row; the others still run
                results[name] = [Row("failed", "-", f"{type(error).__name__}: {error}"[:300])]
                for log in sorted(Path(scratch).glob("*.log")):
                    print(f"--- {log.name}\n{log.read_text(errors='replace')[-2000:]}", file=sys.stderr)
        print(f"({name}: {time.monotonic() - began:.0f} s)", flush=True)
    print_table(results)


if __name__ == "__main__":
    main()
