"""What the processes report about themselves: Prometheus metrics and log lines.

metrics.py defines the metrics every process records, in the multiprocess
directory of the instance (service/instance/metrics_dir.py); logs.py
formats the log lines of gunicorn and the app. The store and the bot
workers record metrics, so metrics.py imports no web code.
"""
