"""What the processes report about themselves: Prometheus metrics and log lines.

metrics.py defines the metrics every process records; metrics_dir.py keeps
the multiprocess directory they write to; logs.py formats the log lines of
gunicorn and the app. The store and the bot workers record metrics, so
metrics.py and metrics_dir.py import no web code.
"""
