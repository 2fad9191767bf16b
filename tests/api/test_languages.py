"""Answers for people in the language Accept-Language asks for: problems (title, detail) with their headers.

The problem pages, /rules, /play's catalogues and the pictures are checked
in test_pages.py and test_pictures_http.py; negotiation itself in
tests/languages/test_negotiation.py.
"""

from __future__ import annotations

import gzip

import pytest
from flask.testing import FlaskClient

NOT_YOUR_TURN = {
    "en": ("Not your turn", "seat 1 cannot advance: it is seat 0's turn"),
    "es": ("No es tu turno", "el asiento 1 no puede avanzar: le toca al asiento 0"),
    "pt": ("Não é a sua vez", "o lugar 1 não pode avançar: a vez é do lugar 0"),
    "fr": ("Ce n'est pas votre tour", "la place 1 ne peut pas avancer : c'est au tour de la place 0"),
}


def vary(resp) -> set[str]:
    return {part.strip().lower() for part in resp.headers.get("Vary", "").split(",")}


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("es", "es"),
        ("pt-BR,pt;q=0.9,en;q=0.8", "pt"),
        ("fr-FR", "fr"),
        ("en;q=0.4, fr;q=0.6, es;q=0.5", "fr"),
        ("de-DE, es;q=0.1", "es"),
        ("de-DE", "en"),
    ],
)
def test_a_refused_move_speaks_the_language_asked_for(table, header, language):
    t = table()
    resp = t.move({"action": "advance"}, seat=1, headers={"Accept-Language": header} if header else {})
    assert resp.status_code == 409
    problem = resp.get_json()
    assert (problem["title"], problem["detail"]) == NOT_YOUR_TURN[language]
    # What programs read stays English.
    assert problem["code"] == "not_your_turn" and problem["type"].endswith("/problems/not-your-turn")
    assert resp.headers["Content-Language"] == language
    assert "accept-language" in vary(resp)


def test_every_kind_of_problem_is_translated_not_only_the_rules(client):
    resp = client.get("/no/such/path", headers={"Accept-Language": "pt-BR"})
    assert resp.status_code == 404
    assert resp.get_json()["title"] == "Esse recurso não existe"
    assert resp.get_json()["detail"] == "Não há recurso nesta URL. Consulte GET /openapi.yaml."
    resp = client.delete("/games", headers={"Accept-Language": "fr"})
    assert resp.status_code == 405
    assert resp.get_json()["detail"].startswith("Méthodes autorisées : ")
    resp = client.post("/games", data="{", content_type="application/json", headers={"Accept-Language": "es"})
    assert resp.get_json()["title"] == "El cuerpo no es JSON"
    assert resp.get_json()["detail"].startswith("El cuerpo no es JSON válido: ")
    assert resp.headers["Content-Language"] == "es"


# Bodies JSON refuses, and what the detail says of each, every word in the language asked for.
NOT_JSON = [
    (
        b"{",
        "es",
        "El cuerpo no es JSON válido: se esperaba un nombre de miembro entre comillas dobles en la línea 1, columna 2.",
    ),
    (
        b'{"seed" 1}',
        "fr",
        "Le corps n'est pas du JSON valide : un deux-points était attendu à la ligne 1, colonne 9.",
    ),
    (
        b'{"seed": 1}\n}',
        "pt",
        "O corpo não é um JSON válido: algo a mais depois do valor JSON na linha 2, coluna 1.",
    ),
    (b'{"seed": NaN}', "es", "El cuerpo no es JSON válido: NaN no es un valor JSON."),
    (b'{"a": "\xff"}', "fr", "Le corps n'est pas du JSON valide : l'octet 7 n'est pas du texte UTF-8."),
    (b"[1,]", "en", "The body is not valid JSON: a value was expected at line 1, column 4."),
]


