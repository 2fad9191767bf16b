"""Steady-state browser play costs no CORS preflight per request (docs/api-guide.md#browsers-and-cors).

A page on http://localhost:<port> plays against the service on
http://127.0.0.1:<port> in headless Chromium, following the guide's
pattern; the service's access log counts the OPTIONS requests it received.
"""

from __future__ import annotations

from .browser import console_errors
from .conftest import call

POLLS = 30
MOVES = 12


def test_polling_costs_no_preflight_and_revalidates(chromium, service):
    base = service.url
    game = call(chromium, "createGame", base)
    result = call(chromium, "pollPlain", base, game["id"], POLLS)
    assert result["versions"] == [1] * POLLS
    assert service.preflights() == 0
    # The browser revalidated its copy itself: the service answered 304s.
    polls = [line for line in service.settled_log().splitlines() if f'"GET /games/{game["id"]} ' in line]
    assert len(polls) == POLLS and sum('" 304 ' in line for line in polls) == POLLS - 1
    assert console_errors(chromium) == []


def test_moves_preflight_once_per_game(chromium, service):
    base = service.url
    games = [call(chromium, "createGame", base) for _ in range(2)]
    for game in games:
        result = call(chromium, "playAdvances", base, game["id"], game["tokens"], MOVES, False)
        assert result["statuses"] == [201] * MOVES
    preflighted = [target for method, target in service.requests() if method == "OPTIONS"]
    assert preflighted == [f"/games/{game['id']}/moves" for game in games]
    assert console_errors(chromium) == []


def test_conditional_headers_make_chromium_skip_its_preflight_cache(chromium, service):
    """Why the guide advises against If-None-Match and If-Match from scripts.

    A script-set conditional header turns the request's cache mode to
    no-store, and Chromium then neither reads nor fills its preflight cache:
    one OPTIONS per request, whatever Access-Control-Max-Age says. Should a
    Chromium release change this, the guide's advice can be relaxed.
    """
    base = service.url
    game = call(chromium, "createGame", base)
    polls = call(chromium, "pollWithIfNoneMatch", base, game["id"], 10)
    assert polls["statuses"] == [200] + [304] * 9
    assert service.preflights() == 9
    moves = call(chromium, "playAdvances", base, game["id"], game["tokens"], 5, True)
    assert moves["statuses"] == [201] * 5
    assert service.preflights() == 9 + 5


def test_a_seek_is_cancelled_from_another_origin(chromium, service):
    """Issue 38: the preflight allowed GET, HEAD, POST and OPTIONS only, so Chromium refused to send
    DELETE /seeks/{id} from another origin (the fetch failed); it allows what each route accepts."""
    result = call(chromium, "seekAndCancel", service.url)
    assert result == {"statuses": [201, 200], "status": "cancelled"}
    preflighted = [(method, target) for method, target in service.requests() if method == "OPTIONS"]
    # Each request with a header of its own, preflighted once: the DELETE's too.
    assert len(preflighted) == 3 and preflighted[-1][1].startswith("/seeks/")
    assert console_errors(chromium) == []
