"""Pages for people: / leads to /docs, /docs is served whole by the service under its CSP, and
every problem type URL names a page on the service that explains its code."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import pytest

from service.api import create_app
from service.config import ConfigError, Settings
from service.problems import CATALOGUE

from .conftest import checked_client_class

STATIC = Path(__file__).resolve().parents[2] / "service" / "static" / "docs"


class _References(HTMLParser):
    """The scripts (inline or not) and stylesheets a page loads."""

    def __init__(self):
        super().__init__()
        self.scripts: list[str | None] = []
        self.stylesheets: list[str] = []
        self._in_inline_script = False
        self.inline_code = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self.scripts.append(attrs.get("src"))
            self._in_inline_script = "src" not in attrs
        elif tag == "link" and attrs.get("rel") == "stylesheet":
            self.stylesheets.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_inline_script = False

    def handle_data(self, data):
        if self._in_inline_script:
            self.inline_code += data


def references(html: str) -> _References:
    parser = _References()
    parser.feed(html)
    return parser


def test_the_front_door_leads_to_docs(client):
    resp = client.get("/")
    assert resp.status_code == 302
    assert urljoin("http://localhost/", resp.headers["Location"]) == "http://localhost/docs"


def test_docs_is_swagger_ui_on_the_services_own_spec_under_a_self_only_policy(client):
    resp = client.get("/docs")
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "text/html; charset=utf-8"
    policy = {
        directive.split()[0]: directive.split()[1:]
        for directive in resp.headers["Content-Security-Policy"].split(";")
    }
    assert policy["default-src"] == ["'self'"]
    assert "script-src" not in policy and "style-src" not in policy  # both fall back to 'self' alone
    for sources in policy.values():
        assert set(sources) <= {"'self'", "'none'", "data:"}, sources
    page = references(resp.get_data(as_text=True))
    assert page.inline_code.strip() == ""  # the CSP would refuse it
    assert page.scripts and None not in page.scripts
    init = client.get(urljoin("/docs", page.scripts[-1])).get_data(as_text=True)
    assert "SwaggerUIBundle" in init
    assert 'url: "openapi.yaml"' in init and urljoin("/docs", "openapi.yaml") == "/openapi.yaml"


def test_every_asset_of_docs_comes_from_the_service(client):
    page = references(client.get("/docs").get_data(as_text=True))
    wanted = {"text/javascript": page.scripts, "text/css": page.stylesheets}
    for media_type, urls in wanted.items():
        for url in urls:
            assert "//" not in url, url  # no other host
            resp = client.get(urljoin("/docs", url))
            assert resp.status_code == 200, url
            assert resp.mimetype == media_type, url
            assert resp.get_data() == (STATIC / url.rsplit("/", 1)[1]).read_bytes()
    assert urljoin("/docs", page.scripts[0]) == "/docs/swagger-ui-bundle.js"


def test_the_stylesheet_fetches_no_font_or_image_from_elsewhere(client):
    css = client.get("/docs/swagger-ui.css").get_data(as_text=True)
    assert "@import" not in css and "@font-face" not in css
    urls = css.split("url(")[1:]
    assert urls and all(url.lstrip("\"'").startswith("data:") for url in urls)


def test_a_docs_asset_answers_304_to_its_tag(client):
    first = client.get("/docs/docs.js")
    tag = first.headers["ETag"]
    again = client.get("/docs/docs.js", headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.headers["ETag"] == tag
    assert client.get("/docs/docs.js", headers={"If-None-Match": '"other"'}).status_code == 200


@pytest.mark.parametrize("asset", ["index.html", "VENDORED.json", "LICENSE", "nothing.js", "..", "%2e%2e"])
def test_docs_serves_no_other_file(client, asset):
    resp = client.get(f"/docs/{asset}")
    assert resp.status_code == 404
    problem = resp.get_json()
    assert problem["code"] == "not_found"
    assert "/docs has no asset" in problem["detail"]


def test_every_problem_code_has_its_explanation():
    for code, entry in CATALOGUE.items():
        assert entry.code == code
        assert entry.title and entry.when and entry.what_to_do, code


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_problem_code_has_a_page_naming_it(client, code):
    resp = client.get("/problems/" + code.replace("_", "-"))
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "text/html; charset=utf-8"
    assert resp.headers["Content-Security-Policy"].startswith("default-src 'none'")
    html = resp.get_data(as_text=True)
    assert f'<code id="code">{code}</code>' in html
    assert f"<strong>{CATALOGUE[code].status}</strong>" in html
    assert "<script" not in html


@pytest.mark.parametrize("name", ["not_your_turn", "nothing", "NOT-YOUR-TURN"])
def test_a_problem_page_that_does_not_exist_is_404_problem_json(client, name):
    resp = client.get(f"/problems/{name}")
    assert resp.status_code == 404
    assert resp.mimetype == "application/problem+json"
    problem = resp.get_json()
    assert problem["code"] == "not_found"
    assert "no problem type" in problem["detail"]


def test_a_problem_type_is_a_relative_url_of_its_page_by_default(client):
    problem = client.get("/games/nosuchgame").get_json()
    assert problem["type"] == "/problems/game-not-found"
    page = client.get(problem["type"])
    assert page.status_code == 200
    assert '<code id="code">game_not_found</code>' in page.get_data(as_text=True)


def test_a_problem_type_is_absolute_under_public_url(backend, contract):
    app = create_app(backend.settings(public_url="https://patchwork.example.org/play"))
    app.test_client_class = checked_client_class(contract)
    try:
        client = app.test_client()
        problem = client.get("/games/nosuchgame").get_json()
        assert problem["type"] == "https://patchwork.example.org/play/problems/game-not-found"
        move = client.post("/games/nosuchgame/moves", json={"action": "advance"})
        assert move.get_json()["type"] == "https://patchwork.example.org/play/problems/game-not-found"
    finally:
        app.extensions["patchwork"].store.close()


def test_public_url_is_read_without_its_trailing_slash():
    assert (
        Settings.from_env({"PUBLIC_URL": "https://patchwork.example.org/"}).public_url
        == "https://patchwork.example.org"
    )
    assert Settings.from_env({}).public_url == ""


@pytest.mark.parametrize(
    "value", ["patchwork.example.org", "ftp://example.org", "https://", "https://x.org/?a=1", "/relative"]
)
def test_a_public_url_that_is_not_an_absolute_http_address_stops_the_start(value):
    with pytest.raises(ConfigError, match="PUBLIC_URL"):
        Settings.from_env({"PUBLIC_URL": value})


PLAY = STATIC.parent / "play"
# `import ... from "./name.js"` in a module of /play.
_PLAY_IMPORT = re.compile(r'from\s+"\./([\w.-]+\.js)"')


@pytest.mark.parametrize("module", sorted(path.name for path in PLAY.glob("*.js")))
def test_every_module_play_imports_is_served(client, module):
    imported = _PLAY_IMPORT.findall((PLAY / module).read_text())
    for name in imported:
        resp = client.get(f"/play/{name}")
        assert resp.status_code == 200, f"{module} imports {name}, which /play/{name} does not serve"
