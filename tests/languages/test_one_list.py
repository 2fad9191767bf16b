"""One list of languages (service/languages/spoken.py); the files that cannot import it agree with it.

The message tool, negotiation, the catalogues and the rules page import the
list. /play's i18n.js, the spec's enums and the README repeat it, so each is
read here and compared: a language added to the list and not to one of them
(or the other way round) fails, naming the file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from service.languages import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, negotiate
from tools import messages

REPO = Path(__file__).resolve().parents[2]


def test_the_list_is_codes_with_names_english_first():
    assert LANGUAGES == ("en", "es", "pt", "fr")
    assert list(LANGUAGE_NAMES) == list(LANGUAGES)
    assert LANGUAGE_NAMES["pt"] == "Português"
    assert DEFAULT_LANGUAGE == "en"


def test_every_listed_language_is_negotiated_and_nothing_else():
    assert [negotiate(f"{code}-XX") for code in LANGUAGES] == list(LANGUAGES)
    assert negotiate("de") == DEFAULT_LANGUAGE


def test_the_message_tool_writes_a_catalogue_for_every_language_but_english():
    assert messages.translated() == ("es", "pt", "fr")
    on_disk = {path.name for path in messages.LOCALE.iterdir() if path.is_dir()}
    assert on_disk == set(LANGUAGES) - {DEFAULT_LANGUAGE}


def _js_constant(source: str, name: str):
    """The value of `export const NAME = <JSON literal>;` in a script (its literals are plain JSON but for bare keys)."""
    literal = re.search(rf"^export const {name} = (.+);$", source, re.MULTILINE).group(1)
    return json.loads(re.sub(r"(\w+):", r'"\1":', literal))


def test_play_lists_the_same_languages_with_the_same_names():
    source = (REPO / "service" / "static" / "play" / "i18n.js").read_text(encoding="utf-8")
    assert _js_constant(source, "LANGUAGES") == list(LANGUAGES)
    assert _js_constant(source, "LANGUAGE_NAMES") == LANGUAGE_NAMES
    # Its fallback when the browser asks for nothing it speaks.
    assert re.search(r'^let current = "(\w+)";$', source, re.MULTILINE).group(1) == DEFAULT_LANGUAGE


def _enums(node):
    if isinstance(node, dict):
        if isinstance(node.get("enum"), list):
            yield node["enum"]
        for value in node.values():
            yield from _enums(value)
    elif isinstance(node, list):
        for value in node:
            yield from _enums(value)


def test_the_spec_enumerates_the_same_languages():
    spec = yaml.safe_load((REPO / "openapi.yaml").read_text(encoding="utf-8"))
    naming_a_language = [enum for enum in _enums(spec) if set(enum) & set(LANGUAGES)]
    translated = [language for language in LANGUAGES if language != DEFAULT_LANGUAGE]
    # The `lang` parameters of a patch's picture and of GET /rules, the Content-Language header, and
    # the language of a /play catalogue (English has none: its texts are the code's).
    assert sorted(naming_a_language) == sorted(
        [list(LANGUAGES), list(LANGUAGES), list(LANGUAGES), translated]
    )
    described = spec["components"]["headers"]["ContentLanguage"]["description"]
    assert re.findall(r"\b[a-z]{2}\b(?=[,)]| or)", described) == list(LANGUAGES)


def test_the_readme_names_every_language():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("\n## Languages\n") :]
    section = section[: section.index("\n## ", 1)]
    assert list(dict.fromkeys(re.findall(r"`([a-z]{2})`", section))) == list(LANGUAGES)
