"""What the processes of one instance share, set up before gunicorn's arbiter forks its workers.

An instance is one `patchwork-service`, or one gunicorn started alone. Its
processes share three things, each made once per instance by the process
plumbing (service/run/gunicorn_conf.py, service/run/runner.py) and used by
the layers above:

- shared_copies.py: the table of kept copies of games, in anonymous shared
  memory, so a move skips its read whichever worker stored the last one
  (used by the game-play core, service/games/kept.py);
- stream_counts.py: the open event streams per client address, counted
  across the workers in shared memory (used by service/api/streams/limits.py);
- metrics_dir.py: the directory every process writes its metrics to
  (prometheus_client's multiprocess mode, read by service/telemetry/metrics.py).

Standard library only (prometheus_client's file reader aside), no web and
no storage: every layer that needs one of them sits above this one.
"""
