"""Run test clients in threads that start together and always finish."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


def run_together(count: int, target: Callable[[int], T], timeout: float = 60.0) -> list[T]:
    """target(0) .. target(count - 1) in threads released at one moment; their results in order.

    An exception in any thread is raised here (the first, by thread number),
    so an assertion inside a client thread fails the test.
    """
    start = threading.Barrier(count, timeout=timeout)

    def run(n: int) -> T:
        start.wait()
        return target(n)

    with ThreadPoolExecutor(max_workers=count) as pool:
        futures = [pool.submit(run, n) for n in range(count)]
        return [future.result(timeout=timeout) for future in futures]