@pytest.mark.parametrize(("raw", "language", "detail"), NOT_JSON)
def test_a_body_that_is_not_json_is_told_in_words_of_the_language_asked_for(client, raw, language, detail):
    resp = client.post(
        "/games", data=raw, content_type="application/json", headers={"Accept-Language": language}
    )
    assert resp.status_code == 400 and resp.get_json()["code"] == "invalid_json"
    assert resp.get_json()["detail"] == detail


def test_a_count_in_a_detail_takes_the_languages_plural(client, table):
    t = table()
    said = {
        language: client.get(f"/games/{t.id}/moves/3", headers={"Accept-Language": language}).get_json()[
            "detail"
        ]
        for language in ("en", "fr")
    }
    assert said == {
        "en": "The game has 0 moves; there is no move 3.",
        "fr": "La partie compte 0 coup ; il n'y a pas de coup 3.",
    }
    t.move({"action": "advance"})
    one = client.get(f"/games/{t.id}/moves/3", headers={"Accept-Language": "es"}).get_json()["detail"]
    assert one == "La partida tiene 1 jugada; no existe la jugada 3."
    assert (
        client.get(f"/games/{t.id}/moves/3").get_json()["detail"]
        == "The game has 1 move; there is no move 3."
    )


def test_the_bots_are_described_in_the_language_asked_for(client):
    english = client.get("/bots")
    spanish = client.get("/bots", headers={"Accept-Language": "es"})
    assert spanish.headers["Content-Language"] == "es" and "accept-language" in vary(spanish)
    assert [bot["id"] for bot in spanish.get_json()["bots"]] == [
        bot["id"] for bot in english.get_json()["bots"]
    ]
    assert english.get_json()["bots"][0]["description"] == "Plays a legal move drawn at random."
    assert spanish.get_json()["bots"][0]["description"] == "Hace una jugada legal elegida al azar."
    french = client.get("/bots", headers={"Accept-Language": "fr"}).get_json()["bots"]
    assert french[1]["description"].startswith("Joue le coup qui semble le meilleur")


def test_a_malformed_body_says_what_is_wrong_with_each_field_in_the_language_asked_for(client):
    body = {
        "colour": "red",
        "players": [{"name": ""}, {"name": "Bob", "bot": 7}],
        "seed": 1,
        "patch_order": [1],
    }
    resp = client.post("/games", json=body, headers={"Accept-Language": "fr-CH, en;q=0.3"})
    assert resp.status_code == 400 and resp.headers["Content-Language"] == "fr"
    problem = resp.get_json()
    assert problem["detail"] == "Le corps ne respecte pas l'API : voyez errors."
    # The client's own values and the field names stay as sent; the words around them are French.
    assert {error["pointer"]: error["message"] for error in problem["errors"]} == {
        "/colour": "champ inconnu 'colour'",
        "/players/0/name": "'' est trop court (au moins 1 caractère)",
        "/players/1/bot": "7 n'est pas du type 'string' ou 'null'",
        "/patch_order": "a 1 élément, exactement 33 attendus",
        "/patch_order/0": "la pièce 1x2 (id 1) doit être la dernière de patch_order",
        "": "seed et patch_order ne peuvent pas être donnés ensemble",
    }
    # Without Accept-Language, the same faults in English.
    english = client.post("/games", json=body).get_json()["errors"]
    assert {error["pointer"]: error["message"] for error in english}["/colour"] == "unknown field 'colour'"


