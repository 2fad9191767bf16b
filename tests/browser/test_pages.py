"""/docs and /play in a real headless Chromium: what renders, what is played, what is requested.

/play is driven by clicks as a person plays; the service runs under
gunicorn on real Redis with a real bot worker (bots think 20 ms).
"""

from __future__ import annotations

import os
import random
import re
import signal
from urllib.parse import urlsplit

import requests
import yaml
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from service.api.contract.spec import HTTP_METHODS
from tests.support.bot_workers import wait_for
from tests.support.live_service import LiveService

from .browser import console_errors, requested_urls
from .player import body, play_one_move, setup_form, version, wait, wait_for_turn_or_end, wait_for_version

# A whole game against `random` is 30 to 60 moves of ours; a bound that only a hang meets.
MOVES_BOUND = 200


def only_from(base: str, urls: list[str]) -> list[str]:
    """The requested network URLs that are not the service's.

    data: URLs (Swagger UI's icons) fetch nothing; chrome:// ones are the
    browser's own new-tab page, opened before the test navigates.
    """
    network = [url for url in urls if urlsplit(url).scheme in ("http", "https", "ws", "wss")]
    assert network, "no request logged: the performance log is not being read"
    return [url for url in network if not url.startswith(base + "/")]


def test_docs_renders_every_operation_with_no_console_error(browser, play_backend):
    base = play_backend.web.url
    browser.get(f"{base}/docs")
    spec = yaml.safe_load(requests.get(f"{base}/openapi.yaml", timeout=10).text)
    expected = {
        f"{method.upper()} {path}"
        for path, item in spec["paths"].items()
        for method in item
        if method in HTTP_METHODS
    }
    # Swagger UI draws the list tag by tag; an operation under two tags is listed twice.
    listed = wait(
        browser,
        lambda d: _listed_operations(d) >= expected and _listed_operations(d),
        "Swagger UI did not list every operation",
    )
    assert listed == expected
    assert console_errors(browser) == []
    assert only_from(base, requested_urls(browser)) == []


def _listed_operations(driver) -> set[str]:
    return {
        " ".join(
            block.get_attribute("textContent")
            for block in op.find_elements(By.CSS_SELECTOR, ".opblock-summary-method, .opblock-summary-path")
        )
        for op in driver.find_elements(By.CSS_SELECTOR, ".opblock")
    }


def watch_status(driver) -> None:
    """Record every status line the page shows (the bot's thinking lasts milliseconds)."""
    driver.execute_script("""
        window.statusSeen = [];
        const status = document.getElementById('status');
        new MutationObserver(() => window.statusSeen.push(status.textContent))
            .observe(status, {childList: true, characterData: true, subtree: true});""")


def test_play_a_whole_game_against_the_random_bot(browser, play_backend):
    base = play_backend.web.url
    browser.get(f"{base}/play")
    Select(setup_form(browser)).select_by_value("random")
    watch_status(browser)
    browser.find_element(By.ID, "start").click()
    wait_for_version(browser, 1)
    assert "#game=" in browser.current_url and "token=" in browser.current_url
    rng = random.Random(12)
    for _ in range(MOVES_BOUND):
        if wait_for_turn_or_end(browser) == "over":
            break
        play_one_move(browser, rng)
    assert body(browser, "state") == "over"
    result = browser.find_element(By.ID, "result")
    assert result.is_displayed() and " to " in result.text
    game_id = browser.current_url.split("#game=")[1].split("&")[0]
    game = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    assert game["status"] == "finished" and version(browser) == game["version"]
    # Every move appears in the log, the bot's pushed through the stream.
    assert len(browser.find_elements(By.CSS_SELECTOR, "#log li")) == game["moves_played"]
    assert any("is thinking" in text for text in browser.execute_script("return window.statusSeen"))
    # Opened again by a watcher's link, the finished game shows its whole log, newest first:
    # the stream sends no moves from before its snapshot, the history does.
    browser.get("about:blank")
    browser.get(f"{base}/play#game={game_id}")
    wait_for_version(browser, game["version"])
    everything = list(range(game["moves_played"], 0, -1))
    wait(
        browser,
        lambda d: (
            [int(li.get_attribute("value")) for li in d.find_elements(By.CSS_SELECTOR, "#log li")]
            == everything
        ),
        "the reopened game's log does not list its moves",
    )
    assert console_errors(browser) == []
    assert only_from(base, requested_urls(browser)) == []


