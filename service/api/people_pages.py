"""The frame of the server-written pages for people (problem pages, /rules): one language each, one stylesheet.

The stylesheet is inline, allowed by its digest in the page's
Content-Security-Policy, so a page loads nothing and still is styled.
Each page is written in the request's language and says so
(`<html lang>`, `Content-Language`, `Vary: Accept-Language`). A page that
is the same for every request of its language is a StaticBody kept per
language by its caller, so its gzip form is made once for each language,
never shared between two.
"""

from __future__ import annotations

import base64
import hashlib

from flask import Response
from markupsafe import Markup, escape

from service.api.bodies import StaticBody, StaticResponse
from service.languages import N_, translate

from .languages import speaks

HTML = "text/html; charset=utf-8"
_PLAY = N_("Play")
_RULES = N_("Rules")
_REFERENCE = N_("API reference")
_STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; color: #2b2118; background: #fbf6ec; margin: 0; }
header { background: #4a3b31; color: #fff6dd; padding: .6rem 1.2rem; }
header a { color: #fff6dd; }
header strong { font-size: 1.25rem; margin-right: 1rem; }
main { max-width: 46rem; margin: 0 auto; padding: .5rem 1.2rem 2rem; }
h1 { font-size: 1.6rem; margin: 1rem 0 .4rem; }
h2 { font-size: 1.15rem; margin: 1.4rem 0 .3rem; color: #4a3b31; }
code { background: #efe4cc; border-radius: 3px; padding: 0 .25em; font-size: .92em; }
.status { color: #7a6f64; }
.note { border-left: 4px solid #d1495b; background: #fff; padding: .4rem .8rem; }
figure { margin: .6rem 0; display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: #7a6f64; font-size: .9rem; }
nav.languages a { margin-right: .6rem; }
"""
_STYLE_SOURCE = base64.b64encode(hashlib.sha256(_STYLE.encode()).digest()).decode()
# Nothing loaded, no script; the one stylesheet by its digest; pictures inline or from the service.
PAGE_CSP = f"default-src 'none'; style-src 'sha256-{_STYLE_SOURCE}'; img-src 'self'; base-uri 'none'; form-action 'none'"


def rich(text: str) -> Markup:
    """Escaped text with `backticked` spans as <code>."""
    parts = str(escape(text)).split("`")
    return Markup("".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts)))


def page_body(language: str, title: str, main: str, *, home: str = "..") -> StaticBody:
    """A whole page in `language`: `title` (plain text) and `main` (HTML), under the service's header.

    `home` is the relative path from the page to the service's root (pages work behind a path prefix).
    """
    html = f"""<!doctype html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<header><strong>Patchwork</strong> <a href="{home}/play">{escape(translate(language, _PLAY))}</a>
 · <a href="{home}/rules">{escape(translate(language, _RULES))}</a>
 · <a href="{home}/docs">{escape(translate(language, _REFERENCE))}</a></header>
<main>
{main}
</main>
</body>
</html>
"""
    return StaticBody(html.encode(), HTML)


def page_response(body: StaticBody, language: str, *, status: int = 200) -> Response:
    """The answer carrying a page of `page_body` written in `language`."""
    resp = StaticResponse(body, status)
    resp.headers["Content-Security-Policy"] = PAGE_CSP
    resp.headers["X-Content-Type-Options"] = "nosniff"
    return speaks(resp, language)