def test_every_kind_of_field_fault_is_translated(table, client):
    t = table()
    # A oneOf whose forms are put in words: Spanish joins them with its own "y" and "o".
    resp = t.move({"action": "buy", "patch_id": 7, "placement": {}}, headers={"Accept-Language": "es"})
    assert resp.get_json()["errors"] == [
        {"pointer": "/placement", "message": "indica 'row' y 'col', o 'cells'"}
    ]
    # A query parameter, and a header, in Portuguese.
    resp = client.get(f"/games/{t.id}/legal-moves?patch_id=34", headers={"Accept-Language": "pt"})
    assert resp.get_json()["errors"] == [{"parameter": "patch_id", "message": "34 é maior que o máximo, 33"}]
    resp = t.move({"action": "advance"}, headers={"Accept-Language": "pt", "If-Match": "3"})
    assert resp.get_json()["errors"][0]["header"] == "If-Match"
    assert resp.get_json()["errors"][0]["message"].startswith("deve ser * ou uma lista")
    # A placement whose two forms disagree (a wrong move: the engine's refusal), in French; patch 2
    # is in the market and within the first seat's buttons, so the fit is what is judged.
    cheap = table({"patch_order": list(range(2, 34)) + [1]})
    placement = {"row": 0, "col": 0, "rotation": 0, "flipped": False, "cells": [[5, 5], [5, 6]]}
    body = {"action": "buy", "patch_id": 2, "placement": placement}
    resp = cheap.move(body, seat=0, headers={"Accept-Language": "fr"})
    assert (resp.status_code, resp.get_json()["code"]) == (422, "does_not_fit")
    assert resp.get_json()["detail"].startswith("la pièce 2 en row 0, col 0, rotation 0")


def test_a_replayed_refusal_is_its_first_answer_whatever_the_retry_asks(table):
    t = table()
    t.play({"action": "advance"})
    key = {"Idempotency-Key": "k-languages-1", "If-Match": '"1"'}
    first = t.move({"action": "advance"}, seat=1, headers={**key, "Accept-Language": "es"})
    assert first.status_code == 412 and first.headers["Content-Language"] == "es"
    again = t.move({"action": "advance"}, seat=1, headers={**key, "Accept-Language": "fr"})
    assert again.status_code == 412
    assert again.get_data() == first.get_data()
    assert again.headers["Content-Language"] == "es"
    assert first.get_json()["title"] == "La partida ha avanzado"


BOARD_LABELS = {
    "en": "time track",
    "es": "tablero de tiempo",
    "pt": "trilha de tempo",
    "fr": "piste du temps",
}


@pytest.mark.parametrize("picture", ["board.svg", "board.txt"])
def test_a_board_is_labelled_in_each_language_under_its_own_tag(table, picture):
    t = table()
    answers = {}
    for language, header in [("en", "en"), ("es", "es-ES"), ("pt", "pt-BR"), ("fr", "fr;q=0.9, en;q=0.1")]:
        resp = t.client.get(f"/games/{t.id}/{picture}", headers={"Accept-Language": header})
        assert resp.status_code == 200
        assert BOARD_LABELS[language] in resp.get_data(as_text=True)
        assert resp.headers["Content-Language"] == language
        assert "accept-language" in vary(resp)
        answers[language] = resp
    assert [answers[lang].headers["ETag"] for lang in ("en", "es", "pt", "fr")] == [
        '"1"',
        '"1-es"',
        '"1-pt"',
        '"1-fr"',
    ]
    # The English tag does not stand for the Spanish picture, nor the other way round.
    es = {"Accept-Language": "es"}
    assert t.client.get(f"/games/{t.id}/{picture}", headers={**es, "If-None-Match": '"1"'}).status_code == 200
    assert (
        t.client.get(f"/games/{t.id}/{picture}", headers={**es, "If-None-Match": '"1-es"'}).status_code == 304
    )
    assert t.client.get(f"/games/{t.id}/{picture}", headers={"If-None-Match": '"1-es"'}).status_code == 200


GZIPPED = {
    "board": ("/games/{id}/board.svg", {"es": "tablero de tiempo", "fr": "piste du temps"}),
    "rules": ("/rules", {"es": "Cómo se juega", "fr": "Comment jouer"}),
    "problem page": (
        "/problems/cannot-afford",
        {"es": "No tienes botones suficientes", "fr": "Pas assez de boutons"},
    ),
}


