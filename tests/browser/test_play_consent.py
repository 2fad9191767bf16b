"""/play's consent (issue 38): a challenge sent from a profile and accepted in another browser, a takeback
asked and given in a casual game, a rematch offered and declined; and the games being played, one
click from watching.

Two headless Chromiums (two profiles, so two players with their own
localStorage) against the service under gunicorn with a bot worker
(tests/browser/conftest.py); each side acts through its page's controls
only, and the outcome is read back from the API.
"""

from __future__ import annotations

import random

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from .browser import console_errors
from .player import become_player, body, play_one_move, version, wait, wait_for_version


def shown_game(driver) -> str:
    return driver.current_url.split("game=")[1].split("&")[0]


def test_a_challenge_from_a_profile_accepted_in_another_browser(browser, second_browser, play_backend):
    base = play_backend.web.url
    ann = become_player(browser, base, "Ann")
    bea = become_player(second_browser, base, "Bea")
    # Bea stays in her lobby; Ann opens Bea's profile and challenges her: 10 + 5, casual, Ann starts.
    browser.get(f"{base}/play#player={bea['id']}")
    wait(browser, lambda d: d.find_element(By.ID, "profile-name").text == "Bea", "no profile of Bea")
    browser.find_element(By.ID, "profile-challenge").click()
    wait(browser, lambda d: d.find_element(By.ID, "challenge-dialog").is_displayed(), "no challenge form")
    Select(browser.find_element(By.ID, "challenge-clock")).select_by_value("rt:600:5")
    Select(browser.find_element(By.ID, "challenge-seat")).select_by_value("0")
    assert not browser.find_element(By.ID, "challenge-rated").is_selected()
    browser.find_element(By.ID, "challenge-send").click()
    wait(
        browser,
        lambda d: not d.find_element(By.ID, "challenge-dialog").is_displayed(),
        "the form stayed open",
    )
    # Bea's lobby lists it as soon as her player stream tells of it, with no reload.
    incoming = wait(
        second_browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, "#challenges li.incoming"),
        "the challenge never reached Bea's lobby",
    )
    assert "Ann" in incoming[0].text and "10 min + 5 s a move" in incoming[0].text
    assert "Ann (1500) challenges you" in second_browser.find_element(By.ID, "notices").text
    incoming[0].find_element(By.CSS_SELECTOR, "button.accept").click()
    # Bea's page opens the new game; Ann's learns it from `game_start` and opens it too.
    wait(second_browser, lambda d: "game=" in d.current_url, "Bea's page did not open the game")
    game_id = shown_game(second_browser)
    wait(browser, lambda d: game_id in d.current_url, "Ann's page did not open the game")
    wait(browser, lambda d: body(d, "state") == "mine", "Ann (seat 0) does not have the first move")
    wait(second_browser, lambda d: body(d, "state") == "theirs", "Bea's page does not wait for Ann")
    game = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    assert [(p["name"], p["player_id"]) for p in game["players"]] == [("Ann", ann["id"]), ("Bea", bea["id"])]
    assert (game["clock"]["initial_s"], game["clock"]["increment_s"]) == (600, 5)
    assert game["rated"] is False
    # Nothing is left pending on either side.
    for token in (ann["token"], bea["token"]):
        pending = requests.get(
            f"{base}/players/me/challenges", headers={"Authorization": f"Bearer {token}"}, timeout=10
        ).json()
        assert pending["incoming"] == [] and pending["outgoing"] == []
    for driver in (browser, second_browser):
        assert console_errors(driver) == []


def test_a_declined_challenge_tells_the_challenger_why(browser, second_browser, play_backend):
    base = play_backend.web.url
    ann = become_player(browser, base, "Ann")
    bea = become_player(second_browser, base, "Bea")
    browser.get(f"{base}/play#player={bea['id']}")
    wait(browser, lambda d: d.find_element(By.ID, "profile-challenge").is_displayed(), "no challenge button")
    browser.find_element(By.ID, "profile-challenge").click()
    Select(browser.find_element(By.ID, "challenge-clock")).select_by_value("rt:180:2")
    browser.find_element(By.ID, "challenge-send").click()
    incoming = wait(
        second_browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, "#challenges li.incoming"),
        "the challenge never reached Bea's lobby",
    )
    Select(incoming[0].find_element(By.CSS_SELECTOR, "select.reason")).select_by_value("too_fast")
    incoming[0].find_element(By.CSS_SELECTOR, "button.decline").click()
    wait(
        browser,
        lambda d: "Bea declined your challenge: “Too fast for me”" in d.find_element(By.ID, "notices").text,
        "Ann was not told why",
    )
    pending = requests.get(
        f"{base}/players/me/challenges", headers={"Authorization": f"Bearer {ann['token']}"}, timeout=10
    ).json()
    assert pending["outgoing"] == []
    assert console_errors(browser) == []


