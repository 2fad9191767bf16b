"""The message catalogues: `./dev messages` extracts, merges and compiles them; the tests check them.

Messages are marked in the code (`Text(...)`, `N_(...)`, the engine's rule
errors, and `t(...)` in /play's scripts; with a count, `Plural(...)`, `NP_(...)`
and `tn(...)`) with English text as the msgid; the
spec's `x-error-messages` are messages too.
`./dev messages` extracts them all into service/languages/locale/messages.pot,
merges that into each language's messages.po (new messages arrive empty,
for a translator to write), and compiles each .po into the messages.mo the
service reads (committed, so the wheel ships them with no build step).
"""

from __future__ import annotations

import argparse
import html
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
SERVICE = ROOT / "service"
LOCALE = SERVICE / "languages" / "locale"
TEMPLATE = LOCALE / "messages.pot"
SPEC = ROOT / "openapi.yaml"
# What the extractor reads: the service's Python and /play's scripts.
METHODS = [
    ("static/play/**.js", "javascript"),
    ("static/play/index.html", "tools.messages:extract_page_texts"),
    ("**.py", "python"),
]
# (No "ignore" pattern: Babel skips a whole directory an ignore pattern matches, static/play/ with it.)


def translated() -> tuple[str, ...]:
    """The languages with a catalogue to write: every one the service speaks but English."""
    sys.path.insert(0, str(ROOT))
    from service.languages import DEFAULT_LANGUAGE, LANGUAGES

    return tuple(language for language in LANGUAGES if language != DEFAULT_LANGUAGE)


def keywords() -> dict[str, tuple[int, int] | None]:
    """The names whose first argument is a message: the markers, and every engine error that explains itself;
    and those whose first two are a message with a count, its singular and plural (Babel's spec (1, 2))."""
    sys.path.insert(0, str(ROOT))
    from service.engine.errors import ExplainedError
    from service.games import record_text  # noqa: F401  (its RecordError explains itself too)

    names = {"Text", "N_", "t"}
    pending = [ExplainedError]
    while pending:
        error = pending.pop()
        names.add(error.__name__)
        pending += error.__subclasses__()
    counted: dict[str, tuple[int, int] | None] = {name: (1, 2) for name in ("Plural", "NP_", "tn")}
    return {**dict.fromkeys(sorted(names)), **counted}


def extract_page_texts(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for /play's page: the English texts its elements mark with data-t."""
    from service.api.resources.pages import PLAY_PAGE_MESSAGE

    for number, line in enumerate(fileobj.read().decode("utf-8").splitlines(), start=1):
        for text in PLAY_PAGE_MESSAGE.findall(line):
            yield number, None, html.unescape(text), []


def spec_messages() -> list[tuple[int, str]]:
    """openapi.yaml's `x-error-messages` (a validation fault's message, in place of the generic one),
    with their lines: the service shows them in errors[] in the request's language."""
    import yaml

    text = SPEC.read_text(encoding="utf-8")
    found: list[str] = []
    pending = [yaml.safe_load(text)]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            found += [m for m in node.get("x-error-messages", {}).values() if isinstance(m, str)]
            pending += node.values()
        elif isinstance(node, list):
            pending += node
    lines = text.splitlines()
    return [
        (next((n for n, line in enumerate(lines, 1) if message in line), 0), message) for message in found
    ]


def bot_descriptions() -> list[tuple[int, str]]:
    """What GET /bots says of each level, with its line in service/bots/levels.py: the bots import nothing
    of the languages, so their descriptions are plain strings there, translated by the API."""
    sys.path.insert(0, str(ROOT))
    from service.bots import LEVELS

    lines = (SERVICE / "bots" / "levels.py").read_text(encoding="utf-8").splitlines()
    return [
        (next((n for n, line in enumerate(lines, 1) if level.description[:40] in line), 0), level.description)
        for level in LEVELS
    ]


def extract() -> Catalog:
    """Every marked message of the code and of the spec, and the bots' descriptions, with where they are used."""
    template = Catalog(project="patchwork-service", fuzzy=False)
    for path, line, message, comments, _context in extract_from_dir(
        str(SERVICE), METHODS, keywords=keywords(), comment_tags=("Translators:",), strip_comment_tags=True
    ):
        # A message, or a message with a count: (singular, plural).
        if message and (isinstance(message, str) or all(isinstance(form, str) for form in message)):
            template.add(message, locations=[(f"service/{path}", line)], auto_comments=comments)
    for line, message in sorted(spec_messages()):
        template.add(message, locations=[(SPEC.name, line)])
    for line, message in bot_descriptions():
        template.add(message, locations=[("service/bots/levels.py", line)])
    return template


def forms(message) -> tuple[str, ...]:
    """A catalogue entry's translation: its one string, or each form of a message with a count."""
    return message.string if isinstance(message.string, tuple) else (message.string,)


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "messages.po"


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=language)


def po_text(catalogue: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalogue, width=100, omit_header=False, sort_output=False, include_previous=False)
    return out.getvalue()


def mo_bytes(catalogue: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalogue, use_fuzzy=False)
    return out.getvalue()


def update() -> None:
    template = extract()
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_bytes(po_text(template))
    for language in translated():
        path = po_path(language)
        if path.exists():
            catalogue = read(path, language)
            catalogue.update(template, no_fuzzy_matching=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalogue = Catalog(locale=language, project="patchwork-service")
            catalogue.update(template, no_fuzzy_matching=True)
        catalogue.obsolete.clear()
        path.write_bytes(po_text(catalogue))
        path.with_suffix(".mo").write_bytes(mo_bytes(read(path, language)))
        print(
            f"{path.relative_to(ROOT)}: {sum(1 for m in catalogue if m.id and not all(forms(m)))} untranslated"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    update()


if __name__ == "__main__":
    main()
