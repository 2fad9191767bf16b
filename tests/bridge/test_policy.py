"""Which challenges a bridge accepts: every limit of its configuration, one at a time."""

import pytest

from service.bridge.config import BridgeConfig
from service.bridge.policy import decline_reason

CONFIG = BridgeConfig(token="t", min_initial_s=60, max_initial_s=1800, max_increment_s=30, games_at_once=2)


def asked(clock=None, rated=False):
    return {"clock": clock, "rated": rated}


@pytest.mark.parametrize(
    ("challenge", "config", "reason"),
    [
        (asked({"initial_s": 300, "increment_s": 5}), CONFIG, None),
        (asked({"initial_s": 60}), CONFIG, None),  # the shortest bank allowed
        (asked({"initial_s": 59}), CONFIG, "too_fast"),
        (asked({"initial_s": 1801}), CONFIG, "too_slow"),
        (asked({"initial_s": 300, "increment_s": 31}), CONFIG, "too_slow"),
        (asked(None), CONFIG, "generic"),
        (asked(None), BridgeConfig(token="t", untimed=True), None),
        (asked({"days_per_move": 2}), CONFIG, "too_slow"),
        (asked({"days_per_move": 2}), BridgeConfig(token="t", correspondence=True), None),
        (asked({"initial_s": 300}, rated=True), BridgeConfig(token="t", rated=False), "casual"),
        (asked({"initial_s": 300}, rated=False), BridgeConfig(token="t", casual=False), "rated"),
    ],
)
def test_each_limit_declines_with_the_reason_that_tells_the_challenger_what_to_change(
    challenge, config, reason
):
    assert decline_reason(challenge, config, games_in_play=0) == reason


def test_a_bot_with_its_games_at_once_in_play_declines_for_later():
    fine = asked({"initial_s": 300})
    assert decline_reason(fine, CONFIG, games_in_play=1) is None
    assert decline_reason(fine, CONFIG, games_in_play=2) == "later"
