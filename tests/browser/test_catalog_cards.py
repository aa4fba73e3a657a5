"""Correcting and deleting a catalog card on a phone: from the catalog table to the card's page,
its correction form and its delete confirmation, all at 360 px; and another phone told why not."""

import pytest
from playwright.sync_api import Page, expect

from tracker.models import Card, CardChange

from .phone import assert_no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_card_is_added_corrected_and_deleted_from_the_catalog_table(page: Page, catalog, screenshot_dir):
    page.goto("/cards/card-crush/")
    page.get_by_text("Add a card").click()
    page.get_by_label("Name", exact=True).fill("Magma Wyrm")
    page.get_by_label("Power").fill("8")
    page.get_by_label("Speed").fill("4")
    page.get_by_label("Affinity").select_option("Fire")
    page.get_by_role("button", name="Add to the catalog").click()
    expect(page.get_by_text("Magma Wyrm added to the catalog.")).to_be_visible()

    page.goto("/cards/card-crush/?q=magma")
    page.get_by_role("rowheader").get_by_role("link", name="Magma Wyrm").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Magma Wyrm")
    expect(page.get_by_text("Added by this phone")).to_be_visible()
    assert_no_horizontal_scroll(page)

    page.get_by_role("link", name="Correct this card").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct Magma Wyrm")
    expect(page.get_by_label("Power")).to_have_value("8")
    page.get_by_label("Power").fill("9")
    assert_no_horizontal_scroll(page)
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Magma Wyrm corrected")).to_be_visible()
    expect(page.locator(".replay-entry")).to_contain_text("Power: 8 → 9")
    page.screenshot(path=screenshot_dir / "catalog-card-corrected.png", full_page=True)

    page.get_by_role("link", name="Delete this card").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Delete Magma Wyrm?")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "catalog-card-delete.png", full_page=True)
    page.get_by_role("button", name="Yes, delete Magma Wyrm").click()
    expect(page.get_by_text("Magma Wyrm was deleted from the catalog")).to_be_visible()
    assert not Card.objects.filter(name="Magma Wyrm").exists()
    assert list(CardChange.objects.values_list("kind", flat=True)) == ["delete", "edit"]


def test_another_phone_is_told_why_it_cannot_correct_a_card(page: Page, catalog, screenshot_dir):
    page.goto("/cards/card-crush/?q=phoenix")
    page.get_by_role("rowheader").get_by_role("link", name="Phoenix").click()
    expect(page.get_by_text("Phoenix has no recorded creator")).to_be_visible()
    page.get_by_role("link", name="Correct this card").click()
    page.get_by_label("Power").fill("1")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_role("alert")).to_contain_text("Not applied: Phoenix has no recorded creator")
    expect(page.get_by_text("Nothing was changed; what you typed is still below.")).to_be_visible()
    expect(page.get_by_label("Power")).to_have_value("1")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "catalog-card-refused.png", full_page=True)
    assert Card.objects.get(name="Phoenix").stats["power"] == 9
    page.goto(page.url.replace("/edit/", "/delete/"))
    expect(page.get_by_role("button", name="Yes, delete Phoenix")).to_be_disabled()
