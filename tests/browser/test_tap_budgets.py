"""Fewer taps than paper where the app should win (issue 28), counted on a 360x740 phone as test_card_picker's
Thumb counts them: every tap and every option chosen in a list is one, each made on what is in view without
scrolling; typed letters are counted apart.

- a LOGOS hot-seat round: both commits and the Fight in at most 8 taps;
- an Evons play of a catalog card: at most 3 taps plus the letters typed, the board in view throughout;
- a Lonely Star status with one unit to inflict it on: at most 3 taps (after one scroll to the card effects,
  under the turn's units).
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tracker.matches import services
from tracker.models import Card, Match

from .phone import has_focus, in_view, outcome_says
from .test_card_picker import Thumb

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class WholeThumb(Thumb):
    """Taps only what is (but for a pixel's rounding) wholly on the screen: a button cut by its edge asks for a
    scroll first."""

    def tap(self, locator) -> None:
        expect(locator).to_be_in_viewport(ratio=0.97)
        super().tap(locator)


def select(thumb: Thumb, field, label: str) -> None:
    """Choose an option in a list: one tap, as a phone opens the list and takes the choice."""
    expect(field).to_be_in_viewport(ratio=0.97)
    field.select_option(label=label)
    thumb.taps += 1


def test_a_logos_hot_seat_round_takes_at_most_8_taps(page: Page, catalog, screenshot_dir):
    match = services.match_create(slug="logos", player_names=["Ana", "Ben"], config={})
    thumb = WholeThumb(page)
    page.goto(match.get_absolute_url())
    page.screenshot(path=screenshot_dir / "taps-logos-start.png", caret="initial")
    thumb.tap(page.get_by_role("link", name="Pass the phone to Ana"))
    for name, typed, card in (("Ana", "gra", "Granite Fist"), ("Ben", "sol", "Solar Flare")):
        thumb.tap(page.get_by_role("link", name=f"I am {name}: show my entry"))
        has_focus(page.get_by_label("Card to play", exact=True))  # ready to type, no tap
        thumb.type(typed)
        thumb.pick(card)
        commit = page.get_by_role("button", name="Commit this card")
        has_focus(commit)
        if name == "Ana":
            page.screenshot(path=screenshot_dir / "taps-logos-commit.png", caret="initial")
        thumb.tap(commit)
        if name == "Ana":  # handed straight on: the lock is told, and Ben is next
            expect(page.get_by_role("heading", level=1)).to_have_text("Pass the phone to Ben")
            expect(page.get_by_text("Ana is locked in. The entry is hidden.")).to_be_in_viewport()
            page.screenshot(path=screenshot_dir / "taps-logos-pass.png", caret="initial")
    page.screenshot(path=screenshot_dir / "taps-logos-reveal.png", caret="initial")
    thumb.tap(page.get_by_role("button", name="Fight"))
    expect(page.locator("#seat-1 .logos-hp")).to_contain_text("95,000 HP")
    outcome_says(page, 3, "Ben 100,000 → 95,000 HP.")  # the HP change in view after the Fight, the next step beside it
    page.screenshot(path=screenshot_dir / "taps-logos-fight.png", caret="initial")
    assert thumb.taps <= 8, thumb.taps
    assert (thumb.taps, thumb.typed) == (8, 6)  # what the report states
    assert Match.objects.get(pk=match.pk).head == 3 and thumb.errors == []


def test_an_evons_catalog_card_is_played_in_3_taps_with_the_board_in_view(page: Page, catalog, screenshot_dir):
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    thumb = WholeThumb(page)
    page.goto(match.get_absolute_url())
    in_view(page, ".ev-board")  # at the start
    thumb.tap(page.get_by_role("radio", name=re.compile(r"^B3\b")))
    has_focus(page.get_by_label("Card name"))  # the cell tapped, the card is asked for next
    thumb.type("emb")
    in_view(page, ".ev-board")
    page.screenshot(path=screenshot_dir / "taps-evons-picking.png", caret="initial")
    thumb.pick("Ember Fox")
    play = page.get_by_role("button", name="Play the card")
    has_focus(play)
    in_view(page, ".ev-board")
    thumb.tap(play)
    expect(page.get_by_text("Turn 2: Ben to play")).to_be_visible()
    in_view(page, ".ev-board")  # after the play, the card just placed in view
    expect(page.locator(".ev-changed").get_by_role("img")).to_have_accessible_name(re.compile(r"^B3: Ember Fox"))
    page.screenshot(path=screenshot_dir / "taps-evons-played.png", caret="initial")
    assert (thumb.taps, thumb.typed) == (3, 3), (thumb.taps, thumb.typed)
    assert thumb.errors == []


def test_a_lonely_star_status_on_the_one_unit_it_can_land_on_takes_3_taps(page: Page, catalog, screenshot_dir):
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    for seat, unit in ((0, "Dust Knight"), (1, "Nebula Warden")):
        match.refresh_from_db()
        services.match_apply_action(match_id=match.pk, expected_seq=match.head, action={
            "type": "play_unit", "seat": seat, "card": Card.named("lonely-star", unit).as_rules_card()})
    thumb = WholeThumb(page)
    page.goto(match.get_absolute_url())
    # Below the turn's units and their attacks: one scroll down (not a tap) to the card effects.
    page.get_by_role("heading", name="Card effects and dice").evaluate("el => el.scrollIntoView()")
    thumb.tap(page.get_by_text("Inflict a status"))
    inflict = page.locator("form").filter(has=page.get_by_role("button", name="Inflict"))
    # Ana's turn: Ben's one unit is the one her card's status is for, chosen already.
    expect(inflict.get_by_label("Unit receiving it")).to_have_value(
        str(next(unit["id"] for unit in Match.objects.get(pk=match.pk).state["units"] if unit["seat"] == 1)))
    select(thumb, inflict.get_by_label("Status", exact=True), "Poison (lowers RS)")
    page.screenshot(path=screenshot_dir / "taps-lonely-star-status.png", caret="initial")
    thumb.tap(inflict.get_by_role("button", name="Inflict"))
    expect(page.locator("#outcome")).to_contain_text("Ana inflicts Poison on Nebula Warden")
    assert thumb.taps <= 3, thumb.taps
    assert thumb.errors == []
