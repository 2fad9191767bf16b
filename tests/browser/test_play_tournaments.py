"""/play's tournaments (issue 39): organised from the form, joined from the list in another browser,
started early by the organiser; both players see round 1's pairing on the tournament's page and reach
their game in one click; and the tournament's page in another language.

Two headless Chromiums (two profiles: two players) against the service under
gunicorn with a bot worker (tests/browser/conftest.py); each side acts
through its page's controls only (the keyboard for some), and the outcome is
read back from the API.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from .browser import console_errors
from .player import become_player, body, wait


def _fill(driver, element_id: str, value: str) -> None:
    field = driver.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(value)


def _shown(driver, element_id: str) -> bool:
    return driver.find_element(By.ID, element_id).is_displayed()


def _tournament(base: str, tournament_id: str) -> dict:
    answer = requests.get(f"{base}/tournaments/{tournament_id}", timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()["tournament"]


def _unlabelled_controls(driver, container_id: str) -> list[str]:
    """The ids of the form controls in the container that have no label."""
    return driver.execute_script(
        "return [...document.getElementById(arguments[0]).querySelectorAll('input, select, button')]"
        ".filter((e) => e.labels?.length === 0 && !e.textContent.trim() && !e.getAttribute('aria-label'))"
        ".map((e) => e.id)",
        container_id,
    )


def test_organised_joined_started_and_each_player_one_click_from_their_game(
    browser, second_browser, play_backend
):
    base = play_backend.web.url
    ann = become_player(browser, base, "Ann")

    # Ann organises a one-round Swiss from the form, then joins it herself (the organiser plays only if it joins).
    browser.get(f"{base}/play#tournaments")
    wait(browser, lambda d: _shown(d, "tournament-organise"), "no organiser's button for a player")
    browser.find_element(By.ID, "tournament-organise").click()
    wait(browser, lambda d: _shown(d, "tournament-form"), "no organiser's form")
    assert _unlabelled_controls(browser, "tournament-form") == []
    _fill(browser, "tournament-name", "Friday Swiss")
    Select(browser.find_element(By.ID, "tournament-system")).select_by_value("swiss")
    _fill(browser, "tournament-rounds", "1")
    Select(browser.find_element(By.ID, "tournament-clock")).select_by_value("rt:600:5")
    _fill(browser, "tournament-max", "4")
    _fill(browser, "tournament-pause", "0")
    browser.find_element(By.ID, "tournament-create").click()
    wait(browser, lambda d: "tournament=" in d.current_url, "the form did not open the new tournament")
    tournament_id = browser.current_url.split("tournament=")[1]
    wait(browser, lambda d: d.find_element(By.ID, "tournament-title").text == "Friday Swiss", "no page of it")
    made = _tournament(base, tournament_id)
    assert made["organiser"] == {"id": ann["id"], "name": "Ann"}
    assert (made["system"], made["rounds"], made["max_players"], made["pause_s"]) == ("swiss", 1, 4, 0)
    assert (made["clock"]["initial_s"], made["clock"]["increment_s"], made["rated"]) == (600, 5, False)
    # The form's start, 15 minutes from when it opened, in the browser's time zone.
    starts = datetime.fromisoformat(made["starts_at"].replace("Z", "+00:00"))
    assert timedelta(minutes=13) < starts - datetime.now(UTC) < timedelta(minutes=16)
    assert made["players"] == []
    browser.find_element(By.ID, "tournament-join").click()
    wait(
        browser,
        lambda d: "Ann" in d.find_element(By.ID, "tournament-players").text,
        "Ann is not among the players",
    )
    assert not _shown(browser, "tournament-join") and _shown(browser, "tournament-withdraw")
    assert _shown(browser, "tournament-start") and _shown(browser, "tournament-cancel")

    # Bea, not a player yet, sees it and is told how to join; she becomes one in the lobby.
    second_browser.get(f"{base}/play#tournament={tournament_id}")
    wait(second_browser, lambda d: _shown(d, "tournament-view-become"), "no word on how to join")
    assert not _shown(second_browser, "tournament-join")
    bea = become_player(second_browser, base, "Bea")

    # Bea finds it among the upcoming ones and joins it with the keyboard.
    second_browser.get(f"{base}/play#tournaments")
    link = wait(
        second_browser,
        lambda d: d.find_elements(
            By.CSS_SELECTOR, f'#tournaments-upcoming li[data-tournament="{tournament_id}"] a'
        ),
        "the tournament is not listed as upcoming",
    )[0]
    assert link.text == "Friday Swiss"
    link.send_keys(Keys.ENTER)
    wait(second_browser, lambda d: _shown(d, "tournament-join"), "no Join button for Bea")
    assert not _shown(second_browser, "tournament-start") and not _shown(second_browser, "tournament-cancel")
    second_browser.find_element(By.ID, "tournament-join").send_keys(Keys.ENTER)
    wait(second_browser, lambda d: _shown(d, "tournament-withdraw"), "Bea's page does not show her in it")
    assert {p["id"] for p in _tournament(base, tournament_id)["players"]} == {ann["id"], bea["id"]}

    # Ann starts it early: round 1 pairs the two of them.
    browser.find_element(By.ID, "tournament-start").click()
    wait(browser, lambda d: _tournament(base, tournament_id)["status"] == "running", "it did not start")
    started = _tournament(base, tournament_id)
    [pairing] = started["round_pairings"][0]["pairings"]
    game_id = pairing["game"]
    names = f"{pairing['first']['name']} v {pairing['second']['name']}"
    assert {pairing["first"]["id"], pairing["second"]["id"]} == {ann["id"], bea["id"]}

    # Both pages show round 1's pairing, Bea's from the tournament's stream with no click of hers,
    # and each one's game one click away.
    for driver in (browser, second_browser):
        wait(
            driver,
            lambda d: names in d.find_element(By.ID, "tournament-rounds-list").text,
            "the page does not show round 1's pairing",
        )
        assert "Round 1" in driver.find_element(By.ID, "tournament-rounds-list").text
        assert "Round 1 of 1 is being played." in driver.find_element(By.ID, "tournament-state").text
        headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#tournament-standings thead th")]
        assert headers == ["Rank", "Player", "Points", "Buchholz", "Sonneborn-Berger", "Margin"]
        mine = wait(
            driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#tournament-my-game a"), "no link to my game"
        )
        assert mine[0].text == f"Your game: {names}"
        mine[0].click()
        wait(driver, lambda d: f"game={game_id}&as=player" in d.current_url, "the link did not open the game")
    first, second = (
        (browser, second_browser) if pairing["first"]["id"] == ann["id"] else (second_browser, browser)
    )
    wait(first, lambda d: body(d, "state") == "mine", "the first player does not have the first move")
    wait(second, lambda d: body(d, "state") == "theirs", "the second player does not wait for the first")
    # The game says which tournament it is of, and offers no takeback.
    for driver in (browser, second_browser):
        back = driver.find_element(By.CSS_SELECTOR, f'#game-people a[href="#tournament={tournament_id}"]')
        assert back.text == "Tournament game, round 1"
        assert not _shown(driver, "takeback")

    # Ann goes back to the tournament's page from her game; the first player resigns (through the API):
    # her page hears the game's end on the tournament's stream and shows the final standings, no reload.
    browser.find_element(By.CSS_SELECTOR, f'#game-people a[href="#tournament={tournament_id}"]').click()
    wait(browser, lambda d: _shown(d, "tournament-view"), "the link did not open the tournament's page")
    first_token = ann["token"] if pairing["first"]["id"] == ann["id"] else bea["token"]
    resigned = requests.post(
        f"{base}/games/{game_id}/resign",
        headers={"Authorization": f"Bearer {first_token}"},
        json={},
        timeout=10,
    )
    assert resigned.status_code == 201, resigned.text
    wait(
        browser,
        lambda d: d.find_element(By.ID, "tournament-state").text == "Finished.",
        "the page did not hear the end",
    )
    rows = [
        [cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
        for row in browser.find_elements(By.CSS_SELECTOR, "#tournament-standings tbody tr")
    ]
    # A resignation on the first move: both scores are the same, a margin of 0.
    winner, loser = pairing["second"]["name"], pairing["first"]["name"]
    assert rows == [["1", winner, "1", "0", "0", "0"], ["2", loser, "0", "1", "0", "0"]]
    assert f"{names} · {winner} won by 0" in browser.find_element(By.ID, "tournament-rounds-list").text
    assert not _shown(browser, "tournament-my-game") and not _shown(browser, "tournament-withdraw")
    assert console_errors(browser) == [] and console_errors(second_browser) == []


def test_the_tournament_page_in_another_language(browser, play_backend):
    base = play_backend.web.url
    ann = become_player(browser, base, "Ann")
    starts = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    made = requests.post(
        f"{base}/tournaments",
        headers={"Authorization": f"Bearer {ann['token']}"},
        json={
            "name": "Torneo",
            "system": "round_robin",
            "double": True,
            "clock": {"days_per_move": 2},
            "starts_at": starts,
            "max_players": 6,
        },
        timeout=10,
    )
    assert made.status_code == 201, made.text
    tournament_id = made.json()["tournament"]["id"]
    browser.get(f"{base}/play#tournament={tournament_id}")
    wait(
        browser,
        lambda d: d.find_element(By.ID, "tournament-title").text == "Torneo",
        "no page of the tournament",
    )
    assert (
        "Round robin, every pair twice · 2 days a move, casual"
        in browser.find_element(By.ID, "tournament-summary").text
    )

    Select(browser.find_element(By.ID, "language")).select_by_value("fr")
    wait(
        browser,
        lambda d: d.find_element(By.ID, "tournament-summary").text.startswith(
            "Toutes rondes, chaque paire deux fois · 2 jours par coup"
        ),
        "the tournament's summary is not in French",
    )
    state = browser.find_element(By.ID, "tournament-state").text
    assert state.startswith("Commence le ") and state.endswith("0 joueur (6 au plus).")
    assert browser.find_element(By.ID, "tournament-join").text == "Rejoindre"
    assert browser.find_element(By.ID, "tournament-start").text == "Commencer maintenant"
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#tournament-standings thead th")]
    assert headers == ["Rang", "Joueur", "Points", "Buchholz", "Sonneborn-Berger", "Écart"]
    assert browser.find_element(By.ID, "tournament-rounds-list").text == "Aucune ronde pour l'instant."

    # Spanish and Portuguese: the page's words, and the counts in each language's plural.
    for code, summary, state, join in [
        (
            "es",
            "Todos contra todos, cada pareja dos veces · 2 días por jugada",
            "0 jugadores (máximo 6).",
            "Unirme",
        ),
        (
            "pt",
            "Todos contra todos, cada dupla duas vezes · 2 dias por jogada",
            "0 jogador (no máximo 6).",
            "Entrar",
        ),
    ]:
        Select(browser.find_element(By.ID, "language")).select_by_value(code)
        wait(
            browser,
            lambda d, summary=summary: d.find_element(By.ID, "tournament-summary").text.startswith(summary),
            f"the tournament's summary is not in {code}",
        )
        assert browser.find_element(By.ID, "tournament-state").text.endswith(state)
        assert browser.find_element(By.ID, "tournament-join").text == join


def test_a_round_robin_of_three_shows_the_bye_and_a_withdrawal(browser, play_backend):
    base = play_backend.web.url
    ann = become_player(browser, base, "Ann")
    others = [
        requests.post(f"{base}/players", json={"name": name}, timeout=10).json() for name in ("Bea", "Cid")
    ]
    tokens = [ann["token"], *(other["token"] for other in others)]
    headers = [{"Authorization": f"Bearer {token}"} for token in tokens]
    starts = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    body = {
        "name": "Trio",
        "system": "round_robin",
        "clock": {"days_per_move": 2},
        "starts_at": starts,
        "max_players": 3,
    }
    made = requests.post(f"{base}/tournaments", headers=headers[0], json=body, timeout=10)
    assert made.status_code == 201, made.text
    tournament_id = made.json()["tournament"]["id"]
    for each in headers:
        assert (
            requests.post(f"{base}/tournaments/{tournament_id}/join", headers=each, timeout=10).status_code
            == 200
        )
    started = requests.post(f"{base}/tournaments/{tournament_id}/start", headers=headers[0], timeout=10)
    assert started.status_code == 200, started.text
    # Three players: every round one game and one bye, three rounds.
    tournament = started.json()["tournament"]
    assert tournament["rounds"] == 3
    [round_one] = tournament["round_pairings"]
    [bye] = [p for p in round_one["pairings"] if p["second"] is None]
    [game] = [p for p in round_one["pairings"] if p["second"] is not None]

    browser.get(f"{base}/play#tournament={tournament_id}")
    wait(
        browser,
        lambda d: "Round 1 (being played)" in d.find_element(By.ID, "tournament-rounds-list").text,
        "no round 1",
    )
    rounds = browser.find_element(By.ID, "tournament-rounds-list").text
    assert f"{bye['first']['name']}: a bye" in rounds
    assert f"{game['first']['name']} v {game['second']['name']} · being played" in rounds
    mine = browser.find_element(By.ID, "tournament-my-game").text
    if bye["first"]["id"] == ann["id"]:
        assert mine == "You have a bye this round (a win)."
    else:
        assert mine == f"Your game: {game['first']['name']} v {game['second']['name']}"

    # Ann withdraws, after saying yes to the question: she is shown withdrawn, and may not withdraw again.
    browser.find_element(By.ID, "tournament-withdraw").click()
    alert = wait(browser, lambda d: d.switch_to.alert, "no question before withdrawing")
    assert alert.text == "Withdraw from this tournament? You will be paired no more."
    alert.accept()
    wait(browser, lambda d: not _shown(d, "tournament-withdraw"), "the Withdraw button stayed")
    assert "Ann (1500) · withdrawn" in browser.find_element(By.ID, "tournament-players").text
    players = requests.get(f"{base}/tournaments/{tournament_id}", timeout=10).json()["tournament"]["players"]
    assert [p["withdrawn"] for p in players if p["id"] == ann["id"]] == [True]
    assert console_errors(browser) == []