def open_seat_tabs(browser, base: str, tokens: list[str], game_id: str) -> list[str]:
    """The game open in two tabs, one a seat: their window handles, by seat."""
    handles = []
    for seat, token in enumerate(tokens):
        if seat:
            browser.switch_to.new_window("tab")
        browser.get(f"{base}/play#game={game_id}&token={token}")
        wait_for_version(browser, 1)
        handles.append(browser.current_window_handle)
    return handles


def test_a_takeback_asked_and_given_in_a_casual_game(browser, play_backend):
    base = play_backend.web.url
    created = requests.post(f"{base}/games", json={"players": [{"name": "Ann"}, {"name": "Bea"}]}, timeout=10)
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["game"]["id"], created.json()["tokens"]
    ann, bea = open_seat_tabs(browser, base, tokens, game_id)
    before = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    browser.switch_to.window(ann)
    wait(browser, lambda d: body(d, "state") == "mine", "Ann (seat 0) does not start")
    play_one_move(browser, random.Random(5))
    # Ann acted last: she may ask to take it back.
    takeback = wait(
        browser,
        lambda d: d.find_element(By.ID, "takeback").is_displayed() and d.find_element(By.ID, "takeback"),
        "no takeback button",
    )
    takeback.click()
    wait(
        browser,
        lambda d: "waiting for Bea" in d.find_element(By.ID, "offer-text").text,
        "Ann's request not shown",
    )
    browser.switch_to.window(bea)
    wait_for_version(browser, 2)
    # Bea's page hears of it on the game's stream, and does not offer her a takeback of her own.
    wait(
        browser,
        lambda d: "Ann asks to take back their last move" in d.find_element(By.ID, "offer-text").text,
        "Bea was not asked",
    )
    assert not browser.find_element(By.ID, "takeback").is_displayed()
    browser.find_element(By.ID, "offer-accept").click()
    # A new version (the version only grows) whose position is the one before Ann's turn.
    wait_for_version(browser, 3)
    after = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    assert after["version"] == 3
    for field in ("turn", "phase", "circle", "market", "players"):
        assert after[field] == before[field], field
    history = requests.get(f"{base}/games/{game_id}/moves", timeout=10).json()["moves"]
    assert history[-1]["action"] == "takeback" and history[-1]["to_version"] == 1
    # The log says it in words, as the history's entry 2.
    wait(
        browser,
        lambda d: (
            d.find_element(By.CSS_SELECTOR, '#log li[data-number="2"]').text
            == "Ann took back their last turn"
        ),
        "the takeback is not in Bea's log",
    )
    browser.switch_to.window(ann)
    wait_for_version(browser, 3)
    wait(browser, lambda d: body(d, "state") == "mine", "Ann does not have her turn back")
    assert not browser.find_element(By.ID, "offer").is_displayed()
    assert not browser.find_element(By.ID, "takeback").is_displayed()
    assert version(browser) == 3
    for handle in (ann, bea):
        browser.switch_to.window(handle)
        assert console_errors(browser) == []


def test_a_rematch_offered_and_declined(browser, second_browser, play_backend):
    base = play_backend.web.url
    ann = become_player(browser, base, "Ann")
    bea = become_player(second_browser, base, "Bea")
    # Ann opens a game in the lobby, Bea joins it, Ann resigns: a finished game between two players.
    opened = requests.post(
        f"{base}/games",
        json={"players": [{"name": "Ann"}, {"open": True}]},
        headers={"Authorization": f"Bearer {ann['token']}"},
        timeout=10,
    )
    assert opened.status_code == 201, opened.text
    game_id = opened.json()["game"]["id"]
    joined = requests.post(
        f"{base}/games/{game_id}/join",
        json={},
        headers={"Authorization": f"Bearer {bea['token']}"},
        timeout=10,
    )
    assert joined.status_code == 201, joined.text
    for driver in (browser, second_browser):
        driver.get(f"{base}/play#game={game_id}&as=player")
        wait_for_version(driver, 1)
    # From the game, Ann may challenge Bea (her name links to her profile); she lets it be.
    challenge = wait(
        browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, "#game-people button.challenge"),
        "no challenge button",
    )
    assert len(challenge) == 1
    assert browser.find_element(By.CSS_SELECTOR, f'#game-people a[href="#player={bea["id"]}"]').text == "Bea"
    challenge[0].click()
    wait(
        browser, lambda d: d.find_element(By.ID, "challenge-title").text == "Challenge Bea", "no form for Bea"
    )
    browser.find_element(By.ID, "challenge-cancel").click()
    wait(
        browser,
        lambda d: not d.find_element(By.ID, "challenge-dialog").is_displayed(),
        "the form stayed open",
    )
    browser.find_element(By.ID, "resign").click()
    browser.switch_to.alert.accept()
    for driver in (browser, second_browser):
        wait(driver, lambda d: body(d, "state") == "over", "the game did not end")
    wait(browser, lambda d: d.find_element(By.ID, "rematch").is_displayed(), "no rematch button")
    browser.find_element(By.ID, "rematch").click()
    # An offer, not a game: Ann waits, and no next game exists.
    wait(
        browser,
        lambda d: "waiting for Bea" in d.find_element(By.ID, "offer-text").text,
        "Ann's offer not shown",
    )
    assert not browser.find_element(By.ID, "rematch").is_displayed()
    assert requests.get(f"{base}/games/{game_id}", timeout=10).json()["next_game"] is None
    wait(
        second_browser,
        lambda d: "Ann offers a rematch" in d.find_element(By.ID, "offer-text").text,
        "Bea was not offered the rematch",
    )
    second_browser.find_element(By.ID, "offer-decline").click()
    wait(
        second_browser,
        lambda d: not d.find_element(By.ID, "offer").is_displayed(),
        "Bea's page kept the offer",
    )
    # Ann's page learns the answer: the offer is gone, she may ask again; no game was made.
    wait(browser, lambda d: not d.find_element(By.ID, "offer").is_displayed(), "Ann's page kept the offer")
    wait(browser, lambda d: d.find_element(By.ID, "rematch").is_displayed(), "Ann may not ask again")
    assert requests.get(f"{base}/games/{game_id}", timeout=10).json()["next_game"] is None
    assert game_id in browser.current_url and game_id in second_browser.current_url
    for driver in (browser, second_browser):
        assert console_errors(driver) == []


