"""The pictures stand on the engine alone, and text from requests is made safe in one place."""

import json
import subprocess
import sys
from pathlib import Path

from service.pictures.safe_text import display_width, displayable, svg_text

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import json, sys
before = set(sys.modules)
import service.pictures
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_importing_the_pictures_loads_the_engine_and_the_standard_library_only():
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = json.loads(result.stdout)
    assert "service.pictures.board" in loaded
    assert {name.split(".")[0] for name in loaded} - set(sys.stdlib_module_names) == {"service"}
    assert [
        name
        for name in loaded
        if name.startswith("service.")
        and not name.startswith(("service.engine", "service.pictures", "service.languages"))
    ] == []


def test_controls_surrogates_and_bidi_overrides_are_replaced():
    assert (
        displayable("a\tb\nc\x00d\x7fe\x9ff\ud800g\ufffeh\u202ei\u2067j")
        == "a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf\ufffdg\ufffdh\ufffdi\ufffdj"
    )
    assert displayable("Zoë 🧵 名前") == "Zoë 🧵 名前"


def test_svg_text_escapes_markup_and_both_quotes():
    assert svg_text("<b>&\"'</b>]]>") == "&lt;b&gt;&amp;&quot;&#39;&lt;/b&gt;]]&gt;"


def test_wide_characters_take_two_columns():
    assert display_width("ab名前") == 6
