"""/play in the player's language, and the small things a new user met: the name field, the controls, the invite.

A real headless Chromium against the service under gunicorn with a bot
worker (tests/browser/conftest.py).
"""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from .browser import console_errors
from .player import body, setup_form, wait, wait_for_turn_or_end, wait_for_version


def _text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def test_the_switcher_translates_the_page_and_the_services_answers_and_is_kept(browser, play_backend):
    base = play_backend.web.url
    browser.get(f"{base}/play")
    setup_form(browser)
    assert _text(browser, "start") == "Start"
    Select(browser.find_element(By.ID, "language")).select_by_value("fr")
    wait(browser, lambda d: _text(d, "start") == "Commencer", "the switcher did not translate the page")
    # The name the form offers follows the language; a name the player typed would not.
    assert browser.find_element(By.ID, "name").get_attribute("value") == "Joueur 1"
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr"
    options = [option.text for option in Select(browser.find_element(By.ID, "opponent")).options]
    assert options[-1] == "Un ami (vous recevrez un lien d'invitation)"
    assert options[0].startswith("Ordinateur : ")
    assert browser.find_element(By.ID, "rules-link").get_attribute("href").endswith("/rules?lang=fr")
    # The choice outlives a reload, and the page's own texts come from the catalogue it fetched.
    browser.get(f"{base}/play")
    wait(browser, lambda d: _text(d, "start") == "Commencer", "the chosen language was not kept")
    catalogue = requests.get(f"{base}/play/messages.fr.json", timeout=10).json()
    assert catalogue["messages"]["Start"] == "Commencer"
    # The service's refusals come back in the page's language too.
    Select(setup_form(browser)).select_by_value("random")
    browser.find_element(By.ID, "start").click()
    wait_for_version(browser, 1)
    wait_for_turn_or_end(browser)
    status = _text(browser, "status")
    assert status.startswith("À vous"), status
    # Over, the page offers the rematch in French too (it was left in English).
    browser.find_element(By.ID, "resign").click()
    browser.switch_to.alert.accept()
    wait(browser, lambda d: body(d, "state") == "over", "the game did not end")
    wait(browser, lambda d: d.find_element(By.ID, "rematch").is_displayed(), "no rematch was offered")
    assert _text(browser, "rematch") == "Revanche"
    assert console_errors(browser) == []


def test_the_guest_gets_the_name_chosen_and_the_controls_are_in_view(browser, play_backend):
    base = play_backend.web.url
    browser.set_window_size(1280, 1000)
    browser.get(f"{base}/play")
    Select(setup_form(browser)).select_by_value("")
    friend = browser.find_element(By.ID, "friend-name")
    assert friend.is_displayed()
    friend.clear()
    friend.send_keys("Zoé")
    browser.find_element(By.ID, "start").click()
    wait_for_version(browser, 1)
    game_id = browser.current_url.split("#game=")[1].split("&")[0]
    game = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    assert [player["name"] for player in game["players"]] == ["Player 1", "Zoé"]
    wait(browser, lambda d: body(d, "state") == "mine", "our turn never came")
    for control in ("advance", "resign"):
        bottom = browser.execute_script(
            "return document.getElementById(arguments[0]).getBoundingClientRect().bottom", control
        )
        assert 0 < bottom <= browser.execute_script("return window.innerHeight"), control
    assert browser.find_element(By.ID, "invite").is_displayed()
    # The hourglass is drawn, not a glyph that needs an emoji font.
    assert browser.find_elements(By.CSS_SELECTOR, "#market .patch svg.hourglass")
    assert "⏱" not in _text(browser, "market")
    # Once the game is over, there is nobody left to invite.
    browser.find_element(By.ID, "resign").click()
    browser.switch_to.alert.accept()
    wait(browser, lambda d: body(d, "state") == "over", "the game did not end")
    assert not browser.find_element(By.ID, "invite").is_displayed()


