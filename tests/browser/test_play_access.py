"""/play held to WCAG 2.1 AA by axe-core in Chromium, view by view, at a phone's and a desktop's size.

The views: the new-game form, the lobby, a game in progress (a patch chosen,
its placements offered), a finished game, its analysis, and the rules page
the navigation links to. Each must show 0 violations of axe-core's rules
tagged wcag2a, wcag2aa, wcag21a and wcag21aa.
"""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By

from .axe import violations
from .browser import console_errors
from .finished_games import ANALYSIS_BOUND, finished_game
from .player import body, setup_form, wait, wait_for_version

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def checked(driver, view: str) -> None:
    found = violations(driver)
    assert found == [], f"{view}: " + "\n".join(found)


@pytest.mark.parametrize("size", SIZES)
def test_every_play_view_has_no_wcag_violation(browser, play_backend, size):
    base = play_backend.web.url
    browser.set_window_size(*SIZES[size])
    browser.get(f"{base}/play")
    setup_form(browser)
    checked(browser, "new game")

    browser.get(f"{base}/play#lobby")
    wait(browser, lambda d: d.find_element(By.ID, "become").is_displayed(), "no lobby")
    checked(browser, "lobby")

    created = requests.post(
        f"{base}/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]}, timeout=10
    ).json()
    browser.get(f"{base}/play#game={created['game']['id']}&token={created['tokens'][0]}")
    wait_for_version(browser, 1)
    wait(browser, lambda d: body(d, "state") == "mine", "our turn never came")
    browser.find_element(By.CSS_SELECTOR, "#market .patch.buyable").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".quilt .cell.anchor"), "no placement offered")
    checked(browser, "a game in progress")

    game_id, tokens = finished_game(base, seed=7, moves=6)
    browser.get(f"{base}/play#game={game_id}&token={tokens[0]}")
    wait(browser, lambda d: body(d, "state") == "over", "the game is not shown over")
    checked(browser, "a finished game")

    browser.find_element(By.ID, "analyse").click()
    wait(
        browser,
        lambda d: (
            d.find_elements(By.CSS_SELECTOR, "#analysis-chart svg")
            and d.find_elements(By.CSS_SELECTOR, "#analysis-board svg")
        ),
        "the analysis never came",
        ANALYSIS_BOUND,
    )
    checked(browser, "analysis")
    assert console_errors(browser) == []

    browser.get(f"{base}/rules")
    checked(browser, "rules")
