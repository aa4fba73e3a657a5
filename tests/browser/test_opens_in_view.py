"""What a page shows as it opens on a 360x740 phone, with players of 40 characters (the most a name may have):

- a link just made in the share panel ("Other phones: join or watch"): the page opens on it, the "Link ready"
  message, the new link's QR code and its address in view together, in every game, the second link too (the
  panel lists them oldest first, so it lies under the first);
- a secret entry, from the pass screen: the page opens at its top, on its heading and instructions, and no list
  of cards lies over the fields and buttons until the player types or taps a card field (LOGOS's card field has
  the focus, ready to type, without moving the page or opening its list).
"""

import pytest
from playwright.sync_api import BrowserContext, Page, expect

import rules

from .phone import LONG_PLAYERS, hand_to, has_focus, in_view, match_on_this_phone, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

READY = "Link ready: show the QR code or send the link."


def link_made_in_view(page: Page, button: str, heading: str) -> None:
    """Press a "+ ... link" button of the share panel: the page opens with the message and the new link, its QR
    code and its address, wholly in view."""
    if page.locator("details#share").get_attribute("open") is None:
        page.get_by_text("Other phones: join or watch").click()
    page.get_by_role("button", name=button).click()
    expect(page.locator("#outcome")).to_contain_text(READY)
    page.wait_for_load_state("load")
    invite = page.locator(".invite").filter(has_text=heading)
    in_view(page, page.locator("#outcome p", has_text=READY))
    in_view(page, invite.locator("svg.qr"))
    in_view(page, invite.locator("input.link-field"))


@pytest.mark.parametrize("slug", list(rules.GAMES))
def test_a_link_just_made_opens_in_view_with_its_message(context: BrowserContext, page: Page, slug, screenshot_dir):
    match = match_on_this_phone(context, slug, list(LONG_PLAYERS))
    errors = watch_errors(page)
    page.goto(match.get_absolute_url())
    link_made_in_view(page, f"+ Join link for {LONG_PLAYERS[1]}", f"Join as {LONG_PLAYERS[1]}")
    link_made_in_view(page, "+ Watch link", "Watch")
    page.screenshot(path=screenshot_dir / f"link-ready-{slug}.png", caret="initial")
    assert errors == []


@pytest.mark.parametrize("slug", ["card-crush", "logos", "cardmaster"])  # the games with a secret entry
def test_a_secret_entry_opens_on_its_heading_with_no_list_over_it(context: BrowserContext, page: Page, slug,
                                                                   screenshot_dir):
    match = match_on_this_phone(context, slug, list(LONG_PLAYERS))
    errors = watch_errors(page)
    page.goto(match.get_absolute_url())
    hand_to(page, LONG_PLAYERS[0])
    page.get_by_role("link", name=f"I am {LONG_PLAYERS[0]}: show my entry").click()
    page.wait_for_load_state("load")
    page.wait_for_function("document.documentElement.classList.contains('tk-picker')")  # picker.js's look came
    page.wait_for_load_state("networkidle")  # a list asked for as the page opened would have come by now
    page.screenshot(path=screenshot_dir / f"entry-opens-{slug}.png", caret="initial")
    assert page.evaluate("scrollY") == 0
    in_view(page, page.get_by_role("heading", level=1))
    expect(page.locator(".picks-list")).to_have_count(0)
    first = page.locator("input[data-picker]").first
    if slug == "logos":
        has_focus(first)  # ready to type: no tap needed on a keyboard
    first.scroll_into_view_if_needed()
    first.tap()  # the player comes to the field: its list
    expect(page.locator(".picker:focus-within .picks-list")).to_be_visible()
    assert errors == []
