"""Answers for people in the language Accept-Language asks for: problems (title, detail) with their headers.

The problem pages, /rules, /play's catalogues and the pictures are checked
in test_pages.py and test_pictures_http.py; negotiation itself in
tests/languages/test_negotiation.py.
"""

from __future__ import annotations

import pytest

NOT_YOUR_TURN = {
    "en": ("Not your turn", "seat 1 cannot advance: it is seat 0's turn"),
    "es": ("No es tu turno", "el asiento 1 no puede hacer advance: le toca al asiento 0"),
    "pt": ("Não é a sua vez", "o assento 1 não pode fazer advance: a vez é do assento 0"),
    "fr": ("Ce n'est pas votre tour", "la place 1 ne peut pas faire advance : c'est au tour de la place 0"),
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
