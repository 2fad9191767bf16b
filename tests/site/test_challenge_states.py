"""The challenge state machine on hand-worked sequences (site/challenges.py), no store.

A challenge made at t=1,000 ms with 600 s to live expires at t=601,000: at
600,999 it is still pending, at 601,000 it is expired. It ends once, by the
first of accept, decline, withdraw or expiry; every later change is refused
with the status that ended it, and the refused change leaves it as it was.
"""

from __future__ import annotations

import pytest

from service.games.refusals import PlayerRequired
from service.site.blocks import TargetsSelf
from service.site.challenges import (
    Challenge,
    ChallengeNotPending,
    NotYourChallenge,
    Side,
    accepted,
    declined,
    withdrawn,
)

ANN = Side("ann-id", "Ann", 1500)
BOB = Side("bob-id", "Bob", 1620)
CARL = Side("carl-id", "Carl", 1400)
GUEST = Side(None, "Dora")
MADE_MS = 1_000
EXPIRES_MS = MADE_MS + 600_000


def challenge(to: Side | None = BOB, *, rated: bool = False) -> Challenge:
    return Challenge(
        id="c1",
        challenger=ANN,
        to=to,
        clock={"initial_s": 300, "increment_s": 3, "first_move_s": 60},
        rated=rated,
        seat=None,
        challenger_seat=1,
        status="pending",
        game="g1",
        created_ms=MADE_MS,
        expires_ms=EXPIRES_MS,
    )


def test_pending_until_the_last_millisecond_then_expired():
    made = challenge()
    assert made.status_at(MADE_MS) == "pending"
    assert made.status_at(EXPIRES_MS - 1) == "pending"
    assert made.status_at(EXPIRES_MS) == "expired"
    # The game is named only once accepted.
    assert made.view(MADE_MS)["game"] is None
    assert made.view(EXPIRES_MS)["status"] == "expired"


def test_accept_then_nothing_else_ends_it():
    made = challenge()
    after = accepted(made, EXPIRES_MS - 1, BOB, "hash-of-bob-seat-token")
    assert after.status == "accepted" and after.acceptor == BOB
    assert after.acceptor_hash == "hash-of-bob-seat-token"
    assert after.view(EXPIRES_MS - 1)["game"] == "g1"
    # An accepted challenge never expires: its status stays, past the expiry too.
    assert after.status_at(EXPIRES_MS + 1) == "accepted"
    for change in (
        lambda: declined(after, MADE_MS + 5, BOB.player_id, "later"),
        lambda: withdrawn(after, MADE_MS + 5, ANN.player_id),
        lambda: accepted(after, MADE_MS + 5, BOB, "another hash"),
    ):
        with pytest.raises(ChallengeNotPending) as refused:
            change()
        assert refused.value.status == "accepted"


def test_decline_keeps_its_reason_and_refuses_a_later_accept():
    after = declined(challenge(), MADE_MS + 10, BOB.player_id, "too_slow")
    assert (after.status, after.decline_reason) == ("declined", "too_slow")
    assert after.view(MADE_MS + 10)["decline_reason"] == "too_slow"
    with pytest.raises(ChallengeNotPending) as refused:
        accepted(after, MADE_MS + 20, BOB, "h")
    assert refused.value.status == "declined"


def test_withdraw_by_the_challenger_only():
    made = challenge()
    with pytest.raises(NotYourChallenge):
        withdrawn(made, MADE_MS, BOB.player_id)
    after = withdrawn(made, MADE_MS, ANN.player_id)
    assert after.status == "cancelled"
    with pytest.raises(ChallengeNotPending) as refused:
        accepted(after, MADE_MS, BOB, "h")
    assert refused.value.status == "cancelled"


def test_expiry_wins_over_every_change_at_or_after_it():
    made = challenge()
    for change in (
        lambda: accepted(made, EXPIRES_MS, BOB, "h"),
        lambda: declined(made, EXPIRES_MS, BOB.player_id, "generic"),
        lambda: withdrawn(made, EXPIRES_MS + 1, ANN.player_id),
    ):
        with pytest.raises(ChallengeNotPending) as refused:
            change()
        assert refused.value.status == "expired"
    # Refusals change nothing: still pending just before its time.
    assert made.status == "pending" and made.status_at(EXPIRES_MS - 1) == "pending"


def test_who_may_answer_a_named_challenge():
    made = challenge(BOB)
    with pytest.raises(NotYourChallenge):
        accepted(made, MADE_MS, CARL, "h")
    with pytest.raises(NotYourChallenge):
        accepted(made, MADE_MS, GUEST, "h")
    with pytest.raises(NotYourChallenge):
        declined(made, MADE_MS, CARL.player_id, "generic")
    with pytest.raises(NotYourChallenge):
        declined(made, MADE_MS, ANN.player_id, "generic")


def test_an_open_challenge_is_anyones_but_its_challengers_and_nobody_declines_it():
    made = challenge(None)
    with pytest.raises(TargetsSelf):
        accepted(made, MADE_MS, ANN, "h")
    with pytest.raises(NotYourChallenge):
        declined(made, MADE_MS, CARL.player_id, "generic")
    by_guest = accepted(made, MADE_MS, GUEST, "h")
    assert by_guest.status == "accepted" and by_guest.acceptor == GUEST
    # The first accept won: Carl's, judged on what is stored now, is refused.
    with pytest.raises(ChallengeNotPending):
        accepted(by_guest, MADE_MS + 1, CARL, "h2")


def test_a_rated_open_challenge_needs_a_player():
    made = challenge(None, rated=True)
    with pytest.raises(PlayerRequired):
        accepted(made, MADE_MS, GUEST, "h")
    assert accepted(made, MADE_MS, CARL, "h").acceptor == CARL


def test_the_stored_text_gives_back_the_same_challenge():
    for value in (
        challenge(),
        challenge(None, rated=True),
        accepted(challenge(None), MADE_MS, GUEST, "h"),
        declined(challenge(), MADE_MS, BOB.player_id, "casual"),
    ):
        assert Challenge.decode(value.encode()) == value
