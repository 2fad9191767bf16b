"""`patchwork-service`: the parent of everything the service runs.

It starts, as supervised children (service/run/supervisor.py):
1. with REDIS_URL unset, a private Redis (run/embedded.py): its data in
   PATCHWORK_DATA_DIR, which it locks for its whole life, listening only on a
   Unix socket there;
2. TIMEKEEPERS timekeepers (service/botworker/timekeeper_main.py), which end
   the games whose clock ran out, ticking from their start: before anything
   that makes games;
3. BOT_WORKERS bot workers (service/botworker), where the computer players think;
4. WEBHOOK_SENDERS webhook senders (service/botworker/webhooks_main.py),
   which send the players' webhook deliveries from their queue;
5. gunicorn with the production config.
Each is told the Redis URL by REDIS_URL. A child that dies is restarted with
backoff. Redis and the web are essential: one that keeps dying at its start
stops the service (exit 1). The timekeepers and bot workers are not: the web
goes on serving person-against-person play while they crash-loop, which is
logged, counted (patchwork_child_exits, patchwork_children_crash_looping on
the instance's /metrics) and seen on /readyz (its `bots`). SIGTERM stops the
web first (requests in flight still reach Redis), then the bot workers (each
finishes the move in hand), then the timekeepers, then Redis (which flushes
its append-only file), and exits 0.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import urllib.error
import urllib.request
from collections.abc import Callable

from service.config import ConfigError, Settings
from service.instance import metrics_dir
from service.run.embedded import DataDirInUse, DataDirRefused, EmbeddedRedis
from service.run.redis_process import answers_ping
from service.run.supervisor import ChildSpec, Report, Supervisor

log = logging.getLogger("patchwork.runner")

# gunicorn_conf's graceful_timeout is 10 s: this leaves it time to use it.
_WEB_STOP_TIMEOUT = 15.0


def _local_address(host: str) -> str:
    """Where to reach a server bound to `host` from this machine."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def _answers_health(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=1) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def web_spec(settings: Settings, env: dict[str, str], after_exit: Callable[[], None]) -> ChildSpec:
    """gunicorn with service/run/gunicorn_conf.py, ready once /healthz answers."""
    url = f"http://{_local_address(settings.host)}:{settings.port}"
    return ChildSpec(
        name="web",
        argv=[
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            "python:service.run.gunicorn_conf",
            "service.wsgi:app",
        ],
        env=env,
        ready=lambda: _answers_health(url),
        stop_timeout=_WEB_STOP_TIMEOUT,
        forward=(signal.SIGHUP,),  # gunicorn reloads its config and workers
        after_exit=after_exit,
        kind="web",
    )


def redis_spec(embedded: EmbeddedRedis) -> ChildSpec:
    """The embedded redis-server (SIGTERM makes it flush its append-only file), ready once it answers PING."""
    return ChildSpec(
        name="redis",
        argv=embedded.command(),
        output=embedded.log_path,
        ready=lambda: answers_ping(embedded.url, timeout=0.2),
        ready_timeout=60.0,  # it loads the whole append-only file first
        kind="redis",
    )


# The children that are not essential, by kind: the module each runs.
# Bot workers lower their own CPU priority; timekeepers keep the
# supervisor's, so no search delays a timeout.
_HELPERS = {
    "timekeeper": "service.botworker.timekeeper_main",
    "bot-worker": "service.botworker",
    "webhook-sender": "service.botworker.webhooks_main",
}


def helper_spec(kind: str, number: int, env: dict[str, str], after_exit: Callable[[], None]) -> ChildSpec:
    """Timekeeper, bot worker or webhook sender `number`; nothing to wait for to call it ready.

    Not essential: while no bot worker runs, bot seats are refused (503
    bots_unavailable) and every other game goes on; while one timekeeper is
    down, the others keep time. Its metrics go to the instance's directory,
    for the web's /metrics: it serves none of its own, whatever METRICS_PORT
    says (the web listens there).
    """
    return ChildSpec(
        name=f"{kind}-{number}",
        argv=[sys.executable, "-m", _HELPERS[kind]],
        env={name: value for name, value in env.items() if name != "METRICS_PORT"},
        after_exit=after_exit,
        essential=False,
        kind=kind,
    )


class MetricsReport(Report):
    """The supervisor's reports as metrics in the instance's directory, which the web's /metrics adds up."""

    def __init__(self) -> None:
        # Imported here: prometheus_client must see the instance's directory in the
        # environment when first imported (service/instance/metrics_dir.py).
        from service.telemetry import metrics

        metrics_dir.check_in_time()
        self._metrics = metrics

    def exited(self, spec: ChildSpec) -> None:
        self._metrics.child_exits(spec.kind or spec.name).inc()

    def crash_looping(self, spec: ChildSpec, looping: bool) -> None:
        self._metrics.children_crash_looping(spec.kind or spec.name).inc(1 if looping else -1)


def main() -> None:
    """Entry point of `patchwork-service` and `python -m service`."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        settings = Settings.from_env()
    except ConfigError as err:
        sys.exit(f"patchwork-service: {err}")
    env = dict(os.environ)
    children = []
    embedded = None
    if settings.redis_url is None:
        embedded = EmbeddedRedis(settings.data_dir, settings.embedded_redis_maxmemory)
        try:
            embedded.claim()
        except (DataDirInUse, DataDirRefused, FileNotFoundError) as err:
            sys.exit(f"patchwork-service: {err}")
        log.info("embedded Redis on %s, data in %s", embedded.socket_path, settings.data_dir)
        env["REDIS_URL"] = embedded.url
        children.append(redis_spec(embedded))
    # Made before anything records metrics, and handed down: the web, the
    # timekeepers, the bot workers and this process (its reports) write to
    # it, the web's /metrics adds it all up. A child that exits has its files
    # folded (metrics_dir.retire_dead).
    directory = metrics_dir.instance_dir(env)
    os.environ[metrics_dir.ENV] = str(directory)

    def fold_exited() -> None:
        metrics_dir.retire_dead(directory)

    # Between Redis and the web: started after Redis, stopped after the web
    # (whose last moves may queue jobs or start clocks) and before Redis
    # (which they commit to). The timekeepers before the bot workers: time
    # is kept from the start, and until the last bot move is in.
    # The webhook senders after them: stopped before the bot workers and the timekeepers, whose
    # last commits may queue deliveries that wait in Redis for the next start.
    for kind, count in (
        ("timekeeper", settings.timekeepers),
        ("bot-worker", settings.bot_workers),
        ("webhook-sender", settings.webhook_senders),
    ):
        children += [helper_spec(kind, n, env, fold_exited) for n in range(1, count + 1)]
    children.append(web_spec(settings, env, fold_exited))
    log.info("serving on http://%s:%d", settings.host, settings.port)
    try:
        code = Supervisor(children, MetricsReport()).run()
    finally:
        metrics_dir.remove_if_owned(env)
        if embedded is not None:
            embedded.release()
    sys.exit(code)
