"""The service as `pip install .` (and the Docker image) installs it: a wheel, with no checkout beside it.

Every other test runs the editable install, which reads service/ from the
checkout, so a file the package fails to carry is never missed there. Here:

- the wheel the Docker image installs is built from what its COPY lines copy;
- the sdist and the wheel are built the way `python -m build` does (the sdist
  from a copy of the checkout without what .gitignore leaves out, the wheel
  from the unpacked sdist), through the PEP 517 hooks of the backend
  pyproject.toml names; both must hold every file of the source package,
  openapi.yaml (a symlink in the checkout) as the real document;
- the wheel goes into a fresh venv whose only view of the locked third-party
  packages is a .pth line naming this venv's site-packages. A .pth line adds
  a directory and nothing else (the .pth files inside it are not run), so the
  editable install's hook stays off: `service` can only come from the wheel,
  which the test checks. Reinstalling the runtime lock instead would take
  a minute and test pip, not the package;
- its `patchwork-service` script runs from an empty directory, with its own
  embedded Redis, and every page and every asset the pages load is fetched
  and compared with the checkout's file.
"""

from __future__ import annotations

import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest
import requests

from service.engine import canonical_move, legal_moves, new_game, parse_move
from tests.support.dockerfile import arguments
from tests.support.live_service import ROOT
from tests.support.patchwork_service import PatchworkService

SOURCE_PACKAGE = ROOT / "service"
# Directories of the source package that are build or run output, never package content.
_NOT_CONTENT = {"__pycache__"}


def _package_files() -> dict[str, bytes]:
    """Every file of the source package, by its path in an installed tree, with its (dereferenced) bytes."""
    files = {}
    for path in sorted(SOURCE_PACKAGE.rglob("*")):
        relative = path.relative_to(ROOT)
        if _NOT_CONTENT & set(relative.parts) or path.is_dir() or path.suffix == ".pyc":
            continue
        files[relative.as_posix()] = path.read_bytes()
    # The contract lives at the repository's root; the build copies it into the package (setup.py).
    files["service/openapi.yaml"] = (ROOT / "openapi.yaml").read_bytes()
    return files


def _clean_copy(destination: Path) -> Path:
    """The checkout as a fresh clone has it: without what .gitignore leaves out; symlinks kept as links."""
    ignored = [".git"]
    for line in (ROOT / ".gitignore").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            ignored.append(line.strip("/"))
    shutil.copytree(ROOT, destination, symlinks=True, ignore=shutil.ignore_patterns(*ignored))
    return destination