@pytest.mark.parametrize("kind", GZIPPED)
def test_compressed_answers_are_each_in_their_own_language_and_say_what_they_vary_on(app, table, kind):
    t = table()
    path, words = GZIPPED[kind]
    plain = FlaskClient(app)  # without the contract check, which reads bodies uncompressed
    # Twice each, in turn: a gzip form kept for one language must never answer the other.
    for language in ["es", "fr", "es", "fr"]:
        resp = plain.get(
            path.format(id=t.id), headers={"Accept-Encoding": "gzip", "Accept-Language": language}
        )
        assert resp.headers["Content-Encoding"] == "gzip"
        assert words[language] in gzip.decompress(resp.get_data()).decode()
        assert resp.headers["Content-Language"] == language
        assert {"accept-language", "accept-encoding"} <= vary(resp)


PROBLEM_PAGE_TITLES = {
    "en": "Not your turn",
    "es": "No es tu turno",
    "pt": "Não é a sua vez",
    "fr": "Ce n'est pas votre tour",
}


@pytest.mark.parametrize("language", ["en", "es", "pt", "fr"])
def test_a_problem_page_is_in_the_language_asked_for_and_styled(client, language):
    resp = client.get("/problems/not-your-turn", headers={"Accept-Language": language})
    page = resp.get_data(as_text=True)
    assert resp.status_code == 200 and resp.headers["Content-Language"] == language
    assert (
        f'<html lang="{language}">' in page
        and f"<h1>{PROBLEM_PAGE_TITLES[language]}</h1>".replace("'", "&#39;") in page
    )
    assert '<code id="code">not_your_turn</code>' in page
    # Styled by its one inline stylesheet, which the policy allows by its digest alone.
    assert "<style>" in page and "style-src 'sha256-" in resp.headers["Content-Security-Policy"]


def test_an_unknown_problem_page_is_a_page_for_a_browser_and_json_for_a_program(client):
    browser = {
        "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        "Accept-Language": "fr",
    }
    resp = client.get("/problems/no-such-thing", headers=browser)
    assert resp.status_code == 404 and resp.mimetype == "text/html"
    page = resp.get_data(as_text=True)
    assert "Ressource introuvable" in page and "no-such-thing" in page
    program = client.get("/problems/no-such-thing", headers={"Accept-Language": "fr"})
    assert program.status_code == 404 and program.mimetype == "application/problem+json"
    assert program.get_json()["title"] == "Ressource introuvable"


RULES_HEADINGS = {
    "en": "How to play Patchwork",
    "es": "Cómo se juega a Patchwork",
    "pt": "Como jogar Patchwork",
    "fr": "Comment jouer à Patchwork",
}


@pytest.mark.parametrize("language", ["en", "es", "pt", "fr"])
def test_the_rules_page_teaches_the_game_in_each_language(client, language):
    by_header = client.get("/rules", headers={"Accept-Language": language})
    by_query = client.get(f"/rules?lang={language}", headers={"Accept-Language": "de"})
    for resp in (by_header, by_query):
        page = resp.get_data(as_text=True)
        assert resp.status_code == 200 and resp.headers["Content-Language"] == language
        assert f"<h1>{RULES_HEADINGS[language]}</h1>" in page
        # The board drawn by the service, labelled in the page's language, and patches as pictures.
        assert "<svg" in page and BOARD_LABELS[language] in page
        # A patch's picture is captioned in the page's language too: its URL names it.
        assert f'src="patches/7.svg?lang={language}"' in page
        assert page.count("<h2>") == 7
        others = [other for other in RULES_HEADINGS if other != language]
        assert all(f'href="rules?lang={other}"' in page for other in others)


def test_the_rules_page_refuses_a_language_it_does_not_have(client):
    resp = client.get("/rules?lang=de")
    assert resp.status_code == 400 and resp.get_json()["code"] == "invalid_request"


@pytest.mark.parametrize("page", ["/play", "/docs"])
def test_the_rules_are_linked_from_play_and_docs(client, page):
    assert 'href="rules' in client.get(page).get_data(as_text=True)
