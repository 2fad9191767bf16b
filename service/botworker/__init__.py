"""Bot workers: the processes where computer players think (`patchwork-worker`).

Never in the web workers: a search holds the CPU for up to a second, which
would stall every request of a gevent worker. See worker.py.
"""

from .worker import BotWorker

__all__ = ["BotWorker"]
