"""gunicorn settings shared by `patchwork-service`, the Procfile and the Dockerfile.

Use with `gunicorn -c python:service.run.gunicorn_conf service.wsgi:app`.
Why these values (see docs/operations.md#the-worker-model-and-why):
- gevent workers (service/run/gunicorn_worker.py): each connection is a
  greenlet, so slow, idle or stuck clients cost a file descriptor and a few
  KB each, not one of a few request threads. A request never blocks long
  on a client (heads and bodies are read under deadlines, before the app
  runs) nor on Redis (every call times out after about a second). The
  other side of it: a worker runs one request's Python at a time, so
  nothing CPU-bound for long (a bot's search) may run in a web worker.
- worker_connections (WORKER_CONNECTIONS, 10,000): what one worker holds
  open at once; also the ceiling a slow-client flood meets. The open-file
  limit is raised to fit it when the server starts (on_starting).
- timeout 30 s: a worker whose loop is stuck past that is restarted.
- graceful_timeout 10 s: the longest a stopping worker (SIGTERM) waits for
  the requests in flight. It ends its event streams and closes its idle
  connections itself (service/run/gunicorn_worker.py), so it is normally gone
  within about 2 s; `patchwork-service` allows gunicorn 15 s before SIGKILL.
- keepalive (KEEPALIVE_SECONDS, 5 s): load balancers and scripts reuse
  connections; an idle one is closed after that.
- small request limits: no legitimate request has long header lines or many
  fields; bodies are capped at 64 KiB.
- metrics (service/instance/metrics_dir.py): the workers write them to the
  instance's directory, the one patchwork-service hands down or else a
  fresh private one made here, before anything imports prometheus_client,
  and removed when gunicorn exits. A worker's files are folded away when
  it exits (child_exit), and those of a previous arbiter's workers at start.
- stream counts (service/instance/stream_counts.py): the arbiter gives each worker a
  row of the shared table (pre_fork) and zeroes it when the worker exits.
"""

import gc
import logging
import resource

from service.config import Settings
from service.instance import metrics_dir, shared_copies, stream_counts

# Before anything imports prometheus_client (the worker class and the app
# do): it takes its mode from the environment when first imported.
_metrics_dir = metrics_dir.instance_dir()
metrics_dir.check_in_time()

_settings = Settings.from_env()

# Made here, in the arbiter, so that every worker it forks shares it.
shared_copies.share_with_workers(_settings.recent_games)
# A row per worker, and as many again for the new workers of a reload (HUP),
# which start before the old ones stop.
stream_counts.share_with_workers(2 * _settings.web_concurrency + 2)

bind = [f"{_settings.host}:{_settings.port}"]
if _settings.metrics_port is not None:
    # Its own listener, so scrapes come from where the operator lets them
    # (service/api/middleware/metrics_access.py).
    bind.append(f"{_settings.host}:{_settings.metrics_port}")
workers = _settings.web_concurrency
# gevent, with read deadlines and problem+json for the requests gunicorn refuses itself.
worker_class = "service.run.gunicorn_worker.ProblemJsonGeventWorker"
worker_connections = _settings.worker_connections
timeout = 30
graceful_timeout = 10
keepalive = _settings.keepalive
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
accesslog = "-" if _settings.access_log else None
errorlog = "-"
# Plain text or JSON lines (LOG_FORMAT), each naming its request's X-Request-ID.
logger_class = "service.telemetry.logs.GunicornLogger"
# gunicorn 24+ opens a control socket in the user's home by default; several
# instances on one host (tests, a blue/green switch) would fight over it.
control_socket_disable = True

# File descriptors a worker needs besides its clients: Redis connections,
# the listening socket, logs, the modules it reads.
_SPARE_FILES = 256


def on_starting(server):
    """Fold the metrics of processes gone since the directory was made; raise the open-file limit."""
    metrics_dir.retire_dead(_metrics_dir)
    _raise_open_file_limit(server)


def pre_fork(server, worker):
    """In the arbiter: give the worker about to be forked a row of the stream counts no live worker has."""
    worker.stream_row = stream_counts.free_row(
        {getattr(other, "stream_row", None) for other in server.WORKERS.values()}
    )


def post_fork(server, worker):
    """In the new worker: keep the queue where signals land until its own handlers are installed;
    count its streams in the row it was given.

    The worker inherits the arbiter's handlers with the fork, and they only
    queue; ProblemJsonGeventWorker.init_signals acts on what they queued.
    """
    worker.inherited_signals = server.SIG_QUEUE
    stream_counts.use_row(worker.stream_row)


def worker_exit(server, worker):
    """In the worker, as it exits: give the garbage collector back what post_worker_init froze.

    Frozen objects are left to the interpreter's shutdown, which tears the
    logging module down before the weak references to its handlers are
    called back ("Exception ignored in: _removeHandlerRef" on stderr, a line
    a JSON log reader cannot parse); unfrozen, they go in the usual order.
    """
    gc.unfreeze()


def child_exit(server, worker):
    """A worker exited (reaped already): fold its metrics files into the accumulated ones, forget its streams."""
    metrics_dir.retire(_metrics_dir, worker.pid)
    stream_counts.release_row(getattr(worker, "stream_row", None))


def on_exit(server):
    """Remove the metrics directory if this gunicorn made it (under patchwork-service, that one does)."""
    metrics_dir.remove_if_owned()


def _raise_open_file_limit(server):
    """Raise the open-file soft limit so each worker can hold worker_connections clients.

    Workers inherit the limit from the arbiter. A soft limit of 1024 (a
    common default) would make a worker refuse connections long before
    worker_connections; the hard limit is as far as an unprivileged process
    may go, and a warning says when even that is short.
    """
    wanted = worker_connections + _SPARE_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < ceiling:
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
    if ceiling < wanted:
        server.log.warning(
            "open-file limit %d is below the %d that %d worker_connections need; "
            "raise the hard limit (ulimit -Hn)",
            ceiling,
            wanted,
            worker_connections,
        )


def post_worker_init(worker):
    """Send the app's log records (e.g. "store unavailable") through gunicorn's error log;
    keep the loaded app out of the garbage collector's full passes.

    Same destination and format as gunicorn's own lines (time, pid, level).
    Done with a hook rather than `logconfig_dict`, which makes gunicorn build
    an access-log record for every request even when the access log is off.

    The app is loaded by now, and what it loaded (modules, the spec and its
    validators, the engine's tables) lives as long as the worker: frozen, a
    full collection no longer walks it. Each full collection had stopped the
    worker, and every request it was serving, for about 60 ms.
    """
    app_log = logging.getLogger("service")
    app_log.handlers = list(worker.log.error_log.handlers)
    app_log.setLevel(logging.INFO)
    app_log.propagate = False
    gc.freeze()
