"""Pages for people: the reference at /docs, the client at /play, and one page per problem type.

/docs is Swagger UI (version 5: it reads OpenAPI 3.2), vendored from its
pinned npm package into service/static/docs/ by tools/vendor_docs.py, so
every asset comes from the service itself and the page works offline.
/play is the project's own small client (service/static/play/: plain HTML,
ES modules and CSS, no build step) that uses only the public API.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources

from flask import Blueprint, Response, request
from markupsafe import Markup, escape

from service.games import CATALOGUE
from service.languages import Text

from ..middleware.compression import StaticBody, StaticResponse
from ..problems import ApiProblem, problem_slug

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
# A problem page loads nothing at all.
PROBLEM_PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'"
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


def _load_assets(page: str) -> dict[str, _Asset]:
    assets = {}
    for name, content_type in _ASSET_TYPES[page].items():
        body = _read(page, name)
        assets[name] = _Asset(StaticBody(body, content_type), f'"{hashlib.sha256(body).hexdigest()[:32]}"')
    return assets


_ASSETS = {page: _load_assets(page) for page in _ASSET_TYPES}
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
        raise ApiProblem(
            404, "not_found", Text("/{page} has no asset {asset}.", {"page": page, "asset": repr(asset)})
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
    """The page a problem's `type` URL names: what the error means and what to do."""
    code = _CODES_BY_SLUG.get(problem)
    if code is None:
        raise ApiProblem(
            404,
            "not_found",
            Text("There is no problem type {problem}; see GET /docs.", {"problem": repr(problem)}),
        )
    return _page(_problem_html(code), PROBLEM_PAGE_CSP)


def _rich(text: str) -> Markup:
    """Escaped text with `backticked` spans as <code>."""
    parts = str(escape(text)).split("`")
    return Markup("".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts)))


def _problem_html(code: str) -> str:
    help_ = CATALOGUE[code]
    title = escape(help_.title)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} ({escape(code)}): Patchwork service</title>
</head>
<body>
<main>
<h1>{title}</h1>
<p>HTTP status <strong>{help_.status}</strong>, <code>code</code>: <code id="code">{escape(code)}</code></p>
<h2>When it happens</h2>
<p>{_rich(help_.when)}</p>
<h2>What to do</h2>
<p>{_rich(help_.what_to_do)}</p>
<p>Every error of this service is an RFC 9457 <code>application/problem+json</code> body whose <code>type</code>
is the address of a page like this one; programs should switch on its <code>code</code>.
See the <a href="../docs">API reference</a>.</p>
</main>
</body>
</html>
"""
