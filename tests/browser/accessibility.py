"""axe-core in the browser tests: a page at phone size, in the light and the dark theme, with no violations.

    from .accessibility import assert_accessible
    assert_accessible(page)               # the page as it is now, in both themes
    assert_accessible(page, "#match")     # only a part of it

axe-core comes with axe-playwright-python (a test dependency); it runs inside the page, so what
it checks is what the phone shows, styles and contrast included. Both themes are the system's
(prefers-color-scheme), which is what the theme switch sets too.
"""

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

# WCAG 2.0-2.2 A and AA, and axe's best practices (landmarks, headings, one main, ...).
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa",
                                                 "best-practice"]}, "resultTypes": ["violations"]}
THEMES = ("light", "dark")

_axe = Axe()


def violations(page: Page, context: str | None = None) -> list[str]:
    """axe's violations on the page as it is, one readable line per element."""
    results = _axe.run(page, context=context, options=RULES).response
    found = []
    for violation in results["violations"]:
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node["target"])
            summary = node.get("failureSummary", "").replace("\n", " ")
            found.append(f"{violation['id']} ({violation['impact']}) at {target}: {summary}")
    return found


def assert_accessible(page: Page, context: str | None = None, themes=THEMES) -> None:
    """Fail with every violation axe finds on the page, in each theme; the page ends in the light theme."""
    found = []
    try:
        for theme in themes:
            page.emulate_media(color_scheme=theme)
            found += [f"[{theme}] {line}" for line in violations(page, context)]
    finally:
        page.emulate_media(color_scheme="light")
    assert not found, f"accessibility violations on {page.url}:\n" + "\n".join(found)
