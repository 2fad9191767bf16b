"""axe-core's accessibility check of the page a driver shows, in the page itself.

axe-core is pinned in the repository's package.json (`./dev test` installs it
into node_modules); its script is injected into the page and run on the
whole document, held to the WCAG 2.1 A and AA rules.
"""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def violations(driver) -> list[str]:
    """Each violated rule of the page as shown now, with the elements at fault (empty: none)."""
    assert AXE.exists(), "node_modules lacks axe-core: run ./dev test (it runs npm ci)"
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    found = driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: "tag", values: arguments[0]}, resultTypes: ["violations"]})
          .then((result) => done(result.violations.map((v) =>
            `${v.id} (${v.impact}): ${v.help}: ` + v.nodes.map((n) => n.target.join(" ") + " " + n.failureSummary).join(" | "))),
            (error) => done([`axe failed: ${error}`]));""",
        WCAG_21_AA,
    )
    return list(found)