def test_two_tabs_play_each_other_and_see_each_others_moves(browser, play_backend):
    base = play_backend.web.url
    browser.get(f"{base}/play")
    Select(setup_form(browser)).select_by_value("")
    browser.find_element(By.ID, "start").click()
    invite = wait(
        browser, lambda d: d.find_element(By.ID, "invite-link").get_attribute("value"), "no invite link"
    )
    assert "token=" in invite.split("#", 1)[1]
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(invite)
    second = browser.current_window_handle
    # The guest is asked for a name first (the host's suggestion prefilled) and keeps it.
    wait(
        browser, lambda d: d.find_element(By.ID, "guest").is_displayed(), "the guest was not asked for a name"
    )
    browser.find_element(By.ID, "guest-join").click()
    wait_for_version(browser, 1)
    rng = random.Random(3)
    tabs = {0: first, 1: second}
    for number in range(1, 9):
        browser.switch_to.window(first)
        seat = requests.get(f"{base}/games/{invite.split('game=')[1].split('&')[0]}", timeout=10).json()[
            "turn"
        ]
        mover, other = tabs[seat], tabs[1 - seat]
        browser.switch_to.window(mover)
        wait_for_version(browser, number)
        assert body(browser, "state") == "mine"
        play_one_move(browser, rng)
        browser.switch_to.window(other)
        # The other tab learns the move from its event stream, and logs it.
        wait_for_version(browser, number + 1)
        wait(
            browser,
            lambda d: d.find_elements(By.CSS_SELECTOR, f'#log li[data-number="{number}"]'),
            f"move {number} not in the other tab's log",
        )
    for handle in (first, second):
        browser.switch_to.window(handle)
        assert console_errors(browser) == []
    assert only_from(base, requested_urls(browser)) == []


def advance_in_turn(base: str, game_id: str, tokens: list[str]) -> None:
    """The seat in turn makes a legal move: advance, or its leather patch on the first free cell."""
    game = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    move = {"action": "advance"}
    if game["phase"] == "place_leather":
        move = requests.get(f"{base}/games/{game_id}/legal-moves", timeout=10).json()["moves"][0]
    answer = requests.post(
        f"{base}/games/{game_id}/moves",
        json=move,
        timeout=10,
        headers={"Authorization": f"Bearer {tokens[game['turn']]}"},
    )
    assert answer.status_code == 201, answer.text


def open_game_tab(browser, base: str) -> tuple[str, list[str]]:
    """A game of two people, open in /play as the second seat, its snapshot shown: (id, tokens)."""
    created = requests.post(
        f"{base}/games", json={"players": [{"name": "Ann"}, {"name": "Bea"}]}, timeout=10
    ).json()
    game_id, tokens = created["game"]["id"], created["tokens"]
    browser.get(f"{base}/play#game={game_id}&token={tokens[1]}")
    wait_for_version(browser, 1)
    return game_id, tokens


def logged_moves(browser) -> set[int]:
    """The numbers of the moves the page's log shows (each logged from a move event)."""
    return {
        int(n)
        for n in (e.get_attribute("data-number") for e in browser.find_elements(By.CSS_SELECTOR, "#log li"))
    }


def test_a_tab_catches_up_after_the_service_restarted(browser, play_backend):
    """The service is killed under an open stream; moves go on through another instance; the tab catches up."""
    web = play_backend.web
    game_id, tokens = open_game_tab(browser, web.url)
    for _ in range(2):
        advance_in_turn(web.url, game_id, tokens)
    wait_for_version(browser, 3)
    assert console_errors(browser) == []

    with LiveService(play_backend.redis_url, play_backend.log_dir / "other.log", workers=1) as other:
        web.close()  # SIGTERM: the service ends its streams and stops
        for _ in range(3):
            advance_in_turn(other.url, game_id, tokens)
        assert version(browser) == 3
        web.start()  # the same port, the same Redis
        wait_for_version(browser, 6)
    # Caught up through the stream's move events (a snapshot would log nothing).
    logged = logged_moves(browser)
    assert logged == {1, 2, 3, 4, 5}
    # While the service was down the browser's reconnects failed: those are the only errors.
    errors = console_errors(browser)
    assert all(f"/games/{game_id}/events" in e and "net::ERR_CONNECTION_REFUSED" in e for e in errors), errors
    assert only_from(web.url, requested_urls(browser)) == []
    wait_for(lambda: web.process.poll() is None, 1, "the restarted service died")


