"""Every metric the service exports, in one place (`GET /metrics`, docs/operations.md#metrics).

Recorded by the web workers (requests, moves, store calls, event streams),
the bot workers (bot moves, think time, store calls), the timekeepers
(expiries, their lag) and patchwork-service (its children's exits). Under
patchwork-service and gunicorn they write to the instance's multiprocess
directory (service/instance/metrics_dir.py), so this module must be imported after
PROMETHEUS_MULTIPROC_DIR is set; a standalone process with none set keeps
them in memory. Labels take values from small fixed sets only (route
templates, methods, status codes, problem codes, store operations, bot
levels): never a game id, a token or a raw path.

These sit on the hot path, so recording is one call on a labelled child
cached by its label values (`.labels()` takes a lock and rebuilds the key
on every call), and durations are in seconds, as Prometheus expects.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Generic, TypeVar

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from service.instance import metrics_dir

# Requests are answered in about a millisecond; a slow one is tens of ms.
REQUEST_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# A store call is one Redis round trip (~0.1-1 ms); the timeout is about 1 s.
STORE_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 0.5, 1.0, 2.5)
# A bot thinks for its level's budget: a few ms up to about a second.
THINK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)

HTTP_REQUESTS = Counter(
    "patchwork_http_requests",
    "HTTP requests answered, by route template, method and status",
    ["route", "method", "status"],
)
HTTP_DURATION = Histogram(
    "patchwork_http_request_duration_seconds",
    "Time from a request's arrival at the app to its answer's status line (for event streams: until "
    "the stream starts), by route template and method",
    ["route", "method"],
    buckets=REQUEST_BUCKETS,
)
MOVES = Counter(
    "patchwork_moves",
    "Moves and resignations asked for over HTTP, by result: accepted (201), replayed (an "
    "Idempotency-Key's recorded answer) or the problem code of the refusal",
    ["result"],
)
STORE_DURATION = Histogram(
    "patchwork_store_call_duration_seconds",
    "Duration of calls to the game store (Redis), by operation, failed ones included",
    ["operation"],
    buckets=STORE_BUCKETS,
)
STORE_ERRORS = Counter(
    "patchwork_store_errors",
    "Calls to the game store that failed (Redis down, hung, full or refusing), by operation",
    ["operation"],
)
REQUESTS_SHED = Counter(
    "patchwork_requests_shed",
    "Requests refused with 503 overloaded because the worker had more work than it could do, by "
    "reason: in_flight (MAX_IN_FLIGHT requests already in hand) or store_connections (every Redis "
    "connection in use, Redis answering)",
    ["reason"],
)
OPEN_EVENT_STREAMS = Gauge(
    "patchwork_open_event_streams",
    "Event streams (GET /games/{id}/events) open now",
    multiprocess_mode="livesum",
)
BOT_THINK = Histogram(
    "patchwork_bot_think_seconds",
    "Time a bot took to choose its move, by level",
    ["level"],
    buckets=THINK_BUCKETS,
)
BOT_MOVES = Counter(
    "patchwork_bot_moves",
    "Bot moves a bot worker finished with, by level and outcome: committed, or dropped because the "
    "game moved on (stale), was gone (expired), refused it (refused) or ended on the bot's time (timed_out)",
    ["level", "outcome"],
)
BOT_JOBS_QUEUED = "patchwork_bot_jobs_queued"
CLOCK_EXPIRIES = Counter(
    "patchwork_clock_expiries",
    "Games a timekeeper ended at their deadline, by result reason: timeout or aborted",
    ["reason"],
)
# From 10 ms to the 2 s promise and past it.
LAG_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
TIMEKEEPER_LAG = Histogram(
    "patchwork_timekeeper_lag_seconds",
    "From a game's deadline to the commit of its timeout, as the store's clock reads them",
    buckets=LAG_BUCKETS,
)
WEBHOOK_ATTEMPTS = Counter(
    "patchwork_webhook_attempts",
    "Webhook deliveries a sender handled, by what became of them: delivered (a 2xx), failed (to be "
    "tried again), given_up (after the last retry), disabled (its webhook failed for a day), put_off "
    "(its URL had two in flight), dropped (its webhook removed or disabled)",
    ["status"],
)
# Written by patchwork-service itself (service/run/runner.py), about the children it supervises.
CHILD_EXITS = Counter(
    "patchwork_child_exits",
    "Children of patchwork-service that exited without being asked to (each is restarted), by kind: "
    "redis, web, bot-worker or timekeeper",
    ["child"],
)
CHILDREN_CRASH_LOOPING = Gauge(
    "patchwork_children_crash_looping",
    "Children of patchwork-service that keep dying right after their start, restarted with a growing "
    "delay while the service goes on without them, by kind (bot-worker, timekeeper)",
    ["child"],
    multiprocess_mode="livesum",
)

M = TypeVar("M", bound=MetricWrapperBase)


class Children(Generic[M]):
    """A metric's labelled children, looked up by their label values once and kept."""

    __slots__ = ("_children", "_metric")

    def __init__(self, metric: M):
        self._metric = metric
        self._children: dict[tuple[str, ...], M] = {}

    def __call__(self, *values: str) -> M:
        try:
            return self._children[values]
        except KeyError:
            child = self._children[values] = self._metric.labels(*values)
            return child


