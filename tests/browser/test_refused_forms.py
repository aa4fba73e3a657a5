"""A refused board form at 360x740, the player's way: why stands beside the field it concerns, what was typed and
the open fold stay as the player left them, and the next action that goes through clears it. With JavaScript (htmx,
the errors come out of band) and without (the page comes back and opens on the field: autofocus).

One game is enough here: tests/tracker/test_board_refusals.py holds every board form of every game to it.
"""

import pytest
from playwright.sync_api import Page, expect

from tracker.matches import services

from .phone import has_focus, in_view, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
SAME_ZONE = "Cards must move to a different zone."


def move_cards(page: Page, target: str) -> None:
    """Ben's cards from the hand to `target`, two of them, in Lonely Star's "Move cards between zones" fold."""
    fold = page.locator("details.ls-more").filter(has_text="Move cards between zones")
    if not fold.evaluate("fold => fold.open"):
        fold.locator("summary").click()
    page.locator("#cards-seat").select_option(label="Ben")
    page.locator("#cards-source").select_option("hand")
    page.locator("#cards-target").select_option(target)
    page.locator("#cards-count").fill("2")
    page.get_by_role("button", name="Move the cards").click()


def test_with_htmx_the_error_stands_beside_the_field_and_what_was_typed_stays(make_context, catalog, screenshot_dir):
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    page = make_context(viewport=PHONE).new_page()
    errors = watch_errors(page)
    page.goto(match.get_absolute_url())
    # Half-typed in another fold: a refusal elsewhere leaves it be, open and filled in.
    page.locator("details.ls-more").filter(has_text="Add a table status").locator("summary").click()
    page.locator("#status-name").fill("Frozen")
    move_cards(page, "hand")
    beside = page.locator("#cards-target + p.error")
    expect(beside).to_contain_text(SAME_ZONE)
    expect(page.locator("#outcome")).to_contain_text(SAME_ZONE)
    target = page.locator("#cards-target")
    expect(target).to_have_attribute("aria-invalid", "true")
    described = target.get_attribute("aria-describedby")
    assert described and beside.locator("[data-field-errors]").get_attribute("id") == described
    expect(page.locator("#cards-count")).to_have_value("2")
    expect(page.locator("#status-name")).to_have_value("Frozen")
    assert page.locator("details.ls-more").filter(has_text="Move cards between zones").evaluate("fold => fold.open")
    in_view(page, "#outcome .outcome-box")  # the box is docked above the refused form, the form's top under it
    in_view(page, "#cards-seat")
    in_view(page, beside)
    page.screenshot(path=screenshot_dir / "refused-htmx-360x740.png", caret="initial")
    # The next action that goes through clears it.
    move_cards(page, "discard")
    expect(page.locator("#outcome")).not_to_contain_text(SAME_ZONE)
    expect(page.locator("#cards-target + p.error")).to_be_hidden()
    expect(page.locator("#cards-target")).not_to_have_attribute("aria-invalid", "true")
    assert errors == []


def test_without_javascript_the_page_opens_on_the_refused_field(make_context, catalog, screenshot_dir):
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    page = make_context(viewport=PHONE, java_script_enabled=False).new_page()
    page.goto(match.get_absolute_url())
    page.locator("details.ls-more").filter(has_text="Move cards between zones").locator("summary").click()
    move_cards(page, "hand")
    target = page.locator("#cards-target")
    has_focus(target)
    expect(target).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#cards-count")).to_have_value("2")
    in_view(page, target)  # the browser brought it into view, with no script to scroll there
    page.screenshot(path=screenshot_dir / "refused-no-js-360x740.png", caret="initial")
