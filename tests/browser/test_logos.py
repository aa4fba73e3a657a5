"""A LOGOS duel played in a phone browser, in hot-seat, through a backup call to a win.

Demo catalog cards (tracker/games/logos), starting HP 30,000 (a per-match option) so two
rounds decide it:

Round 1: Ana plays Granite Fist (MATTER 35,000 / 10,000) and sends Seraph (Life, SPEED 150)
to her backup slot; Ben plays Solar Flare (ENERGY 30,000 / 15,000, Maximize on itself).
MATTER beats ENERGY; Solar Flare becomes 30,000 / 30,000; 35,000 - 30,000 = 5,000 to Ben.

Round 2: Ana plays Iron Golem (MATTER), Ben Shuffle Drone (Neutral 5,000 / 25,000). Ana calls
Seraph: Life beats Neutral, 60,000 - 25,000 = 35,000 takes Ben's last 25,000.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tracker.models import Match

from .phone import assert_no_horizontal_scroll, fill_card, hand_to, has_focus, in_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

P1, P2 = "Ana Maximiliane Oyelaran-Vandermeersch", "Ben"  # a long name makes a tall refusal notice


def start_duel(page: Page) -> int:
    page.goto("/")
    page.get_by_role("link", name="New LOGOS match").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New LOGOS duel")
    page.get_by_label("Player 1", exact=True).fill(P1)
    page.get_by_label("Player 2", exact=True).fill(P2)
    page.get_by_label("Starting HP", exact=True).fill("30000")
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    return int(re.search(r"/matches/(\d+)/$", page.url).group(1))


def open_entry(page: Page, name: str, round_number: int) -> None:
    hand_to(page, name)
    page.get_by_role("link", name=f"I am {name}: show my entry").click()
    heading = f"{name}: commit your card for round {round_number}"
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)


def commit(page: Page, name: str, round_number: int, card: str, backup: str = "") -> None:
    open_entry(page, name, round_number)
    fill_card(page.get_by_label("Card to play"), card)
    if backup:
        fill_card(page.get_by_label(re.compile("Card to send to the backup slot")), backup)
    page.get_by_role("button", name="Commit this card").click()
    expect(page.get_by_text(f"{name} is locked in.")).to_be_visible()


def visible_html_without_catalog(page: Page) -> str:
    """The page but for the catalog's lists: the typed-name suggestions and the picker's cards (which it lists as
    soon as the card field has the focus; tracker/catalog/picker.py never ranks a hidden entry's cards)."""
    return page.evaluate("""() => { const copy = document.documentElement.cloneNode(true);
        copy.querySelectorAll('datalist, .picks-list').forEach((list) => list.remove());
        return copy.outerHTML; }""")


def working(page: Page):
    return page.locator("#battle .logos-working li")


def test_a_duel_in_hot_seat_through_a_backup_call_to_a_win(page: Page, catalog, screenshot_dir):
    match_id = start_duel(page)
    expect(page.get_by_role("heading", name="Round 1: commit your cards")).to_be_visible()
    assert page.evaluate("typeof window.htmx") == "object"

    # Ana first tries the rulebook's datacard: its combo needs blue two and three rounds ago.
    open_entry(page, P1, 1)
    fill_card(page.get_by_label("Card to play"), "Rulebook Datacard")
    page.get_by_role("button", name="Commit this card").click()
    expect(page.get_by_role("alert")).to_contain_text("combo panel 2 needs blue")
    assert Match.objects.get(pk=match_id).head == 0
    # The page opens on why, with the fields and the button to tap next under it: nothing to scroll for.
    in_view(page, page.get_by_role("alert"))
    in_view(page, page.get_by_role("button", name="Commit this card"))
    fill_card(page.get_by_label("Card to play"), "No Such Card")
    page.get_by_role("button", name="Commit this card").click()
    expect(page.get_by_role("alert")).to_contain_text("fix the fields marked below: Card to play")
    in_view(page, page.get_by_role("alert"))
    in_view(page, page.get_by_role("button", name="Commit this card"))
    # Refused by the form, the refused field has the focus, its error between its label and it, and no list open.
    has_focus(page.get_by_label("Card to play"))
    in_view(page, page.locator("#id_card_error"))
    page.screenshot(path=screenshot_dir / "logos-entry-refused-card.png", caret="initial")
    expect(page.locator(".picks-list:visible, .picks .muted:visible")).to_have_count(0)
    fill_card(page.get_by_label("Card to play"), "Granite Fist")
    fill_card(page.get_by_label(re.compile("Card to send to the backup slot")), "Seraph")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "logos-entry.png", full_page=True)
    page.get_by_role("button", name="Commit this card").click()
    expect(page.get_by_text(f"{P1} is locked in. The entry is hidden.")).to_be_visible()
    # The phone goes on to Ben's pass screen by itself; back on the board, Ana shows as committed.
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Pass the phone to {P2}")
    html = page.content()
    assert "Granite Fist" not in html and "Seraph" not in html
    page.get_by_role("link", name="Back to the match").click()
    expect(page.locator(".logos-commit")).to_contain_text(f"{P1} has committed")

    # Nothing of Ana's commit reaches the board or Ben's entry page.
    html = page.content()
    assert "Granite Fist" not in html and "Seraph" not in html
    open_entry(page, P2, 1)
    html = visible_html_without_catalog(page)
    assert "Granite Fist" not in html and "Seraph" not in html
    fill_card(page.get_by_label("Card to play"), "Solar Flare")
    page.get_by_role("button", name="Commit this card").click()

    # The reveal: every step of the working is on screen.
    expect(page.get_by_role("heading", name="Round 1: battle")).to_be_visible()
    expect(working(page).first).to_contain_text(f"Round 1 revealed: {P1} plays Granite Fist")
    expect(working(page).first).to_contain_text(f"{P1} sends Seraph")
    expect(working(page)).to_contain_text([
        f"Direction: red (MATTER) beats green (ENERGY): {P1} attacks and Ben defends.",
        "Ben's Maximize (right field, on Ben): Ben's card ATTACK / DEFENSE 30,000 / 15,000 → "
        "30,000 / 30,000.",
    ])
    expect(page.locator("#card-1 .logos-now")).to_contain_text("ATTACK 30,000 · DEFENSE 30,000")
    page.get_by_role("button", name="Fight").click()
    round_1 = page.locator("#round-1")
    expect(round_1).to_contain_text(
        f"{P1} attacks: ATTACK 35,000 − DEFENSE 30,000 = 5,000 damage; Ben 30,000 → 25,000 HP.")
    expect(page.locator("#seat-1 .logos-hp")).to_contain_text("25,000 HP")
    expect(page.locator("#seat-0 .logos-combo li").first).to_have_text("red")
    expect(page.locator("#seat-0")).to_contain_text("Backup: Seraph")

    # Round 2: Ana calls her backup card after the reveal.
    commit(page, P1, 2, "Iron Golem")
    commit(page, P2, 2, "Shuffle Drone")
    expect(page.locator("#direction")).to_have_text(f"{P1} attacks, Ben defends.")
    expect(working(page)).to_contain_text(
        [f"Ben's Shuffle Hand (left field, on {P1}): {P1}, put your hand away and draw a new one."])
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "logos-battle.png", full_page=True)
    page.get_by_role("button", name=f"{P1} calls the backup card").click()
    expect(page.locator("#card-0 .cc-name")).to_have_text("Seraph")
    expect(working(page)).to_contain_text([
        f"{P1} calls Seraph (Life, ATTACK 60,000 / DEFENSE 20,000 / SPEED 150) from the backup slot "
        "to replace Iron Golem",
        f"Direction after the backup call: purple (Life) beats white (Neutral): {P1} attacks and Ben defends.",
    ])
    expect(page.locator("#seat-0")).to_contain_text("Backup: empty")
    page.get_by_role("button", name="Fight").click()

    expect(page.locator(".banner")).to_have_text(f"★ {P1} wins: Ben is at 0 HP.")
    expect(page.locator("#round-2")).to_contain_text(
        "ATTACK 60,000 − DEFENSE 25,000 = 35,000 damage; Ben 25,000 → 0 HP.")
    expect(page.get_by_role("button", name="Fight")).to_have_count(0)
    match = Match.objects.get(pk=match_id)
    assert match.winner.name == P1 and match.score == "30,000-0"
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "logos-win.png", full_page=True)

    # The log tells the same story, commits included now that they are revealed.
    page.get_by_role("link", name="Log", exact=True).click()
    commit_title = f"Round 1: {P1} commits Granite Fist and sends Seraph to the backup slot"
    expect(page.get_by_text(commit_title)).to_be_visible()
    expect(page.get_by_text(f"{P1} calls the backup card", exact=True)).to_be_visible()
    expect(page.get_by_text(f"Ben is at 0 HP: {P1} wins the duel.")).to_be_visible()
    page.screenshot(path=screenshot_dir / "logos-log.png", full_page=True)

    # The finished board in dark mode: colours come from the dark palette, names stay beside them.
    page.emulate_media(color_scheme="dark")
    page.goto(f"/matches/{match_id}/")
    expect(page.locator(".banner")).to_have_text(f"★ {P1} wins: Ben is at 0 HP.")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(20, 20, 24)"
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "logos-win-dark.png", full_page=True)
