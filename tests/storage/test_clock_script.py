"""The commit scripts' clock arithmetic is the core's: the deadline's text and the filled markers, on a real Redis."""

from __future__ import annotations

import pytest
from redis import Redis

from service.games.clock import rfc3339_ms
from service.storage import scripts

EDGES = [0, 951_782_400_123, 4_107_542_399_999, 1_796_128_259_895, 1_709_251_199_000, 1_735_689_599_999]


@pytest.mark.parametrize("ms", EDGES)
def test_the_scripts_deadline_text_is_the_cores(redis: Redis, ms: int):
    source = scripts.fragment("clock") + "\nreturn rfc3339(tonumber(ARGV[1]))"
    assert redis.eval(source, 0, ms) == rfc3339_ms(ms)
