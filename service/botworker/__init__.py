"""Bot workers: the processes where computer players think (`patchwork-worker`).

Never in the web workers: a search holds the CPU for up to a second, which
would stall every request of a gevent worker. See worker.py. Beside them,
and never inside one, the timekeepers (`patchwork-timekeeper`,
timekeeper_main.py) end the games whose clock ran out.
"""

from .worker import BotWorker

__all__ = ["BotWorker"]
