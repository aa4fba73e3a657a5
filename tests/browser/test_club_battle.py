"""Issue 14's story on two phones at 360 px: a club's organiser starts a rated Card Crush battle in the club,
a member joins it on his own phone by its seat link, each locks a deck on their own phone, and the battle is
played out. The loser cannot take the finished battle back (only an organiser may reopen it, and his page
says so); the club's leaderboard counts the battle; a phone outside the club sees none of it.
"""


import pytest
from playwright.sync_api import Page, expect

from tests.tracker.helpers import LOSING_DECK, WINNING_DECK
from tracker.models import Club, Match

from .phone import check_page
from .test_card_crush_tournament import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def lock_deck(page: Page, cards: list[str]) -> None:
    for number, card in enumerate(cards, start=1):
        page.get_by_label(f"Round {number} card", exact=True).fill(card)
    page.get_by_role("button", name="Lock in my deck").click()


def test_two_phones_play_a_rated_club_battle_that_only_the_club_sees(page: Page, make_context, catalog,
                                                                     screenshot_dir):
    page.goto("/accounts/sign-up/")
    sign_up(page, "nora", "Nora")
    page.goto("/clubs/")
    page.get_by_label("Club name").fill("Corner Store")
    page.get_by_role("button", name="Start the club").click()
    page.get_by_role("button", name="+ New invite link").click()
    otto = make_context().new_page()
    otto.goto(page.locator(".link-field").input_value())
    otto.get_by_role("link", name="Sign up to join").click()
    sign_up(otto, "otto", "Otto")
    otto.get_by_role("button", name="Join Corner Store").click()
    expect(otto.get_by_text("Welcome to Corner Store.")).to_be_visible()

    # Nora starts the battle in the club, and gives Otto's seat to his phone.
    page.goto("/matches/new/card-crush/")
    page.get_by_label("Player 1").fill("Nora")
    page.get_by_label("Player 2").fill("Otto")
    page.get_by_label("Play it in a club").select_option(label="Corner Store")
    expect(page.locator("#id_club_help")).to_contain_text("its members can watch it")
    page.get_by_role("button", name="Start").click()
    battle = Match.objects.get()
    assert battle.club == Club.objects.get(name="Corner Store") and battle.rated
    page.get_by_text("Other phones: join or watch").click()
    page.get_by_role("button", name="+ Join link for Otto").click()
    otto.goto(page.locator(".link-field").first.input_value())
    otto.get_by_role("button", name="Play as Otto on this phone").click()

    page.get_by_role("link", name="Pass the phone to Nora").click()
    page.get_by_role("link", name="I am Nora: show my entry").click()
    lock_deck(page, WINNING_DECK)
    otto.get_by_role("link", name="Lock in your deck").click()
    lock_deck(otto, LOSING_DECK)
    for number in range(1, 6):
        if otto.locator(".banner").count():
            break
        otto.get_by_role("button", name=f"Reveal round {number}").click()
        expect(otto.locator(f"#round-{number} .working")).to_be_visible()
    expect(otto.locator(".banner")).to_have_text("★ Nora wins the battle 3 rounds to 1")

    # Otto lost: the finished battle is not his to take back.
    expect(otto.get_by_role("button", name="Undo last step")).to_be_disabled()
    expect(otto.locator("#undo-why")).to_have_text(
        "✗ This match counts in Corner Store's results: only an organiser of the club can reopen it.")
    otto.screenshot(path=screenshot_dir / "club-battle-loser.png", full_page=True)
    check_page(otto)

    page.goto("/ratings/")
    page.get_by_role("link", name="Corner Store").first.click()
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows.locator("th")).to_have_text(["Nora", "Otto"])
    expect(rows.first).to_contain_text("516")
    page.screenshot(path=screenshot_dir / "club-battle-leaderboard.png", full_page=True)
    check_page(page)

    outsider = make_context().new_page()
    for url in ("/", "/matches/", "/stats/?game=card-crush", "/ratings/", "/tournaments/", "/clubs/",
                battle.get_absolute_url(), f"/matches/{battle.pk}/log/", f"/clubs/{battle.club_id}/ratings/"):
        outsider.goto(url)
        body = outsider.locator("body").inner_text()
        for secret in ("Nora", "Otto", "Corner Store"):
            assert secret not in body, f"{secret} shown outside the club on {url}"
