"""What keeps the API's event streams honest: clients that hang up are noticed, and each address has a limit.

- hangups.py: a stream's socket watched while it waits, so a client gone is
  noticed at once.
- limits.py: STREAMS_PER_CLIENT applied with the open streams per address,
  counted across the workers of one instance in memory the gunicorn arbiter
  shares (service/instance/stream_counts.py).
- watchers.py: the streams open on each game across instances, told to
  them as `event: watchers` when the count changes.
"""
