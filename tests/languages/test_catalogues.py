"""The catalogues hold every message of the code, in every language, with the same placeholders, compiled as read.

The code's messages are extracted again here (tools/messages.py, Babel)
and compared with the committed template and translations, so a message
added to the code and not to the catalogues, a translation left empty or
fuzzy, a placeholder renamed or dropped, and a .mo older than its .po all fail.
"""

from __future__ import annotations

import re
import string

import pytest

from service.languages import LANGUAGES, catalogue_of
from tools import messages

TRANSLATED = [language for language in LANGUAGES if language != "en"]


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


@pytest.fixture(scope="module")
def extracted():
    return {message.id for message in messages.extract() if message.id}


def test_the_template_is_what_the_code_marks(extracted):
    committed = {message.id for message in messages.read(messages.TEMPLATE) if message.id}
    assert extracted - committed == set(), "run ./dev messages: the template lacks these"
    assert committed - extracted == set(), "run ./dev messages: the code no longer marks these"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_has_a_translation_with_the_same_placeholders(language, extracted):
    catalogue = messages.read(messages.po_path(language), language)
    translated = {message.id: message for message in catalogue if message.id}
    assert extracted - set(translated) == set(), f"run ./dev messages: {language} lacks these"
    for msgid in extracted:
        entry = translated[msgid]
        # A message with a count has an English singular and plural, and a form per plural of the language.
        english = msgid if isinstance(msgid, tuple) else (msgid,)
        forms = messages.forms(entry)
        assert all(forms), f"{language}: no translation of {msgid!r}"
        assert len(forms) == (catalogue.num_plurals if isinstance(msgid, tuple) else 1), msgid
        assert not entry.fuzzy, f"{language}: the translation of {msgid!r} is marked fuzzy"
        for form in forms:
            assert placeholders(form) == placeholders(english[-1]), f"{language}: {form!r} for {msgid!r}"
            assert (
                form not in english
                or not any(c.isalpha() for c in english[0])
                or english[0] in _SAME_IN_EVERY_LANGUAGE
            ), f"{language}: {msgid!r} is left in English"


# Messages whose words are the same in a translation.
_SAME_IN_EVERY_LANGUAGE = {
    "score",
    "score {score}",
    "bot {bot}",
    "BOT",
    "Buchholz",
    "Sonneborn-Berger",
    "Points",
    "Webhooks",
    "URL",
}  # French says "score" and "points" too; "bot", "webhook" and "URL" are every language's words; the tie-breaks are
# their authors' names


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogue_is_its_source(language):
    path = messages.po_path(language)
    assert path.with_suffix(".mo").read_bytes() == messages.mo_bytes(messages.read(path, language)), (
        "run ./dev messages: the .mo is older than its .po"
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_service_reads_every_translation(language, extracted):
    catalogue = catalogue_of(language)
    untranslated = {
        msgid
        for msgid in extracted
        if (
            catalogue.ngettext(*msgid, 2) in msgid
            if isinstance(msgid, tuple)
            else catalogue.gettext(msgid) == msgid
        )
    }
    assert untranslated <= _SAME_IN_EVERY_LANGUAGE


def test_play_offers_a_catalogue_of_exactly_its_texts_in_each_language(extracted):
    from service.api.resources.pages import play_messages

    play = {message.id for message in messages.extract() if _in_play(message)}
    assert play_messages() == play
    assert play <= extracted


def _in_play(message) -> bool:
    return any(path.startswith("service/static/play/") for path, _line in message.locations)


def _translations(language: str) -> list[tuple[str, str]]:
    """(msgid, each form of its translation) of a language's catalogue."""
    pairs = []
    for message in messages.read(messages.po_path(language), language):
        if message.id:
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            msgid = message.id if isinstance(message.id, str) else " ".join(message.id)
            pairs += [(msgid, form) for form in forms]
    return pairs


# Words a player of the language would stumble on: "coger" is vulgar in much of Latin America
# (Spanish takes with "tomar" or "recoger"); Portuguese names a seat "lugar" and a move "jogada".
AVOIDED = {
    "es": re.compile(r"\b(cog|coj)\w*", re.IGNORECASE),
    "pt": re.compile(r"\b(assentos?|lances?)\b", re.IGNORECASE),
}


@pytest.mark.parametrize("language", sorted(AVOIDED))
def test_no_translation_uses_a_word_the_language_avoids(language):
    found = [form for _msgid, form in _translations(language) if AVOIDED[language].search(form)]
    assert found == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translation_writes_no_decimal_point_of_its_own(language):
    # A number with a point that the English has too (a section of an RFC) is quoted, not written.
    decimal = re.compile(r"\d\.\d")
    found = [
        form
        for msgid, form in _translations(language)
        if set(decimal.findall(form)) - set(decimal.findall(msgid))
    ]
    assert found == []
