"""/play shows a bot account as a bot (issue 40): a BOT badge, with a spoken label, wherever the bot is named
(its challenge, its seat, the turn line, the result, the games being played, its profile), never beside
the person it plays; in English and in Spanish.

A real headless Chromium against the service under gunicorn with a bot
worker (tests/browser/conftest.py). The bot account plays through the API,
as an outside engine does; the person, through the page.
"""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from service.site.players import new_player
from service.storage import open_storage

from .browser import console_errors
from .player import become_player, body, wait


def bot_account(redis_url: str, name: str) -> tuple[str, str]:
    """A bot account's id and token.

    Made in the store: `POST /players {"name", "bot": true}` comes with the
    rules of bot accounts (issue 40's other half); once it is on main, this
    is that request.
    """
    record, token = new_player(name, bot=True)
    storage = open_storage(redis_url)
    try:
        assert storage.players.create(record.id, record.encode())
    finally:
        storage.close()
    return record.id, token


def badges(element) -> list[tuple[str, str | None]]:
    """The BOT badges inside `element`: (text, spoken label) each."""
    return [
        (badge.text, badge.get_attribute("aria-label"))
        for badge in element.find_elements(By.CSS_SELECTOR, ".bot-badge")
    ]


def seat_titles(driver) -> list:
    return [driver.find_element(By.CSS_SELECTOR, f"#quilts .seat-{seat} h3") for seat in (0, 1)]


def shown_text(driver, element_id: str):
    """The element once the page has written something in it."""
    return wait(
        driver,
        lambda d: d.find_element(By.ID, element_id).text and d.find_element(By.ID, element_id),
        f"nothing shown in #{element_id}",
    )


def post(url: str, token: str, json: dict | None = None) -> dict:
    answer = requests.post(url, json=json, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


ENGLISH_BADGE = [("BOT", "bot account")]


def test_a_person_plays_a_bot_account_and_only_the_bots_name_is_badged(browser, play_backend):
    base = play_backend.web.url
    ann = become_player(browser, base, "Ann")
    bot_id, bot_token = bot_account(play_backend.redis_url, "Stitcher")
    # The bot challenges Ann, casual, no clock, and starts.
    post(f"{base}/challenges", bot_token, {"to": ann["id"], "seat": 0})
    # Read afresh: Ann's player stream may not have been open yet when the challenge came.
    browser.refresh()
    incoming = wait(
        browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, "#challenges li.incoming"),
        "the bot's challenge never reached Ann's lobby",
    )
    assert incoming[0].text.startswith("Stitcher (1500) BOT challenges you")
    assert badges(incoming[0]) == ENGLISH_BADGE
    incoming[0].find_element(By.CSS_SELECTOR, "button.accept").click()

    # The game: the bot's seat is badged, Ann's is not; the bot is thinking, as a level's seat would be.
    wait(browser, lambda d: body(d, "state") == "theirs", "the game with the bot did not open")
    game_id = browser.current_url.split("game=")[1].split("&")[0]
    bots_seat, anns_seat = seat_titles(browser)
    assert bots_seat.text == "Stitcher BOT" and badges(bots_seat) == ENGLISH_BADGE
    assert anns_seat.text == "Ann (you)" and badges(anns_seat) == []
    status = browser.find_element(By.ID, "status")
    assert status.text == "Stitcher BOT is thinking…" and badges(status) == ENGLISH_BADGE
    thinking = browser.find_elements(By.CSS_SELECTOR, "#quilts .thinking")
    assert [element.find_element(By.XPATH, "..").get_attribute("class") for element in thinking] == [
        "player seat-0 in-turn"
    ]
    # The people in the game, each a link to their profile: Ann may challenge the bot again from here.
    people = shown_text(browser, "game-people")
    assert people.text == "Stitcher BOT Challenge Ann" and badges(people) == ENGLISH_BADGE
    # The bot account's seat is no level: the page never asks the service's bots about it.
    game = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    assert [player["bot"] for player in game["players"]] == [True, None]

    # The games being played, and the two profiles.
    browser.get(f"{base}/play#watch")
    entry = wait(
        browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, f'#active-games li[data-game="{game_id}"]'),
        "the game is not among those being played",
    )[0]
    assert entry.text.startswith("Stitcher (1500) BOT v Ann (1500)") and badges(entry) == ENGLISH_BADGE
    browser.get(f"{base}/play#player={bot_id}")
    name = shown_text(browser, "profile-name")
    assert name.text == "Stitcher BOT" and badges(name) == ENGLISH_BADGE
    browser.get(f"{base}/play#player={ann['id']}")
    wait(browser, lambda d: d.find_element(By.ID, "profile-name").text == "Ann", "no profile of Ann")
    assert badges(browser.find_element(By.ID, "profile")) == []

    # Back to the game: the bot moves through the API, as its engine would, and it is Ann's turn.
    browser.get(f"{base}/play#game={game_id}&as=player")
    wait(browser, lambda d: body(d, "state") == "theirs", "the game did not open again")
    post(f"{base}/games/{game_id}/moves", bot_token, {"action": "advance"})
    wait(browser, lambda d: body(d, "state") == "mine", "Ann never had her turn")
    assert badges(browser.find_element(By.ID, "status")) == []
    assert browser.find_elements(By.CSS_SELECTOR, "#quilts .thinking") == []

    # In Spanish: the badge's spoken label is translated, and still only the bot's seat has one.
    Select(browser.find_element(By.ID, "language")).select_by_value("es")
    wait(browser, lambda d: d.find_element(By.ID, "resign").text == "Abandonar", "the page stayed in English")
    spanish_badge = [("BOT", "cuenta de bot")]
    bots_seat, anns_seat = seat_titles(browser)
    assert badges(bots_seat) == spanish_badge and badges(anns_seat) == []
    assert badges(browser.find_element(By.ID, "status")) == []
    # Ann gives up: the result names the winner, the bot, badged.
    post(f"{base}/games/{game_id}/resign", ann["token"])
    wait(browser, lambda d: body(d, "state") == "over", "the end never came")
    result = browser.find_element(By.ID, "result")
    # The name where the Spanish sentence puts it, the badge after it.
    assert result.text.startswith("Gana Stitcher BOT: ") and result.text.endswith("(por abandono).")
    assert badges(result) == spanish_badge
    assert console_errors(browser) == []