def test_neighbouring_patches_are_outlined(browser, play_backend):
    base = play_backend.web.url
    browser.get(f"{base}/play")
    setup_form(browser)
    # Patches 5 and 6 side by side in the top-left corner: each outlined, the seam between them drawn.
    seams = browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        const grid = Array.from({length: 9}, () => Array(9).fill(null));
        grid[0][0] = 5; grid[0][1] = 6;
        import(arguments[0]).then((draw) => done(
            draw.drawQuilt(grid).element.querySelector("path.seams").getAttribute("d")));""",
        f"{base}/play/draw.js",
    )
    assert seams == "M0 0h20M0 20h20M0 0v20M20 0v20" + "M20 0h20M20 20h20M20 0v20M40 0v20"


def test_the_guest_of_an_invite_link_chooses_their_own_name(browser, play_backend):
    base = play_backend.web.url
    browser.get(f"{base}/play")
    Select(setup_form(browser)).select_by_value("")
    friend = browser.find_element(By.ID, "friend-name")
    friend.clear()
    friend.send_keys("Zoé")
    browser.find_element(By.ID, "start").click()
    wait_for_version(browser, 1)
    invite = browser.find_element(By.ID, "invite-link").get_attribute("value")
    game_id = invite.split("#game=")[1].split("&")[0]
    # The friend opens the link: asked for their name, the host's suggestion offered.
    browser.get("about:blank")
    browser.get(invite)
    wait(
        browser, lambda d: d.find_element(By.ID, "guest").is_displayed(), "the guest was not asked for a name"
    )
    assert not browser.find_element(By.ID, "game").is_displayed()
    name = browser.find_element(By.ID, "guest-name")
    assert name.get_attribute("value") == "Zoé"
    name.clear()
    name.send_keys("Zoë Martin")
    browser.find_element(By.ID, "guest-join").click()
    wait_for_version(browser, 1)
    wait(
        browser,
        lambda d: "Zoë Martin" in _text(d, "quilts"),
        "the guest's quilt does not show the chosen name",
    )
    assert not browser.find_element(By.ID, "guest").is_displayed()
    game = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    assert [player["name"] for player in game["players"]] == ["Player 1", "Zoë Martin"]
    # The page's address is now the seat's own: a reload plays on without asking again.
    assert "invite" not in browser.current_url
    browser.refresh()
    wait_for_version(browser, 1)
    assert not browser.find_element(By.ID, "guest").is_displayed()
    assert console_errors(browser) == []


def test_the_result_gives_the_winners_score_first_and_the_log_follows_a_switch(browser, play_backend):
    base = play_backend.web.url
    created = requests.post(f"{base}/games", json={"players": [{"name": "Ada"}, {"name": "Bo"}]}, timeout=10)
    game_id, tokens = created.json()["game"]["id"], created.json()["tokens"]
    for seat in (0, 1):
        answer = requests.post(
            f"{base}/games/{game_id}/moves",
            json={"action": "advance"},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
            timeout=10,
        )
        assert answer.status_code == 201, answer.text
    resigned = requests.post(
        f"{base}/games/{game_id}/resign", headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=10
    )
    assert resigned.status_code == 201, resigned.text
    scores = resigned.json()["result"]["scores"]
    # Ada advanced one space (a button), Bo two, in front of her (two buttons): 6 and 7 buttons, empty quilts.
    assert scores == [6 - 2 * 81, 7 - 2 * 81]
    browser.get(f"{base}/play#game={game_id}")
    wait_for_version(browser, 4)
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log li")) == 3, "the log was not filled")
    assert _text(browser, "result") == f"Bo wins: {scores[1]} to {scores[0]} (by resignation)."
    assert browser.title == "Patchwork: play"
    Select(browser.find_element(By.ID, "language")).select_by_value("fr")
    wait(browser, lambda d: d.title == "Patchwork : jouer", "the title stayed in English")
    assert _text(browser, "result") == f"Bo gagne : {scores[1]} à {scores[0]} (par abandon)."
    log = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#log li")]
    assert log[0] == "Ada a abandonné"
    assert log[1].startswith("Bo a avancé (") and log[2].startswith("Ada a avancé (")
    # The actions no button makes have their words too, never the action's name.
    said = browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        import(arguments[0]).then((i18n) => done(["timeout", "abort", "takeback"].map(
            (action) => i18n.moveWords({ action }, "Ada"))));""",
        f"{base}/play/i18n.js",
    )
    assert said == [
        "Ada n'a plus de temps",
        "Partie annulée : le premier coup n'est pas venu à temps",
        "Ada a repris son dernier coup",
    ]
    # A fraction is written with the page's decimal mark; an integer as it is.
    numbers = browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        import(arguments[0]).then((i18n) => done([5.5, 12].map((loss) => i18n.t("{loss} points lost", { loss }))));""",
        f"{base}/play/i18n.js",
    )
    assert numbers == ["5,5 points perdus", "12 points perdus"]
    # A count takes the form French uses for it: the singular for 0 and 1.
    days = browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        import(arguments[0]).then((i18n) => done([0, 1, 2].map(
            (days) => i18n.tn("{days} day a move", "{days} days a move", "days", { days }))));""",
        f"{base}/play/i18n.js",
    )
    assert days == ["0 jour par coup", "1 jour par coup", "2 jours par coup"]
    stats = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#quilts .stats")]
    assert stats == [
        f"6 boutons · revenu 0 · case 1 · 81 vides · score {scores[0]}",
        f"7 boutons · revenu 0 · case 2 · 81 vides · score {scores[1]}",
    ]
    assert console_errors(browser) == []


def test_the_lobby_hears_a_refused_player_token_in_the_pages_language(browser, play_backend):
    base = play_backend.web.url
    browser.get(f"{base}/play")
    setup_form(browser)
    Select(browser.find_element(By.ID, "language")).select_by_value("fr")
    wait(browser, lambda d: _text(d, "start") == "Commencer", "the switcher did not translate the page")
    # A player token that names no player (the browser's own Accept-Language is English).
    browser.execute_script(
        "localStorage.setItem('patchwork.playerToken', 'AAAAAAAAAAAAAAAAAAAAAA.not-a-secret')"
    )
    browser.get(f"{base}/play#lobby")
    wait(browser, lambda d: d.find_element(By.ID, "message").is_displayed(), "the refusal was not shown")
    assert _text(browser, "message") == (
        "Ce n'est pas un jeton de joueur : envoyez le jeton que POST /players a renvoyé. (invalid_token)"
    )
