"""Pages for people: the reference at /docs, the client at /play, and one page per problem type.

/docs is Swagger UI (version 5: it reads OpenAPI 3.2), vendored from its
pinned npm package into service/static/docs/ by tools/vendor_docs.py, so
every asset comes from the service itself and the page works offline.
/play is the project's own small client (service/static/play/: plain HTML,
ES modules and CSS, no build step) that uses only the public API. Its
texts are written in English, marked `t("...")` in its scripts and
`data-t="..."` in its page; /play/messages.<language>.json holds their
translations, taken from the service's catalogues when it starts.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import re
from dataclasses import dataclass
from importlib import resources

from flask import Blueprint, Response, request
from markupsafe import escape

from service.api.bodies import StaticBody, StaticResponse
from service.api.languages import request_language
from service.api.people_pages import page_body, page_response, rich
from service.api.problems import ApiProblem, problem_slug
from service.languages import DEFAULT_LANGUAGE, LANGUAGES, N_, Text, translate, translate_plural
from service.problems import CATALOGUE

bp = Blueprint("pages", __name__)

# Scripts, styles, the spec and Try-it-out calls from the service alone. Swagger
# UI's stylesheet draws its icons as data: images; nothing is fetched elsewhere.
DOCS_CSP = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'self'"
)
# The client: its own scripts and stylesheet, fetch and EventSource to the
# service. No inline script or style at all (it draws with SVG attributes),
# no images, and no page may frame it.
PLAY_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
# Assets change only with a new release; a client revalidates after an hour.
ASSET_CACHE_CONTROL = "public, max-age=3600"
_JS = "text/javascript; charset=utf-8"
_CSS = "text/css; charset=utf-8"
# Each page's assets, by the directory under service/static/ they come from.
_ASSET_TYPES = {
    "docs": {"docs.js": _JS, "swagger-ui-bundle.js": _JS, "swagger-ui.css": _CSS},
    # icon.svg is both pages' icon: without one, browsers ask for /favicon.ico (a 404, and a console error).
    "play": {
        "play.js": _JS,
        "api.js": _JS,
        "follow.js": _JS,
        "draw.js": _JS,
        "clocks.js": _JS,
        "lobby.js": _JS,
        "i18n.js": _JS,
        "analysis.js": _JS,
        "challenges.js": _JS,
        "notices.js": _JS,
        "offers.js": _JS,
        "player-api.js": _JS,
        "player-stream.js": _JS,
        "views.js": _JS,
        "watching.js": _JS,
        "names.js": _JS,
        "tournaments.js": _JS,
        "webhooks.js": _JS,
        "records.js": _JS,
        "placement.js": _JS,
        "announce.js": _JS,
        "describe.js": _JS,
        "play.css": _CSS,
        "icon.svg": "image/svg+xml",
    },
}


@dataclass(frozen=True)
class _Asset:
    body: StaticBody
    etag: str


def _read(page: str, name: str) -> bytes:
    return resources.files("service").joinpath("static", page, name).read_bytes()


def _asset_of(body: bytes, content_type: str) -> _Asset:
    return _Asset(StaticBody(body, content_type), f'"{hashlib.sha256(body).hexdigest()[:32]}"')


def _load_assets(page: str) -> dict[str, _Asset]:
    return {
        name: _asset_of(_read(page, name), content_type) for name, content_type in _ASSET_TYPES[page].items()
    }


# The marks tools/messages.py extracts with Babel: t("...") and tn("...", "...") in the scripts,
# data-t="..." in the page.
_JS_STRING = r'"((?:[^"\\]|\\.)*)"'
PLAY_SCRIPT_MESSAGE = re.compile(r"\bt\(\s*" + _JS_STRING)
PLAY_SCRIPT_PLURAL = re.compile(r"\btn\(\s*" + _JS_STRING + r"\s*,\s*" + _JS_STRING)
PLAY_PAGE_MESSAGE = re.compile(r'data-t="([^"]*)"')


def play_messages() -> set[str | tuple[str, str]]:
    """Every text /play shows a person, in English: what its catalogues translate (a message with a count
    as its singular and plural)."""
    found: set[str | tuple[str, str]] = {
        html.unescape(text) for text in PLAY_PAGE_MESSAGE.findall(_read("play", "index.html").decode())
    }
    for name, content_type in _ASSET_TYPES["play"].items():
        if content_type == _JS:
            script = _read("play", name).decode()
            found.update(json.loads(f'"{text}"') for text in PLAY_SCRIPT_MESSAGE.findall(script))
            found.update(
                (json.loads(f'"{one}"'), json.loads(f'"{other}"'))
                for one, other in PLAY_SCRIPT_PLURAL.findall(script)
            )
    return found


def _play_translation(language: str, message: str | tuple[str, str]) -> str | dict[str, str]:
    """A message in `language`; one with a count as its forms by plural category, as i18n.js's tn picks them
    (Intl.PluralRules: "one" where gettext's rule takes the singular, for 1 in es, 0 and 1 in fr and pt)."""
    if isinstance(message, str):
        return translate(language, message)
    return {"one": translate_plural(language, *message, 1), "other": translate_plural(language, *message, 2)}


def _play_catalogues() -> dict[str, _Asset]:
    messages = sorted(
        play_messages(), key=lambda message: message if isinstance(message, str) else message[0]
    )
    return {
        f"messages.{language}.json": _asset_of(
            json.dumps(
                {
                    "language": language,
                    "messages": {
                        m if isinstance(m, str) else m[0]: _play_translation(language, m) for m in messages
                    },
                },
                ensure_ascii=False,
                indent=0,
            ).encode(),
            "application/json",
        )
        for language in LANGUAGES
        if language != DEFAULT_LANGUAGE
    }


_ASSETS = {page: _load_assets(page) for page in _ASSET_TYPES}
_ASSETS["play"].update(_play_catalogues())
_HTML = "text/html; charset=utf-8"
_DOCS_PAGE = StaticBody(_read("docs", "index.html"), _HTML)
_PLAY_PAGE = StaticBody(_read("play", "index.html"), _HTML)


def _page(body: StaticBody | str, csp: str, status: int = 200) -> Response:
    if isinstance(body, StaticBody):
        resp: Response = StaticResponse(body, status)
    else:
        resp = Response(body, status=status, content_type=_HTML)
    resp.headers["Content-Security-Policy"] = csp
    resp.headers["X-Content-Type-Options"] = "nosniff"
    return resp


@bp.get("/")
def home():
    """The service's front door leads to its reference (relative: it works behind a path prefix)."""
    return Response(status=302, headers={"Location": "docs"})


@bp.get("/docs")
def docs():
    """Swagger UI on /openapi.yaml."""
    return _page(_DOCS_PAGE, DOCS_CSP)


@bp.get("/docs/<asset>")
def docs_asset(asset: str):
    """One of the reference's scripts or stylesheets."""
    return _asset("docs", asset)


@bp.get("/play")
def play():
    """The browser client; which game it shows is in the URL's fragment, never sent here."""
    return _page(_PLAY_PAGE, PLAY_CSP)


@bp.get("/play/<asset>")
def play_asset(asset: str):
    """One of the client's modules or its stylesheet."""
    return _asset("play", asset)


def _asset(page: str, asset: str) -> Response:
    found = _ASSETS[page].get(asset)
    if found is None:
        raise ApiProblem.of(
            "not_found", Text("/{page} has no asset {asset}.", {"page": page, "asset": repr(asset)})
        )
    header = request.headers.get("If-None-Match")
    if header is not None and _tag_listed(header, found.etag):
        resp = Response(status=304)
    else:
        resp = StaticResponse(found.body)
    resp.headers["ETag"] = found.etag
    resp.headers["Cache-Control"] = ASSET_CACHE_CONTROL
    resp.headers["X-Content-Type-Options"] = "nosniff"
    return resp


def _tag_listed(header: str, tag: str) -> bool:
    # if_none_match_hits compares a game's version; an asset's tag is a digest.
    return header.strip() == "*" or tag in (part.strip().removeprefix("W/") for part in header.split(","))


_CODES_BY_SLUG = {problem_slug(code): code for code in CATALOGUE}


@bp.get("/problems/<problem>")
def problem_page(problem: str):
    """The page a problem's `type` URL names, in the request's language: what the error means and what to do.

    An unknown name is a 404: problem+json for programs, and for a browser
    (which asks for text/html first) the not_found page saying so.
    """
    code = _CODES_BY_SLUG.get(problem)
    language = request_language()
    if code is None:
        refusal = ApiProblem.of(
            "not_found",
            Text("There is no problem type {problem}; see GET /docs.", {"problem": repr(problem)}),
        )
        if not _wants_html():
            raise refusal
        notice = f'<p class="note">{escape(refusal.text_of_detail.in_language(language))}</p>'
        return page_response(_problem_page("not_found", language, notice), language, status=refusal.status)
    return page_response(_kept_problem_page(code, language), language)


def _wants_html() -> bool:
    accept = request.accept_mimetypes
    return accept["text/html"] > max(accept["application/json"], accept["application/problem+json"])


@functools.cache
def _kept_problem_page(code: str, language: str) -> StaticBody:
    return _problem_page(code, language)


def _problem_page(code: str, language: str, notice: str = "") -> StaticBody:
    entry = CATALOGUE[code]
    say = functools.partial(translate, language)
    title = say(entry.title)
    main = f"""{notice}<h1>{escape(title)}</h1>
<p class="status">{escape(say(_HTTP_STATUS))} <strong>{entry.status}</strong>, <code>code</code>: <code id="code">{escape(code)}</code></p>
<h2>{escape(say(_WHEN))}</h2>
<p>{rich(say(entry.when))}</p>
<h2>{escape(say(_WHAT_TO_DO))}</h2>
<p>{rich(say(entry.what_to_do))}</p>
<p>{rich(say(_ABOUT_PROBLEMS))}</p>"""
    return page_body(language, f"{title} ({code}): Patchwork", main, home="..")


_HTTP_STATUS = N_("HTTP status")
_WHEN = N_("When it happens")
_WHAT_TO_DO = N_("What to do")
_ABOUT_PROBLEMS = N_(
    "Every error of this service is an RFC 9457 `application/problem+json` body whose `type` is the address "
    "of a page like this one; programs should switch on its `code`, which stays in English."
)
