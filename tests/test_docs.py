"""The repository explains itself: every doc it cites is in it, at the section it names.

A clone has `docs/`, not the team's shared folder, so code, tests and the
README cite `docs/<file>.md#<section>` (rules.md, api-guide.md). These
tests fail when such a citation names a missing file or section, when a file
still cites a document outside the repository, or when the docs name a
module or test that no longer exists.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
THIS_FILE = Path(__file__).resolve()

# docs/<name>.md with an optional #anchor, anywhere in any file.
DOC_CITATION = re.compile(r"docs/([\w.-]+\.md)(?:#([\w-]+))?")
# A markdown link's target: ](target) or ](target "title").
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
# The team's documents that a clone does not have, cited bare or by path.
OUTSIDE_CITATION = re.compile(r"\.\./shared|(?<![\w/.-])(?:RULES|API|ANU-GAMES|STYLE)\.md\b")
# A path to a source file in backticks, optionally ::a_function_or_class.
CODE_PATH = re.compile(
    r"`((?:service|tests|benchmarks)/[\w/.-]+\.(?:py|json|yaml|lua))"
    r"(?:::(\w+))?`"
)
_SKIPPED_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", "build", "dist"}


def repository_files() -> list[Path]:
    """The files a clone has (tracked, or new and not ignored)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=REPO,
            capture_output=True,
            check=True,
        ).stdout.decode()
        paths = [REPO / name for name in listed.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        # No git (an exported tree): walk it, leaving out what git ignores here.
        paths = [
            path for path in REPO.rglob("*") if not _SKIPPED_DIRS.intersection(path.relative_to(REPO).parts)
        ]
    return sorted(path for path in paths if path.is_file() and not path.is_symlink())


def text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def lines_of_texts():
    """(path relative to the repo, line number, line) of every text file."""
    for path in repository_files():
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            yield path.relative_to(REPO), number, line


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    """The anchors of a markdown file's headings (outside code blocks)."""
    found: set[str] = set()
    counts: dict[str, int] = {}
    in_code = False
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and re.match(r"#{1,6} ", line):
            base = slug(line.lstrip("#"))
            n = counts.get(base, 0)
            counts[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def broken(doc: Path, anchor: str | None) -> str | None:
    """Why a citation of doc#anchor does not resolve, or None when it does."""
    if not doc.is_file():
        return f"{doc.relative_to(REPO)} does not exist"
    if anchor and anchor not in anchors(doc):
        return f"{doc.relative_to(REPO)} has no section #{anchor}"
    return None


def test_every_docs_citation_names_a_file_and_section_that_exist():
    faults = []
    for path, number, line in lines_of_texts():
        for match in DOC_CITATION.finditer(line):
            why = broken(DOCS / match.group(1), match.group(2))
            if why:
                faults.append(f"{path}:{number}: {match.group(0)}: {why}")
    assert not faults, "\n".join(faults)


def test_relative_links_in_the_docs_and_readme_resolve():
    faults = []
    for doc in [REPO / "README.md", *sorted(DOCS.glob("*.md"))]:
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for target in MARKDOWN_LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue  # http:, https:, mailto:
                name, _, anchor = target.partition("#")
                linked = (doc.parent / name).resolve() if name else doc
                if REPO not in linked.parents and linked != REPO:
                    faults.append(f"{doc.relative_to(REPO)}:{number}: {target} leaves the repository")
                    continue
                why = (
                    broken(linked, anchor or None)
                    if linked.suffix == ".md"
                    else (None if linked.exists() else f"{target} does not exist")
                )
                if why:
                    faults.append(f"{doc.relative_to(REPO)}:{number}: {target}: {why}")
    assert not faults, "\n".join(faults)


def test_no_file_cites_a_document_outside_the_repository():
    faults = [
        f"{path}:{number}: {line.strip()}"
        for path, number, line in lines_of_texts()
        if REPO / path != THIS_FILE and OUTSIDE_CITATION.search(line)
    ]
    assert not faults, "\n".join(faults)


def test_the_modules_and_tests_the_docs_name_exist():
    faults = []
    for doc in sorted(DOCS.glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        for match in CODE_PATH.finditer(text):
            target, name = REPO / match.group(1), match.group(2)
            if not target.is_file():
                faults.append(f"{doc.name}: {match.group(1)} does not exist")
            elif name and not re.search(
                rf"^\s*(?:def|class) {name}\b", target.read_text(encoding="utf-8"), re.MULTILINE
            ):
                faults.append(f"{doc.name}: {match.group(1)} defines no {name}")
    assert not faults, "\n".join(faults)


def readme_section(title: str) -> str:
    """The text of the README's `## <title>` section, up to the next `## ` heading."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_the_readme_settings_table_lists_every_variable_service_config_reads():
    source = (REPO / "service" / "config.py").read_text(encoding="utf-8")
    # Every read of a variable: env.get("NAME", ...) or a parser's (env, "NAME", ...).
    variables = set(re.findall(r'(?:env\.get\(|\(\s*env,\s*)"([A-Z_]+)"', source))
    # XDG_DATA_HOME is the desktop standard's, not ours: the table names it as the data dir's default.
    assert {"REDIS_URL", "PUBLIC_URL", "LOG_FORMAT", "METRICS_TOKEN", "XDG_DATA_HOME"} <= variables
    table = readme_section("Configuration")
    rows = set(re.findall(r"^\| `([A-Z_]+)` \|", table, re.MULTILINE))
    assert variables - {"XDG_DATA_HOME"} == rows
    assert "$XDG_DATA_HOME" in table


def test_the_readme_stays_short_and_leaves_the_figures_to_the_benchmarks():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 400
    assert "./dev serve" in readme_section("Quick start")
    assert "./dev test" in readme_section("Quick start")


def architecture() -> str:
    return (DOCS / "architecture.md").read_text(encoding="utf-8")


def test_the_architecture_lists_every_package_of_the_service_and_no_other():
    listed = set(re.findall(r"^\| `service/(\w+)/` \|", architecture(), re.MULTILINE))
    packages = {path.parent.name for path in (REPO / "service").glob("*/__init__.py")}
    assert listed == packages


def test_the_architecture_lists_the_apps_blueprints(redis_url):
    from service.api import create_app
    from service.config import Settings

    text = architecture()
    sentence = text[text.index("The app's blueprints") :].split("\n\n", 1)[0]
    listed = re.findall(r"`(\w+)`", sentence.split(":", 1)[1])
    app = create_app(Settings.from_env({"REDIS_URL": redis_url}))
    try:
        assert sorted(listed) == sorted(app.blueprints)
        # Each lives in the module of its name.
        assert all((REPO / "service" / "api" / "resources" / f"{name}.py").is_file() for name in listed)
    finally:
        app.extensions["patchwork"].store.close()
