"""axe-core in the browser tests: a page at phone size, in the light and the dark theme, with no violations.

    from .accessibility import assert_accessible
    assert_accessible(page)               # the page as it is now, in both themes
    assert_accessible(page, "#match")     # only a part of it

axe-core comes with axe-playwright-python (a test dependency); it runs inside the page, so what
it checks is what the phone shows, styles and contrast included. Both themes are the system's
(prefers-color-scheme), which is what the theme switch sets too. A theme changes colours and
nothing else (static/css/app.css swaps colour variables), so the first theme gets every rule and
the others only the rules that look at colours: the same answer for a fraction of the time.

Every violation fails, whatever axe calls its impact (minor, moderate, serious, critical): the
issue asks for none, and a "minor" one (a duplicate id, a region outside a landmark) is as cheap
to fix as it is to argue about.
"""

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

# WCAG 2.0-2.2 A and AA, and axe's best practices (landmarks, headings, one main, ...).
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa",
                                                 "best-practice"]}, "resultTypes": ["violations"]}
# What can differ between two themes: contrast, and links told apart from their sentence by colour.
COLOUR_RULES = {"runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]},
                "resultTypes": ["violations"]}
THEMES = ("light", "dark")

_axe = Axe()


def violations(page: Page, context: str | None = None, options: dict = RULES) -> list[str]:
    """axe's violations on the page as it is, one readable line per element."""
    if not page.evaluate("typeof window.axe === 'object'"):  # once per page load
        page.evaluate(_axe.axe_script)
    results = page.evaluate("([context, options]) => axe.run(context || document, options)", [context, options])
    found = []
    for violation in results["violations"]:
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node["target"])
            summary = node.get("failureSummary", "").replace("\n", " ")
            found.append(f"{violation['id']} ({violation['impact']}) at {target}: {summary}")
    return found


def theme_violations(page: Page, context: str | None = None, themes=THEMES) -> list[str]:
    """axe's violations on the page in each theme, marked with it; the page ends in the light theme."""
    found = []
    try:
        for number, theme in enumerate(themes):
            page.emulate_media(color_scheme=theme)
            found += [f"[{theme}] {line}" for line in violations(page, context, RULES if number == 0 else COLOUR_RULES)]
    finally:
        page.emulate_media(color_scheme="light")
    return found


# Every visible control smaller than 44x44 CSS pixels, but for the two cases WCAG 2.5.5 exempts that
# occur here: a link inside a sentence, and a control whose <label> (which takes the tap too) is big enough.
_SMALL_TARGETS = """() => {
  const small = [];
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  for (const control of document.querySelectorAll(controls)) {
    const box = control.getBoundingClientRect();
    if (!box.width || !box.height || control.closest('[inert]')) continue;  // a hidden one is no target
    if (box.width >= 44 && box.height >= 44) continue;
    const block = control.parentElement;
    if (control.tagName === 'A' && getComputedStyle(control).display === 'inline'
        && block.textContent.trim().length > control.textContent.trim().length + 2) continue;
    const label = control.closest('label') || (control.id && document.querySelector(`label[for="${CSS.escape(control.id)}"]`));
    const labelBox = label && label.getBoundingClientRect();
    if (labelBox && labelBox.width >= 44 && labelBox.height >= 44) continue;
    const name = (control.getAttribute('aria-label') || control.textContent || control.name || '').trim().slice(0, 40);
    small.push(`${control.tagName.toLowerCase()} "${name}" is ${Math.round(box.width)}x${Math.round(box.height)}`);
  }
  return small;
}"""


def small_targets(page: Page) -> list[str]:
    """Controls a thumb may miss: smaller than the 44x44 pixels the issue asks for, one line each."""
    return [f"tap target under 44x44 px: {line}" for line in page.evaluate(_SMALL_TARGETS)]


def assert_accessible(page: Page, context: str | None = None, themes=THEMES) -> None:
    """Fail with every violation axe finds on the page, in each theme; the page ends in the light theme."""
    found = theme_violations(page, context, themes)
    assert not found, f"accessibility violations on {page.url}:\n" + "\n".join(found)
