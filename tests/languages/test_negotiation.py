"""Accept-Language to one of en, es, pt, fr: q-values, primary subtags, the English fallback, and what is skipped."""

from __future__ import annotations

import pytest

from service.engine import new_game
from service.engine.errors import InvalidSetup
from service.languages import DECIMAL_MARKS, LANGUAGES, Plural, Text, negotiate


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("", "en"),
        ("es", "es"),
        ("pt-BR", "pt"),
        ("pt-PT,pt;q=0.9", "pt"),
        ("FR-ca", "fr"),
        ("de-DE,de;q=0.9", "en"),  # none of ours: English
        ("de, fr;q=0.3", "fr"),  # a language we speak, however low, over the fallback
        ("en;q=0.5, es;q=0.8", "es"),
        ("fr;q=0.8, es;q=0.8", "fr"),  # equal q: the first listed
        ("es;q=0, fr;q=0.1", "fr"),  # q=0: not at all
        ("es;q=0", "en"),
        ("*", "en"),
        ("pt-BR;q=0.9, *;q=0.5", "pt"),
        ("es;q=abc, fr;q=0.2", "fr"),  # a malformed range is skipped
        ("es;q=2, fr;q=0.2", "fr"),  # q past 1 is malformed
        ("es;q=nan, pt;q=0.5", "pt"),
        ("fr ; q = 0.7 , es;q=0.6", "fr"),
        (",,;,es", "es"),
    ],
)
def test_negotiate(header, language):
    assert negotiate(header) == language


def test_a_header_longer_than_any_browser_sends_is_read_in_its_first_ranges():
    assert negotiate(", ".join(["de"] * 40 + ["es"])) == "en"
    assert negotiate(", ".join(["de"] * 20 + ["es"])) == "es"


def test_a_text_is_english_as_str_and_fills_its_values_after_translating():
    text = Text(
        "patch {patch} costs {cost} and seat {seat} has {buttons}: not enough buttons",
        {"patch": 7, "cost": 5, "seat": 0, "buttons": 2},
    )
    assert str(text) == "patch 7 costs 5 and seat 0 has 2: not enough buttons"
    assert text.in_language("es") == "el parche 7 cuesta 5 y el asiento 0 tiene 2: no le alcanzan los botones"
    assert text.in_language("fr") == "la pièce 7 coûte 5 et la place 0 en a 2 : pas assez de boutons"
    # A message with no values is shown as written, braces and all.
    assert Text("follow `/games/{id}/events`").in_language("pt") == "follow `/games/{id}/events`"


def test_a_message_inside_a_message_speaks_the_same_language():
    reason = Text(
        "no bot level {level}; levels that give hints: {levels}", {"level": "'x'", "levels": "random"}
    )
    detail = Text("The query parameter level is not a hint level: {reason}.", {"reason": reason})
    assert detail.in_language("pt") == (
        "O parâmetro level da consulta não é um nível que dê dicas: "
        "não existe o nível de bot 'x'; níveis que dão dicas: random."
    )
    assert str(detail).endswith("no bot level 'x'; levels that give hints: random.")


def test_the_engines_errors_keep_their_message_for_translation():
    order = [*range(2, 34), 1]
    order[0], order[-1] = order[-1], order[0]
    with pytest.raises(InvalidSetup) as refused:
        new_game(patch_order=order)
    assert str(refused.value) == "patch_order must end with the 1x2 patch (id 1), not 2"
    explained = Text(refused.value.message, refused.value.values)
    assert explained.in_language("fr") == "patch_order doit finir par la pièce 1x2 (id 1), pas par 2"


def test_a_fraction_in_a_message_takes_the_languages_decimal_mark():
    lost = Text("{loss} points lost", {"loss": 5.0})
    assert str(lost) == "5.0 points lost"
    assert lost.in_language("es") == "5,0 puntos perdidos"
    assert lost.in_language("pt") == "5,0 pontos perdidos"
    assert lost.in_language("fr") == "5,0 points perdus"
    # Integers are written as they are: seats, spaces and versions are no fractions.
    assert Text("{loss} points lost", {"loss": 12}).in_language("fr") == "12 points perdus"
    assert set(DECIMAL_MARKS) == set(LANGUAGES)


def test_a_message_with_a_count_takes_the_form_each_language_uses_for_it():
    def moves(count: int) -> Plural:
        return Plural(
            "The game has {moves} move; there is no move {number}.",
            "The game has {moves} moves; there is no move {number}.",
            "moves",
            {"moves": count, "number": 9},
        )

    assert [str(moves(n)) for n in (0, 1, 2)] == [
        "The game has 0 moves; there is no move 9.",
        "The game has 1 move; there is no move 9.",
        "The game has 2 moves; there is no move 9.",
    ]
    assert [moves(n).in_language("es") for n in (0, 1)] == [
        "La partida tiene 0 jugadas; no existe la jugada 9.",
        "La partida tiene 1 jugada; no existe la jugada 9.",
    ]
    # French (and Brazilian Portuguese, by CLDR) count zero in the singular.
    assert [moves(n).in_language("fr") for n in (0, 2)] == [
        "La partie compte 0 coup ; il n'y a pas de coup 9.",
        "La partie compte 2 coups ; il n'y a pas de coup 9.",
    ]
    assert moves(1).in_language("pt") == "A partida tem 1 jogada; não existe a jogada 9."
    assert moves(3).in_language("pt") == "A partida tem 3 jogadas; não existe a jogada 9."
