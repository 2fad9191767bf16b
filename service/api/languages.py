"""The language of a request's answer: negotiated once from Accept-Language, and declared on the answer.

Every answer whose body depends on the language says which it is in
(`Content-Language`) and that it varies with the header (`Vary:
Accept-Language`), so no cache hands one client's language to another;
where such an answer has an ETag, the tag names the language too
(`language_tag`).
"""

from __future__ import annotations

from flask import Response, g, request

from service.languages import DEFAULT_LANGUAGE, negotiate

from .vary import add_vary


def request_language() -> str:
    """The language this request's answer speaks (en, es, pt or fr)."""
    language = g.get("language")
    if language is None:
        language = g.language = negotiate(request.headers.get("Accept-Language"))
    return language


def speaks(resp: Response, language: str) -> Response:
    """Mark `resp` as written in `language`, chosen by Accept-Language."""
    resp.headers["Content-Language"] = language
    add_vary(resp, "Accept-Language")
    return resp


def language_tag(version: int, language: str) -> str:
    """The opaque part of the ETag of a game's version drawn in `language`: "12" in English, "12-es" in Spanish.

    English keeps the game's own tag, so the pictures' tags are what they were before there were languages.
    """
    return str(version) if language == DEFAULT_LANGUAGE else f"{version}-{language}"
