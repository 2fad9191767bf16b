"""Checks run in a forked child, as a gunicorn worker runs after the arbiter forked it."""

from __future__ import annotations

import os


def in_child(check) -> None:
    """Run `check()` in a forked child; fail here if it raised."""
    pid = os.fork()
    if pid == 0:
        try:
            check()
        except BaseException:
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
