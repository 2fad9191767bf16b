"""The offer state machine of site/offers.py on hand-worked sequences (issue 38): no store, only the rules.

An offer stands for its kind, at the version it was made at, until its
expiry (exclusive: at `expires_at_ms` it has lapsed). Asking with none
standing offers; asking again is the same offer; the other seat's asking
accepts. Saying no: the offerer withdraws, the other declines.
"""

from __future__ import annotations

from dataclasses import replace

from service.engine import Advance, apply_move, new_game
from service.games.jsontext import parse
from service.games.records import GameRecord, Offer, Seat, create_record
from service.site.offers import REMATCH, TAKEBACK, Step, dismissal, judge, standing


def test_a_rematch_offered_asked_again_and_accepted():
    # Seat 0 asks at t=0 on the finished game at version 40: nothing stands, it offers (TTL 300 s).
    assert judge(None, REMATCH, 0, 40, 0) is Step.OFFER
    offer = Offer(REMATCH, 0, 40, 300_000)
    # Seat 0 again at t=5 s: its own offer stands.
    assert judge(offer, REMATCH, 0, 40, 5_000) is Step.PENDING
    # Seat 1 at t=299.999 s, the last millisecond: it accepts.
    assert judge(offer, REMATCH, 1, 40, 299_999) is Step.ACCEPT


def test_an_offer_lapses_at_its_expiry_and_asking_then_offers_anew():
    offer = Offer(REMATCH, 0, 40, 300_000)
    assert standing(offer, REMATCH, 40, 300_000) is None
    assert judge(offer, REMATCH, 1, 40, 300_000) is Step.OFFER
    assert judge(offer, REMATCH, 0, 40, 300_001) is Step.OFFER
    assert dismissal(offer, REMATCH, 1, 40, 300_000) is None


def test_a_takeback_offer_stands_at_its_version_only():
    offer = Offer(TAKEBACK, 1, 12, 300_000)
    assert judge(offer, TAKEBACK, 0, 12, 1_000) is Step.ACCEPT
    # A move made version 13: the offer no longer stands, so seat 0's asking is its own.
    assert standing(offer, TAKEBACK, 13, 1_000) is None
    assert judge(offer, TAKEBACK, 0, 13, 1_000) is Step.OFFER
    assert dismissal(offer, TAKEBACK, 0, 13, 1_000) is None


def test_kinds_do_not_answer_each_other():
    rematch = Offer(REMATCH, 0, 40, 300_000)
    assert judge(rematch, TAKEBACK, 1, 40, 0) is Step.OFFER
    assert dismissal(rematch, TAKEBACK, 1, 40, 0) is None
    takeback = Offer(TAKEBACK, 0, 40, 300_000)
    assert judge(takeback, REMATCH, 1, 40, 0) is Step.OFFER


def test_the_offerer_withdraws_and_the_other_declines():
    offer = Offer(TAKEBACK, 1, 7, 60_000)
    assert dismissal(offer, TAKEBACK, 1, 7, 0) == "withdrawn"
    assert dismissal(offer, TAKEBACK, 0, 7, 59_999) == "declined"
    assert dismissal(None, TAKEBACK, 0, 7, 0) is None


def test_a_whole_sequence_declined_offered_back_and_accepted():
    """Seat 0 offers a rematch, seat 1 declines; seat 1 offers in turn, seat 0 accepts."""
    now, offer = 0, None
    assert judge(offer, REMATCH, 0, 40, now) is Step.OFFER
    offer = Offer(REMATCH, 0, 40, now + 300_000)
    now = 10_000
    assert dismissal(offer, REMATCH, 1, 40, now) == "declined"
    offer = None  # the decline clears it
    now = 20_000
    assert judge(offer, REMATCH, 1, 40, now) is Step.OFFER
    offer = Offer(REMATCH, 1, 40, now + 300_000)
    assert judge(offer, REMATCH, 0, 40, 30_000) is Step.ACCEPT


def test_the_offer_is_stored_on_the_record_and_an_old_record_reads_as_none():
    record, _tokens = create_record(new_game(seed=1), (Seat("Ann"), Seat("Bob")))
    assert "offer" not in parse(record.encode()) and GameRecord.decode(record.encode()).offer is None
    offered = replace(record, offer=Offer(TAKEBACK, 1, 3, 1_234))
    assert parse(offered.encode())["offer"] == ["takeback", 1, 3, 1_234]
    assert GameRecord.decode(offered.encode()) == offered
    # A move leaves it out: the next version has no offer standing.
    assert offered.advanced(apply_move(offered.state, Advance(), 0)).offer is None