http_requests = Children(HTTP_REQUESTS)
http_duration = Children(HTTP_DURATION)
moves = Children(MOVES)
store_duration = Children(STORE_DURATION)
store_errors = Children(STORE_ERRORS)
requests_shed = Children(REQUESTS_SHED)
bot_think = Children(BOT_THINK)
bot_moves = Children(BOT_MOVES)
clock_expiries = Children(CLOCK_EXPIRIES)
child_exits = Children(CHILD_EXITS)
children_crash_looping = Children(CHILDREN_CRASH_LOOPING)
webhook_attempts = Children(WEBHOOK_ATTEMPTS)


def timekeeper_lag() -> Histogram:
    return TIMEKEEPER_LAG


class BotJobsQueued(Collector):
    """The bot jobs not yet done, read from the store when scraped (left out when it does not answer).

    A count read less than `max_age` seconds ago is shown again: the store
    is asked at most once a second however often (or by how many) /metrics
    is scraped, and Prometheus scrapes every 15 s or so.
    """

    def __init__(self, count: Callable[[], int], max_age: float = 1.0):
        self._count = count
        self._max_age = max_age
        self._last: tuple[float, int] | None = None  # (monotonic time read, count)

    def collect(self) -> Iterable[Metric]:
        now = time.monotonic()
        if self._last is None or now - self._last[0] >= self._max_age:
            try:
                self._last = (now, self._count())
            except Exception:  # a scrape during an outage still shows the rest (the store error included)
                self._last = None
                return []
        return [GaugeMetricFamily(BOT_JOBS_QUEUED, "Bot jobs queued and not yet done", value=self._last[1])]


class _InstanceFiles(Collector):
    """What every process of the instance wrote to its directory, added up; never mid-fold."""

    def __init__(self, directory: Path):
        self._directory = directory

    def collect(self) -> Iterable[Metric]:
        with metrics_dir.reading(self._directory):
            return list(MultiProcessCollector(None, str(self._directory)).collect())


class _ThisProcess(Collector):
    """This process's own metrics (no multiprocess directory: a standalone worker, a test's app)."""

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def scrape_registry(extra: Iterable[Collector] = ()) -> CollectorRegistry:
    """What a scrape reads: the instance's directory when there is one, else this process; and `extra`."""
    registry = CollectorRegistry()
    for collector in extra:
        registry.register(collector)
    directory = os.environ.get(metrics_dir.ENV)
    registry.register(_InstanceFiles(Path(directory)) if directory else _ThisProcess())
    return registry
