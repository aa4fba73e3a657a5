"""Reviewing a finished battle on a phone: the log, a step-by-step replay driven by the Next
button, the keyboard and swipes, a jump to a step, and a player's statistics with their chart.

The battle (demo catalog, Ana vs Ben with the rulebook decks) ends 3-2 for Ben in 7 steps:
steps 1 and 2 lock the decks, steps 3 to 7 reveal rounds 1 to 5, won by Ben, Ana, Ben, Ana, Ben.
Ben also won a power-only battle against Chloé before, so his statistics page has a chart.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tracker.games.card_crush.demo import BATTLES, play_battle
from tracker.models import Match

from .phone import assert_no_horizontal_scroll, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANA_DECK = ["Ember Fox", "Storm Caller", "Stone Golem", "Phoenix", "Gale Sprite"]
BEN_DECK = ["Tide Runner", "Frost Wisp", "Sky Lancer", "Void Lord", "Thorn Sprout"]
PHONE_WIDTH = 360


@pytest.fixture
def battle(catalog):
    play_battle(("Ben", "Chloé"), *BATTLES["power-only"])
    return play_battle(("Ana", "Ben"), "battle-score", [ANA_DECK, BEN_DECK])


def counter(page: Page):
    return page.locator(".replay-position")


def expect_step(page: Page, match_id: int, step: int) -> None:
    expect(counter(page)).to_contain_text(f"Step {step} of 7")
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}/replay/\?step={step}$"))


def swipe(page: Page, dx: int, dy: int = 0) -> None:
    """A finger moved across the replay: touchstart then touchend, as a phone sends them."""
    page.evaluate(
        """([dx, dy]) => {
            const target = document.querySelector('#replay');
            const at = (x, y) => new Touch({identifier: 1, target, clientX: x, clientY: y});
            const start = at(180 - dx / 2, 400), end = at(180 + dx / 2, 400 + dy);
            target.dispatchEvent(new TouchEvent('touchstart', {bubbles: true, touches: [start], changedTouches: [start]}));
            target.dispatchEvent(new TouchEvent('touchend', {bubbles: true, touches: [], changedTouches: [end]}));
        }""",
        [dx, dy],
    )


def test_stepping_through_a_replay_on_a_phone(page: Page, battle, screenshot_dir):
    page.goto(f"/matches/{battle.pk}/log/")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Log of Card Crush #{battle.pk}")
    expect(page.locator(".players")).to_contain_text("Ben won 3 rounds to 2")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "review-log.png", full_page=True)

    page.get_by_role("link", name=re.compile("Replay step by step")).click()
    expect(page).to_have_url(re.compile(rf"/matches/{battle.pk}/replay/$"))
    expect(counter(page)).to_have_text("Step 0 of 7: the match as it was set up")
    assert page.evaluate("typeof window.htmx") == "object"
    page.evaluate("window.sameDocument = true")  # gone if any step reloads the whole page
    page.screenshot(path=screenshot_dir / "review-replay-step-0.png", full_page=True)

    # The big Next button, tapped again where it was: the steps' texts above it differ in length, so it used to
    # move under the thumb.
    spots = set()
    for step in (1, 2, 3):
        spots.add(page.locator("#replay-next").bounding_box()["y"])
        page.get_by_role("link", name=re.compile(r"^Next")).click()
        expect_step(page, battle.pk, step)
    assert len(spots) == 1, spots
    page.get_by_role("link", name="Back one step").click()
    expect_step(page, battle.pk, 2)
    page.get_by_role("link", name="Back one step").click()
    expect_step(page, battle.pk, 1)
    expect(counter(page)).to_contain_text("Ana locks in: Ember Fox")

    # The keyboard.
    page.keyboard.press("ArrowRight")
    expect_step(page, battle.pk, 2)
    expect(page.get_by_text("Both decks revealed. Team Initiative: Ana 32, Ben 31.")).to_be_visible()

    # A swipe to the left is "next", to the right "back"; a vertical drag scrolls and steps nothing.
    swipe(page, dx=-200)
    expect_step(page, battle.pk, 3)
    expect(counter(page)).to_contain_text("Round 1 revealed")
    swipe(page, dx=-30, dy=250)
    swipe(page, dx=40)
    expect_step(page, battle.pk, 3)
    swipe(page, dx=200)
    expect_step(page, battle.pk, 2)
    swipe(page, dx=-200)
    expect_step(page, battle.pk, 3)
    page.keyboard.press("ArrowRight")
    expect_step(page, battle.pk, 4)

    # After round 2 the score is 1-1 and round 3 is still face down.
    expect(page.locator(".score-value")).to_have_text(["1", "1"])
    expect(page.locator("#round-3")).to_contain_text("Not revealed yet.")
    expect(page.locator("#round-2 .working")).to_have_text("Lightning over Ice +1: 7 + 1 = 8 beats 4 + 0 = 4.")
    expect(page.get_by_role("button", name=re.compile("Reveal round"))).to_have_count(0)
    expect(page.get_by_role("link", name=re.compile("Pass the phone"))).to_have_count(0)
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "review-replay-step-4.png", full_page=True)

    page.keyboard.press("ArrowLeft")
    expect_step(page, battle.pk, 3)

    # Jump by its number.
    page.get_by_label("Jump to step").fill("6")
    page.get_by_role("button", name="Go").click()
    expect_step(page, battle.pk, 6)
    expect(page.locator(".score-value")).to_have_text(["2", "2"])

    # End jumps to the result; Next is then not a link any more.
    page.locator("body").focus()
    page.keyboard.press("End")
    expect_step(page, battle.pk, 7)
    expect(page.locator(".banner")).to_have_text(re.compile(r"Ben wins the battle 3 rounds to 2"))
    expect(page.get_by_role("link", name=re.compile(r"^Next"))).to_have_count(0)
    page.keyboard.press("ArrowRight")
    expect_step(page, battle.pk, 7)
    page.screenshot(path=screenshot_dir / "review-replay-step-7.png", full_page=True)

    # Home goes back to the start, all without a page load.
    page.keyboard.press("Home")
    expect(counter(page)).to_contain_text("Step 0 of 7")
    assert page.evaluate("window.sameDocument") is True


def test_a_replay_url_opens_at_its_step(page: Page, battle):
    page.goto(f"/matches/{battle.pk}/replay/?step=5")
    expect(counter(page)).to_have_text("Step 5 of 7: Round 3 revealed")
    expect(page.locator(".score-value")).to_have_text(["1", "2"])
    page.goto(f"/matches/{battle.pk}/replay/?step=banana")
    expect(counter(page)).to_contain_text("Step 0 of 7")


def test_a_players_statistics_and_chart(page: Page, battle, screenshot_dir):
    page.goto("/stats/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistics")
    expect(page.get_by_text("2 finished matches.")).to_be_visible()
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "review-stats.png", full_page=True)

    page.get_by_role("link", name="Ben", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ben")
    expect(page.locator(".players")).to_contain_text("2 won of 2 matches")
    chart = page.get_by_role("img", name="Ben's win rate after each match (%)")
    expect(chart).to_be_visible()
    chart.screenshot(path=screenshot_dir / "review-player-chart-close.png")
    box = chart.bounding_box()
    assert box and box["width"] <= PHONE_WIDTH and box["height"] > 80
    table = page.locator(".chart-box table")
    expect(table).to_be_hidden()
    page.get_by_text("Show as a table").click()
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(2)
    expect(table).to_contain_text("100.0")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "review-player-chart.png", full_page=True)


def test_the_match_chart_and_its_table_on_the_log(page: Page, battle, screenshot_dir):
    page.goto(f"/matches/{battle.pk}/log/")
    chart = page.get_by_role("img", name="Round wins after each round")
    expect(chart).to_be_visible()
    chart.screenshot(path=screenshot_dir / "review-log-chart.png")
    page.get_by_text("Show as a table").click()
    expect(page.locator(".chart-box table tbody tr")).to_have_count(6)
    page.screenshot(path=screenshot_dir / "review-log-chart-table.png", full_page=True)


def test_a_statistics_table_wider_than_the_phone_says_it_scrolls_sideways(page: Page, make_context, battle,
                                                                          screenshot_dir):
    """The players' table in German is wider than a 360 px phone: a line above it says so (in words, not colour
    alone), a shadow stands at its right edge (static/css/table-scroll.css: a strip of the page's background at the end of
    the scrolled content covers it there), and once scrolled the names, which stay put, cast one on what slides under
    them. A table that fits says nothing."""
    german = make_context(locale="de-DE").new_page()
    german.goto("/stats/")
    box = german.locator(".table-scroll").first
    wide, shown = box.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert wide > shown, "the German players' table fits: the test shows nothing"
    hint = box.locator(".scroll-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("wische die Tabelle zur Seite")
    style = box.evaluate("e => { const s = getComputedStyle(e); return [s.backgroundImage, s.backgroundAttachment]; }")
    assert "radial-gradient" in style[0] and style[1] == "local, scroll"
    names = box.locator("tbody th").first
    assert names.evaluate("e => getComputedStyle(e).backgroundImage") == "none"
    box.screenshot(path=screenshot_dir / "review-stats-table-de.png")
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    german.wait_for_function("() => getComputedStyle(document.querySelector('.table-scroll tbody th'))"
                             ".backgroundImage.includes('gradient')")
    assert hint.bounding_box()["x"] >= 0  # held at the box's left edge as the table scrolls
    heading = box.locator("thead th").first  # stays above the names it heads
    assert heading.bounding_box()["x"] == names.bounding_box()["x"]
    box.screenshot(path=screenshot_dir / "review-stats-table-de-scrolled.png")
    assert_no_horizontal_scroll(german)

    page.goto("/stats/")
    page.get_by_role("link", name="Ben", exact=True).click()
    mine = page.locator(".table-scroll").first
    fits = mine.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert fits, "Ben's own table is wider than the phone: the test shows nothing"
    expect(mine.locator(".scroll-hint")).to_be_hidden()


def test_back_after_signing_out_brings_back_no_replay_step_of_the_account(page: Page, battle, live_server):
    """htmx kept a copy of each replay step it stepped from (the session's storage, "htmx-history-cache"), which
    signing out does not clear: on a store's shared tablet, Back after Ana signed out showed her private match's
    replay again, her name at the top (round 29). No copy is kept; a step Back goes to is asked for again."""
    user = get_user_model().objects.create_user("ana", password="pw-ana-ana-ana")
    Match.objects.filter(pk=battle.pk).update(owner=user)  # hers alone: signed out, it is nobody's to see
    sign_in(page.context, live_server.url, "ana")
    page.goto(f"/matches/{battle.pk}/replay/")
    for step in (1, 2, 3):
        page.get_by_role("link", name=re.compile(r"^Next")).click()
        expect_step(page, battle.pk, step)
    assert page.evaluate("sessionStorage.getItem('htmx-history-cache')") is None
    page.goto("/accounts/password/")
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_text("Signed out.")).to_be_visible()
    for _back in range(4):  # the password page, then steps 3, 2 and 1 of the replay
        page.go_back()
        page.wait_for_load_state()
        expect(page.get_by_role("link", name="Sign in")).to_be_visible()
        expect(page.locator(".replay-position")).to_have_count(0)


def test_back_steps_the_replay_back_and_a_key_then_steps_once(page: Page, battle):
    """Without a copy kept, Back asks for the step again and gets the whole page (its script with it)."""
    page.goto(f"/matches/{battle.pk}/replay/")
    for step in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        expect_step(page, battle.pk, step)
    page.go_back()
    expect_step(page, battle.pk, 2)
    expect(page.get_by_role("link", name="Tablekeeper")).to_be_visible()  # the whole page: its top bar too
    page.keyboard.press("ArrowRight")
    expect_step(page, battle.pk, 3)
    page.wait_for_timeout(300)
    expect_step(page, battle.pk, 3)  # once, not once for each copy of the script
