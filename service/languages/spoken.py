"""The languages the service speaks: the one list every other place is derived from or tested against.

Each is its code (a primary language subtag, what Accept-Language, `?lang=`,
Content-Language and the catalogues' directories name) and its name in
itself (what a language switcher shows). English comes first: the texts are
written in it, and it is the answer when a client asks for nothing we speak.
Files that cannot import Python (/play's i18n.js, openapi.yaml's enums)
repeat the list, and tests/languages/test_one_list.py holds them to it.
"""

from __future__ import annotations

_SPOKEN = (
    ("en", "English"),
    ("es", "Español"),
    ("pt", "Português"),
    ("fr", "Français"),
)

LANGUAGES: tuple[str, ...] = tuple(code for code, _name in _SPOKEN)
LANGUAGE_NAMES: dict[str, str] = dict(_SPOKEN)
DEFAULT_LANGUAGE = LANGUAGES[0]
