"""gunicorn settings shared by `patchwork-service`, the Procfile and the Dockerfile.

Use with `gunicorn -c python:service.gunicorn_conf service.wsgi:app`.
Why these values (see README "Running in production"):
- gthread workers: a thread per request in flight, and gunicorn's gthread
  worker parks idle keep-alive and slow connections in its poller instead of
  a thread, so slow or stuck clients do not take every worker. A request
  here never blocks long: Redis calls time out after about a second.
- 2 threads per worker: enough to overlap one request's Redis round trip
  with another's Python work; more threads only contend for the GIL
  (`./dev bench http`: 4 threads gave ~10% fewer moves/s and a worse p99).
- timeout 30 s: a worker stuck past that is restarted; no request needs it.
- keepalive 5 s: load balancers and scripts reuse connections; idle ones go.
- small request limits: no legitimate request has long header lines or many
  fields; bodies are capped at 64 KiB by the app itself.
"""

import logging
import os

from service.config import Settings

_settings = Settings.from_env()

bind = f"{_settings.host}:{_settings.port}"
workers = _settings.web_concurrency
# gthread, with problem+json for the requests gunicorn refuses itself.
worker_class = "service.gunicorn_worker.ProblemJsonThreadWorker"
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
timeout = 30
graceful_timeout = 10
keepalive = 5
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
accesslog = "-" if os.environ.get("ACCESS_LOG", "").strip().lower() in ("1", "true", "yes", "on") else None
errorlog = "-"
# gunicorn 24+ opens a control socket in the user's home by default; several
# instances on one host (tests, a blue/green switch) would fight over it.
control_socket_disable = True


def post_worker_init(worker):
    """Send the app's log records (e.g. "store unavailable") through gunicorn's error log.

    Same destination and format as gunicorn's own lines (time, pid, level).
    Done with a hook rather than `logconfig_dict`, which makes gunicorn build
    an access-log record for every request even when the access log is off.
    """
    app_log = logging.getLogger("service")
    app_log.handlers = list(worker.log.error_log.handlers)
    app_log.setLevel(logging.INFO)
    app_log.propagate = False