def test_the_games_being_played_are_one_click_from_watching(browser, play_backend):
    base = play_backend.web.url
    created = requests.post(f"{base}/games", json={"players": [{"name": "Ann"}, {"name": "Bea"}]}, timeout=10)
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["game"]["id"], created.json()["tokens"]
    browser.get(f"{base}/play")
    browser.find_element(By.CSS_SELECTOR, 'nav a[href="play#watch"]').click()
    entry = wait(
        browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, f'#active-games li[data-game="{game_id}"] a'),
        "the game is not listed as being played",
    )
    assert entry[0].text == "Ann v Bea"
    entry[0].click()
    wait_for_version(browser, 1)
    # Watching: the game and its moves as they come, and nothing to play with.
    assert browser.find_element(By.ID, "status").text == "Ann to move."
    assert not browser.find_element(By.ID, "resign").is_displayed()
    # Its stream says how many streams are open on the game: this page's alone.
    wait(browser, lambda d: d.find_element(By.ID, "watchers").text == "Watching: 1", "no watchers count")
    answer = requests.post(
        f"{base}/games/{game_id}/moves",
        json={"action": "advance"},
        headers={"Authorization": f"Bearer {tokens[0]}"},
        timeout=10,
    )
    assert answer.status_code == 201, answer.text
    wait_for_version(browser, 2)
    assert console_errors(browser) == []


def test_a_challenge_by_link_accepted_by_a_guest_under_a_name(browser, second_browser, play_backend):
    base = play_backend.web.url
    become_player(browser, base, "Ann")
    browser.find_element(By.ID, "open-challenge").click()
    wait(browser, lambda d: d.find_element(By.ID, "challenge-dialog").is_displayed(), "no challenge form")
    Select(browser.find_element(By.ID, "challenge-clock")).select_by_value("")
    # No clock, so no rating at stake: the box cannot be ticked.
    assert not browser.find_element(By.ID, "challenge-rated").is_enabled()
    Select(browser.find_element(By.ID, "challenge-seat")).select_by_value("1")
    browser.find_element(By.ID, "challenge-send").click()
    link = wait(
        browser,
        lambda d: d.find_element(By.ID, "open-challenge-url").get_attribute("value"),
        "no link to share",
    )
    assert "#challenge=" in link
    # Someone who is no player here opens the link, names themself and accepts.
    second_browser.get(link)
    wait(
        second_browser,
        lambda d: (
            "Ann (1500) challenges you: no clock, casual." in d.find_element(By.ID, "challenge-text").text
        ),
        "the challenge is not shown",
    )
    name = second_browser.find_element(By.ID, "challenge-guest-name")
    name.clear()
    name.send_keys("Zoé")
    second_browser.find_element(By.ID, "challenge-accept").click()
    wait(second_browser, lambda d: "token=" in d.current_url, "the guest's page did not open the game")
    game_id = shown_game(second_browser)
    # Zoé starts (Ann chose the second seat); Ann's page hears game_start and opens the game.
    wait(second_browser, lambda d: body(d, "state") == "mine", "Zoé does not have the first move")
    wait(browser, lambda d: game_id in d.current_url, "Ann's page did not open the game")
    game = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    assert [p["name"] for p in game["players"]] == ["Zoé", "Ann"]
    assert game["clock"] is None
    # The link now says the challenge was taken.
    second_browser.get(link)
    wait(
        second_browser,
        lambda d: "It was accepted." in d.find_element(By.ID, "challenge-text").text,
        "the link does not say it was accepted",
    )
    assert not second_browser.find_element(By.ID, "challenge-accept-form").is_displayed()
    for driver in (browser, second_browser):
        assert console_errors(driver) == []