def _image_tree(destination: Path) -> Path:
    """What the Dockerfile's COPY lines put in its WORKDIR (each source as Docker copies it: links kept)."""
    destination.mkdir()
    for args in arguments("COPY"):
        *sources, target = args.split()
        for source in sources:
            origin = ROOT / source
            into = destination / target / origin.name if target.endswith("/") else destination / target
            into.parent.mkdir(parents=True, exist_ok=True)
            if origin.is_dir():
                shutil.copytree(origin, into, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(origin, into)
    return destination


def _build(hook: str, source: Path, out: Path) -> Path:
    """Run `hook` (build_sdist or build_wheel) of the backend pyproject.toml names, in `source`, into `out`."""
    out.mkdir(exist_ok=True)
    backend = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["build-backend"]
    code = (
        "import importlib, sys\n"
        f"name = importlib.import_module({backend!r}).{hook}(sys.argv[1])\n"
        "print('built:' + name)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(out)], cwd=source, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out / done.stdout.rpartition("built:")[2].strip()


def _sdist_files(sdist: Path) -> dict[str, bytes]:
    with tarfile.open(sdist) as archive:
        top = archive.getnames()[0].split("/")[0]
        found = {}
        for member in archive.getmembers():
            if member.isfile():
                found[member.name.removeprefix(top + "/")] = archive.extractfile(member).read()
            elif member.issym():
                found[member.name.removeprefix(top + "/")] = b"symlink to " + member.linkname.encode()
        return found


def _wheel_files(wheel: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: archive.read(name) for name in archive.namelist() if not name.endswith("/")}


def _missing_or_different(expected: dict[str, bytes], found: dict[str, bytes]) -> list[str]:
    return [name for name, body in expected.items() if found.get(name) != body]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """(sdist, wheel built from that sdist)."""
    work = tmp_path_factory.mktemp("build")
    sdist = _build("build_sdist", _clean_copy(work / "checkout"), work / "dist")
    with tarfile.open(sdist) as archive:
        archive.extractall(work / "unpacked", filter="tar")
    (unpacked,) = (work / "unpacked").iterdir()
    return sdist, _build("build_wheel", unpacked, work / "dist")


def test_the_sdist_and_the_wheel_carry_every_file_of_the_package(built):
    sdist, wheel = built
    expected = _package_files()
    sdist_files = _sdist_files(sdist)
    # The sdist carries the contract at its root, for its wheel's build to copy in.
    assert sdist_files["openapi.yaml"] == (ROOT / "openapi.yaml").read_bytes()
    del expected["service/openapi.yaml"]
    assert _missing_or_different(expected, sdist_files) == []
    expected = _package_files()
    assert _missing_or_different(expected, _wheel_files(wheel)) == []


def test_the_wheel_the_docker_image_builds_carries_every_file_of_the_package(tmp_path):
    # The image runs `pip install .` in what its COPY lines copied: a wheel from that tree.
    wheel = _build("build_wheel", _image_tree(tmp_path / "app"), tmp_path / "dist")
    assert _missing_or_different(_package_files(), _wheel_files(wheel)) == []


class _Loads(html.parser.HTMLParser):
    """The URLs a page makes the browser fetch (scripts, stylesheets, icons, images), and which are ES modules."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in ("script", "img") and found.get("src"):
            self.urls.append((found["src"], found.get("type") == "module"))
        if tag == "link" and found.get("href"):
            self.urls.append((found["href"], False))


# `import ... from "./x.js"`, `import "./x.js"` and `import("./x.js")` in an ES module; not the word
# inside a string (`$("import")`, "/games/import"): the keyword starts a line or follows a space, `;`, `(` or `=`.
_MODULE_IMPORT = re.compile(r"""(?<![^\s;(=])import\b(?:[^"'();]*?\bfrom\b)?\s*\(?\s*["']([^"']+)["']""")


def _fetch(url: str) -> requests.Response:
    answer = requests.get(url, timeout=30, allow_redirects=False)
    assert answer.status_code == 200, (url, answer.status_code, answer.text[:300])
    return answer


def _checked_asset(url: str, base: str) -> requests.Response:
    """GET an asset of /docs or /play: 200, a type for its kind, the checkout's bytes."""
    answer = _fetch(url)
    path = urlparse(url).path.removeprefix(urlparse(base).path)
    source = SOURCE_PACKAGE / "static" / path
    assert answer.content == source.read_bytes(), url
    kinds = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
    assert answer.headers["Content-Type"].split(";")[0] == kinds[source.suffix], url
    return answer


def _check_page_and_its_assets(base: str, page: str, source: Path) -> set[str]:
    """Fetch the page and, transitively, every asset it loads; return the asset URLs."""
    page_url = urljoin(base, page)
    answer = _fetch(page_url)
    assert answer.headers["Content-Type"].startswith("text/html"), page_url
    assert answer.content == source.read_bytes(), page_url
    parser = _Loads()
    parser.feed(answer.text)
    assert parser.urls, f"{page_url} loads nothing: the parse is wrong"
    pending = [(urljoin(page_url, url), module) for url, module in parser.urls]
    seen: set[str] = set()
    while pending:
        url, module = pending.pop()
        if url in seen:
            continue
        seen.add(url)
        asset = _checked_asset(url, base)
        if module:  # what an ES module imports is a module too
            pending += [(urljoin(url, imported), True) for imported in _MODULE_IMPORT.findall(asset.text)]
    return seen


def _installed_service(built: tuple[Path, Path], root: Path) -> Path:
    """A fresh venv holding the wheel (and, by a .pth, the locked third-party packages); its bin/."""
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    fresh = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(fresh, "locked-dependencies.pth").write_text("".join(f"{path}\n" for path in sorted(ours)))
    _, wheel = built
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install"]
        + ["--no-deps", "--no-index", "--quiet", str(wheel)],
        check=True,
        timeout=300,
        cwd=root,
    )
    where = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import json, service, sys; print(service.__file__); print(json.dumps(sys.path))",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
        env={name: value for name, value in os.environ.items() if name != "PYTHONPATH"},
    ).stdout.splitlines()
    assert where[0].startswith(fresh), f"service imported from {where[0]}, not from the wheel"
    assert str(ROOT) not in json.loads(where[1]), where[1]
    return venv / "bin"


def test_the_installed_wheel_boots_and_serves_every_page_and_asset(built, tmp_path):
    scripts = _installed_service(built, tmp_path)
    elsewhere = tmp_path / "elsewhere"  # no checkout in the working directory
    elsewhere.mkdir()
    service = PatchworkService(
        tmp_path / "data",
        tmp_path / "service.log",
        command=[str(scripts / "patchwork-service")],
        cwd=elsewhere,
    )
    service.env.pop("PYTHONPATH", None)  # nothing may lead it back to the checkout
    try:
        try:
            service.start()
        except RuntimeError as failed:  # the reason is in what it printed
            raise AssertionError(f"{failed}; it printed:\n{service.log()}") from None
        _assert_serves_every_page_and_asset(service.url + "/")
    finally:
        service.close()


def _assert_serves_every_page_and_asset(base: str) -> None:
    front = requests.get(base, timeout=30, allow_redirects=False)
    assert (front.status_code, front.headers["Location"]) == (302, "docs")

    docs_assets = _check_page_and_its_assets(base, "docs", SOURCE_PACKAGE / "static/docs/index.html")
    play_assets = _check_page_and_its_assets(base, "play", SOURCE_PACKAGE / "static/play/index.html")
    assert {urljoin(base, "docs/swagger-ui-bundle.js"), urljoin(base, "docs/docs.js")} <= docs_assets
    # play.js's imports were followed, not just the page's one script.
    assert {
        urljoin(base, f"play/{name}")
        for name in ("play.js", "api.js", "draw.js", "follow.js", "clocks.js", "lobby.js")
    } <= (play_assets)

    # What /docs renders: the document itself, as the checkout holds it.
    spec = _fetch(urljoin(base, "openapi.yaml"))
    assert spec.content == (ROOT / "openapi.yaml").read_bytes()

    # A problem answer names its page by `type`; that page is served too.
    refused = requests.post(
        urljoin(base, "games"), data=b"{", headers={"Content-Type": "application/json"}, timeout=30
    )
    assert refused.status_code == 400, refused.text
    problem_page = _fetch(urljoin(base, refused.json()["type"]))
    assert refused.json()["code"] in problem_page.text

    # And the installed engine plays: a game is created and shows its board.
    created = requests.post(urljoin(base, "games"), json={"seed": 1}, timeout=30)
    assert created.status_code == 201, created.text
    board = _fetch(urljoin(base, created.headers["Location"]) + "/board.svg")
    assert board.content.startswith(b"<svg")

    # The compiled catalogues came with the wheel: answers speak the language asked for.
    spanish = _fetch_in(urljoin(base, created.headers["Location"]) + "/board.svg", "es-ES")
    assert "tablero de tiempo" in spanish.text and spanish.headers["ETag"] == '"1-es"'
    refused_in_portuguese = requests.post(
        urljoin(base, "games"),
        data=b"{",
        headers={"Content-Type": "application/json", "Accept-Language": "pt-BR"},
        timeout=30,
    )
    assert refused_in_portuguese.json()["title"] == "O corpo não é JSON"
    assert refused_in_portuguese.headers["Content-Language"] == "pt"
    assert "Comment jouer à Patchwork" in _fetch_in(urljoin(base, "rules"), "fr").text
    assert _fetch(urljoin(base, "play/messages.fr.json")).json()["messages"]["Start"] == "Commencer"


def _fetch_in(url: str, language: str) -> requests.Response:
    answer = requests.get(url, headers={"Accept-Language": language}, timeout=30)
    assert answer.status_code == 200, (url, answer.status_code)
    assert answer.headers["Content-Language"] == language.split("-")[0], url
    return answer


def test_the_installed_wheel_s_engine_and_bridge_run_outside_the_checkout(built, tmp_path):
    """`patchwork-engine` answers the protocol and `patchwork-bot` starts, from the wheel alone."""
    scripts = _installed_service(built, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    state = new_game(seed=3)
    circle = ",".join(map(str, state.circle))
    lines = f"patchwork\nisready\nposition circle {circle} first 0 board revised\ngo movetime 50\n"
    engine = subprocess.run(
        [str(scripts / "patchwork-engine"), "greedy"],
        input=lines,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=elsewhere,
        env=env,
    )
    answers = engine.stdout.splitlines()
    assert "patchworkok" in answers and "readyok" in answers, engine.stdout + engine.stderr
    (best,) = [line.split()[1] for line in answers if line.startswith("bestmove ")]
    assert canonical_move(parse_move(best)) in {canonical_move(move) for move in legal_moves(state)}

    bridge = subprocess.run(
        [str(scripts / "patchwork-bot"), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=elsewhere,
        env=env,
    )
    assert bridge.returncode == 0 and "--engine" in bridge.stdout, bridge.stdout + bridge.stderr
    # Without a token it refuses to start, saying how to give one.
    unset = {name: value for name, value in env.items() if name != "PATCHWORK_BOT_TOKEN"}
    refused = subprocess.run(
        [str(scripts / "patchwork-bot")], capture_output=True, text=True, timeout=60, cwd=elsewhere, env=unset
    )
    assert refused.returncode == 2 and "PATCHWORK_BOT_TOKEN" in refused.stderr, refused.stderr