def _events_answered(base: str, status: int) -> float:
    """How many event streams the service has answered `status` since it started (from /metrics)."""
    text = requests.get(f"{base}/metrics", timeout=10).text
    found = re.search(
        rf'^patchwork_http_requests_total\{{method="GET",route="/games/<game_id>/events",status="{status}"\}} (\S+)$',
        text,
        re.M,
    )
    return float(found.group(1)) if found else 0.0


def test_a_tab_starts_its_stream_over_after_a_503(browser, play_backend):
    """A stream refused 503 (the store down) makes EventSource give up for good; /play opens a new one,
    with backoff and ?last_event_id=, and catches up once the store is back."""
    web = play_backend.web
    game_id, tokens = open_game_tab(browser, web.url)
    advance_in_turn(web.url, game_id, tokens)
    wait_for_version(browser, 2)

    redis_pid = play_backend.redis.pid
    assert redis_pid is not None
    os.kill(redis_pid, signal.SIGSTOP)  # hung: every store call times out (503)
    try:
        web.close()  # the open stream ends; the browser reconnects by itself...
        web.start()  # ...to a service whose store does not answer: 503, and EventSource gives up
        wait_for(lambda: _events_answered(web.url, 503) >= 1, 30, f"no stream refused 503:\n{web.log()}")
    finally:
        os.kill(redis_pid, signal.SIGCONT)
    for _ in range(2):
        advance_in_turn(web.url, game_id, tokens)
    wait(browser, lambda d: version(d) >= 4, "the tab never opened its stream again", bound=60)
    logged = logged_moves(browser)
    assert logged == {1, 2, 3}  # caught up through the missed moves' events, resumed after version 2


def test_an_event_source_on_a_finished_game_stops_after_its_end(browser, play_backend):
    """A plain EventSource reconnects whenever a stream ends; resuming at the finished game's last
    version is answered 204, on which it stops for good (it used to get `end` again, for ever)."""
    base = play_backend.web.url
    created = requests.post(f"{base}/games", json={}, timeout=10).json()
    game_id, seat = created["game"]["id"], created["game"]["turn"]
    resigned = requests.post(
        f"{base}/games/{game_id}/resign",
        headers={"Authorization": f"Bearer {created['tokens'][seat]}"},
        timeout=10,
    )
    assert resigned.status_code == 201, resigned.text
    browser.get(f"{base}/play")
    browser.execute_script(
        """
        window.seen = [];
        window.source = new EventSource(`/games/${arguments[0]}/events`);
        for (const type of ["game", "move", "end"]) {
          source.addEventListener(type, (e) => seen.push([type, e.lastEventId]));
        }
        """,
        game_id,
    )
    wait(
        browser, lambda d: d.execute_script("return source.readyState") == 2, "EventSource still reconnecting"
    )
    final = resigned.headers["ETag"].strip('"')
    assert browser.execute_script("return seen") == [["game", final], ["end", final]]
    # The first connection streamed the snapshot and its end; the reconnect, with Last-Event-ID, got 204.
    assert (_events_answered(base, 200), _events_answered(base, 204)) == (1, 1)


def clock_texts(driver) -> list[str]:
    return [driver.find_element(By.ID, f"clock-{seat}").text for seat in (0, 1)]


def test_play_offers_a_clock_and_counts_the_running_seat_down(browser, play_backend):
    base = play_backend.web.url
    browser.get(f"{base}/play")
    setup_form(browser)
    Select(browser.find_element(By.ID, "opponent")).select_by_value("")  # a friend: nobody moves for seat 1
    Select(browser.find_element(By.ID, "clock")).select_by_value("rt:180:2")
    browser.find_element(By.ID, "start").click()
    wait_for_version(browser, 1)
    game_id = browser.current_url.split("#game=")[1].split("&")[0]
    game = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    assert game["clock"]["initial_s"] == 180 and game["clock"]["increment_s"] == 2
    # Before the first move no bank runs: both show the whole 3 minutes.
    wait(browser, lambda d: clock_texts(d) == ["3:00", "3:00"], f"clocks show {clock_texts(browser)}")
    browser.find_element(By.ID, "advance").click()
    wait_for_version(browser, 2)
    # Seat 0 earned its increment; seat 1's bank runs down in the page with no new version.
    wait(
        browser,
        lambda d: d.find_element(By.ID, "clock-0").text == "3:02",
        f"clocks show {clock_texts(browser)}",
    )
    wait(
        browser,
        lambda d: d.find_element(By.ID, "clock-1").text in ("2:58", "2:57"),
        "seat 1's clock did not run",
    )
    assert "running" in browser.find_element(By.ID, "clock-1").get_attribute("class")
    assert version(browser) == 2
    assert console_errors(browser) == []


