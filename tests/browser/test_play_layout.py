"""/play's layout at a phone's size (390x844) and a desktop's (1280x800): what shows, what fits.

Screenshots of each size go to test-artifacts/layout/, failed or not, to look at.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from .conftest import ARTIFACTS
from .player import setup_form

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
SHOTS = ARTIFACTS / "layout"


def overflow(driver) -> int:
    """How far the page is wider than the window (0: it fits)."""
    return driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def screenshot(driver, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize("size", SIZES)
def test_the_new_game_form_fits_and_asks_a_friends_name_only_of_a_friend(browser, play_backend, size):
    browser.set_window_size(*SIZES[size])
    browser.get(f"{play_backend.web.url}/play")
    opponent = Select(setup_form(browser))
    friend = browser.find_element(By.ID, "friend-name-label")
    opponent.select_by_value("random")
    assert not friend.is_displayed()
    assert overflow(browser) == 0
    width = browser.execute_script("return document.getElementById('opponent').getBoundingClientRect().right")
    assert width <= browser.execute_script("return document.documentElement.clientWidth")
    screenshot(browser, f"new-game-{size}")
    opponent.select_by_value("")
    assert friend.is_displayed()
