"""The engine's refusals said in each language: the move's action in that language's words, no count that lies."""

from __future__ import annotations

import pytest

from service.engine import (
    Abort,
    Advance,
    Buy,
    GameFinished,
    NotYourTurn,
    PlaceLeather,
    Resign,
    Timeout,
    WrongPhase,
    apply_move,
    legal_moves,
    new_game,
)
from service.games.refusals import ACTIONS, explained
from service.languages import LANGUAGES, translate

TRANSLATED = [language for language in LANGUAGES if language != "en"]


def _refused(state, move, seat=None):
    with pytest.raises((GameFinished, NotYourTurn)) as refused:
        apply_move(state, move, seat)
    return explained(refused.value)


def test_every_action_the_engine_names_has_words():
    for move in (Advance, Buy, PlaceLeather, Resign, Timeout, Abort):
        assert move.action.replace("_", " ") in ACTIONS, move


def test_an_aborted_game_is_finished_with_no_count_of_moves():
    aborted = apply_move(new_game(seed=3), Abort())
    text = _refused(aborted, Advance())
    assert str(text) == "the game is finished: nobody can advance any more"
    assert text.in_language("es") == "la partida terminó: ya nadie puede avanzar"
    assert text.in_language("pt") == "a partida terminou: ninguém mais pode avançar"
    assert text.in_language("fr") == "la partie est terminée : plus personne ne peut avancer"


def test_a_move_out_of_turn_names_its_action_in_the_language_asked_for():
    state = new_game(seed=3)
    buy = next(move for move in legal_moves(state) if isinstance(move, Buy))
    text = _refused(state, buy, seat=1)
    assert str(text) == "seat 1 cannot buy a patch: it is seat 0's turn"
    assert text.in_language("es") == "el asiento 1 no puede comprar un parche: le toca al asiento 0"
    assert text.in_language("pt") == "o lugar 1 não pode comprar um retalho: a vez é do lugar 0"
    assert text.in_language("fr") == "la place 1 ne peut pas acheter une pièce : c'est au tour de la place 0"


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_english_action_is_left_inside_a_translated_refusal(language):
    finished = apply_move(new_game(seed=3), Resign(seat=0), 0)
    for move in (Advance(), PlaceLeather(0, 0), Resign(seat=1), Timeout(), Abort()):
        said = _refused(finished, move).in_language(language)
        word = move.action.replace("_", " ")
        assert translate(language, ACTIONS[word]) in said
        assert word not in said.split(), (word, said)


def test_leather_out_of_its_phase_is_refused_without_the_phases_field_value():
    with pytest.raises(WrongPhase) as refused:
        apply_move(new_game(seed=3), PlaceLeather(0, 0))
    text = explained(refused.value)
    assert str(text) == "seat 0 has no leather patch to place: it buys a patch or advances"
    assert text.in_language("es") == (
        "el asiento 0 no tiene ningún parche de cuero que colocar: le toca comprar un parche o avanzar"
    )
    assert all("choose" not in text.in_language(language) for language in LANGUAGES)
