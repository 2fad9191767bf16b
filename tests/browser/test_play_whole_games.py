"""Whole games on /play against the `random` bot, at a phone's size (390x844) and a desktop's (1280x800):
one played by touch only (taps, through WebDriver's touch pointer), one by the keyboard only.

Each move is the cheapest to find: the first patch one can buy, aimed where it
first fits, else Advance (always legal). Screenshots of the game in progress
(a preview shown) and over go to test-artifacts/whole-games/, failed or not.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from .browser import console_errors
from .conftest import ARTIFACTS
from .player import body, setup_form, version, wait, wait_for_turn_or_end, wait_for_version

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
SHOTS = ARTIFACTS / "whole-games"
MOVES_BOUND = 200
# Sequential focus: more Tab presses than the page has controls before the one sought is a miss.
TABS_BOUND = 80


def screenshot(driver, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def start_against_random(driver, base: str, size: str) -> None:
    driver.set_window_size(*SIZES[size])
    driver.get(f"{base}/play")
    Select(setup_form(driver)).select_by_value("random")
    driver.find_element(By.ID, "start").click()
    wait_for_version(driver, 1)


def no_overflow(driver) -> None:
    width = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert width == 0, f"the page is {width} px wider than the window"


def rect(driver, css: str) -> dict:
    return driver.execute_script(
        "return document.querySelector(arguments[0]).getBoundingClientRect().toJSON()", css
    )


def check_layout(driver, size: str) -> None:
    """The market just above the player's quilt (a phone) or beside it; the track's spaces readable."""
    no_overflow(driver)
    market, mine = rect(driver, "#market-box"), rect(driver, '.player[data-place="first"]')
    if size == "phone":
        assert 0 <= mine["top"] - market["bottom"] < 40, (market, mine)
    else:
        assert market["left"] >= mine["right"] and market["top"] < mine["bottom"], (market, mine)
    space = rect(driver, ".track .space")
    assert space["width"] >= 20, f"a time track space is {space['width']:.1f} px wide"


# ---- touch ----


def tap(driver, element) -> None:
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to(element).pointer_down().pointer_up()
    actions.perform()


def touch_move(driver, shot: str | None) -> bool:
    """One move by taps; `shot` names a screenshot of its preview. True if a preview was shown."""
    before = version(driver)
    if body(driver, "phase") == "place_leather":
        cells = wait(
            driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".quilt.mine .cell.legal"), "no leather cell"
        )
        tap(driver, cells[0])
    else:
        buyable = driver.find_elements(By.CSS_SELECTOR, "#market .patch.buyable")
        if not buyable:
            tap(driver, driver.find_element(By.ID, "advance"))
            wait_for_version(driver, before + 1)
            return False
        tap(driver, buyable[0])
        wait(
            driver,
            lambda d: (
                d.find_elements(By.CSS_SELECTOR, ".quilt.mine .cell.anchor")
                or d.find_element(By.ID, "message").is_displayed()
            ),
            "picking a patch showed nothing",
        )
        anchors = driver.find_elements(By.CSS_SELECTOR, ".quilt.mine .cell.anchor")
        if not anchors:  # it fits nowhere
            tap(driver, driver.find_element(By.ID, "advance"))
            wait_for_version(driver, before + 1)
            return False
        tap(driver, anchors[0])
    # A tap only previews: nothing is played until Confirm.
    confirm = wait(
        driver,
        lambda d: d.find_element(By.ID, "confirm").is_displayed() and d.find_element(By.ID, "confirm"),
        "no Confirm",
    )
    assert driver.find_elements(By.CSS_SELECTOR, ".quilt.mine .cell.preview"), "a tap showed no preview"
    assert version(driver) == before, "a tap played the move without a confirm"
    if shot:
        screenshot(driver, shot)
    tap(driver, confirm)
    wait_for_version(driver, before + 1)
    return True


@pytest.mark.parametrize("size", SIZES)
def test_a_whole_game_by_touch(browser, play_backend, size):
    start_against_random(browser, play_backend.web.url, size)
    previewed = 0
    for number in range(MOVES_BOUND):
        if wait_for_turn_or_end(browser) == "over":
            break
        if number == 0:
            check_layout(browser, size)
        previewed += touch_move(browser, f"touch-{size}-preview" if previewed == 0 else None)
    assert previewed > 0, "no patch was ever placed"
    assert body(browser, "state") == "over"
    assert browser.find_element(By.ID, "result").is_displayed()
    no_overflow(browser)
    screenshot(browser, f"touch-{size}-over")
    assert console_errors(browser) == []


# ---- keyboard ----


def focused(driver, css: str) -> bool:
    return driver.execute_script("return document.activeElement?.matches(arguments[0]) ?? false", css)


def tab_to(driver, css: str) -> None:
    """Press Tab until the focus is on an element matching `css`."""
    for _ in range(TABS_BOUND):
        if focused(driver, css):
            return
        driver.switch_to.active_element.send_keys(Keys.TAB)
    raise AssertionError(f"Tab never reached {css}")


def key(driver, *keys: str) -> None:
    driver.switch_to.active_element.send_keys(*keys)


def keyboard_move(driver, shot: bool) -> None:
    before = version(driver)
    if body(driver, "phase") == "place_leather":
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".quilt.mine[tabindex]"), "no leather to aim")
        tab_to(driver, ".quilt.mine")
    else:
        if not driver.find_elements(By.CSS_SELECTOR, "#market .patch.buyable"):
            tab_to(driver, "#advance")
            key(driver, Keys.ENTER)
            wait_for_version(driver, before + 1)
            return
        tab_to(driver, "#market .patch.buyable")
        key(driver, Keys.ENTER)
        # Picked, the patch is aimed from the quilt, which takes the focus.
        wait(
            driver,
            lambda d: focused(d, ".quilt.mine") or d.find_element(By.ID, "message").is_displayed(),
            "the quilt took no focus",
        )
        if not focused(driver, ".quilt.mine"):  # it fits nowhere
            tab_to(driver, "#advance")
            key(driver, Keys.ENTER)
            wait_for_version(driver, before + 1)
            return
        key(driver, "r")  # rotated: the focus stays on the quilt
        wait(driver, lambda d: focused(d, ".quilt.mine"), "rotating lost the focus")
    key(driver, Keys.ARROW_RIGHT)  # the first arrow shows the patch where it first fits
    wait(
        driver,
        lambda d: d.find_elements(By.CSS_SELECTOR, ".quilt.mine .cell.preview"),
        "no preview from the keys",
    )
    if shot:
        screenshot(driver, "keyboard-preview")
    assert version(driver) == before
    key(driver, Keys.ENTER)
    wait_for_version(driver, before + 1)


@pytest.mark.parametrize("size", SIZES)
def test_a_whole_game_by_keyboard(browser, play_backend, size):
    start_against_random(browser, play_backend.web.url, size)
    for number in range(MOVES_BOUND):
        if wait_for_turn_or_end(browser) == "over":
            break
        keyboard_move(browser, shot=number == 0 and size == "desktop")
    assert body(browser, "state") == "over"
    assert browser.find_element(By.ID, "result").is_displayed()
    # The result was said in the live region.
    wait(
        browser,
        lambda d: (
            d.find_element(By.ID, "announcer").get_attribute("textContent")
            == d.find_element(By.ID, "result").text
        ),
        "the result was not announced",
    )
    screenshot(browser, f"keyboard-{size}-over")
    assert console_errors(browser) == []