def test_a_player_opens_a_game_in_the_lobby_plays_the_joiner_and_offers_a_rematch_taken_up(
    browser, play_backend
):
    base = play_backend.web.url
    browser.get(f"{base}/play#lobby")
    wait(browser, lambda d: d.find_element(By.ID, "become").is_displayed(), "no lobby")
    assert "localStorage" in browser.find_element(By.CSS_SELECTOR, "#lobby .note").text
    name = browser.find_element(By.ID, "player-name")
    name.clear()
    name.send_keys("Ann")
    browser.find_element(By.CSS_SELECTOR, "#become button").click()
    wait(browser, lambda d: "You play as Ann" in d.find_element(By.ID, "who").text, "not a player")
    token = browser.execute_script("return localStorage.getItem('patchwork.playerToken')")
    assert token and token not in browser.current_url
    browser.find_element(By.ID, "open-game").click()
    wait(browser, lambda d: "as=player" in d.current_url, "the opened game is not shown")
    game_id = browser.current_url.split("game=")[1].split("&")[0]
    wait(browser, lambda d: "opponent" in d.find_element(By.ID, "status").text, "not waiting for a joiner")
    # The page reads the game again while the seat is open: Bob joins once it
    # has read it at least once, so the browser holds the open game's version 1
    # (ETag "1") and asks again with If-None-Match: a join keeps the version.
    polled = f"return performance.getEntriesByType('resource').filter(e => e.name.endsWith('/games/{game_id}')).length"
    wait(browser, lambda d: d.execute_script(polled) >= 1, "the page never read the open game again")
    # It is in the lobby; Bob joins it through the API.
    lobby = requests.get(f"{base}/games", params={"status": "open"}, timeout=10).json()["games"]
    assert game_id in [entry["id"] for entry in lobby]
    bob = requests.post(f"{base}/players", json={"name": "Bob"}, timeout=10).json()
    joined = requests.post(
        f"{base}/games/{game_id}/join", headers={"Authorization": f"Bearer {bob['token']}"}, timeout=10
    )
    assert joined.status_code == 201, joined.text
    # Ann (seat 0) starts: her page sees the joiner and her turn (it is her
    # turn while the seat is open too, so the status is what tells).
    wait(
        browser,
        lambda d: "Your turn" in d.find_element(By.ID, "status").text,
        "the host never saw the joiner",
    )
    assert body(browser, "state") == "mine"
    browser.find_element(By.ID, "resign").click()
    browser.switch_to.alert.accept()
    rematch = wait(browser, lambda d: d.find_element(By.ID, "rematch").is_displayed(), "no rematch button")
    assert rematch
    browser.find_element(By.ID, "rematch").click()
    # A rematch is an offer (issue 38): Ann waits for Bob's answer, and Bob accepts it.
    wait(browser, lambda d: "waiting for Bob" in d.find_element(By.ID, "offer-text").text, "no offer shown")
    accepted = requests.post(
        f"{base}/games/{game_id}/rematch", headers={"Authorization": f"Bearer {bob['token']}"}, timeout=10
    )
    assert accepted.status_code == 201, accepted.text
    wait(browser, lambda d: game_id not in d.current_url, "the rematch is not shown")
    next_id = browser.current_url.split("game=")[1].split("&")[0]
    players = requests.get(f"{base}/games/{next_id}", timeout=10).json()["players"]
    assert [p["name"] for p in players] == ["Bob", "Ann"]
    assert requests.get(f"{base}/games/{game_id}", timeout=10).json()["next_game"] == next_id
    assert console_errors(browser) == []
