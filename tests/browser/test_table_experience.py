"""At the table on a 360×740 phone: the outcome of a tap is in view, a refused form keeps what was typed,
a double-tapped Start makes one match, no page is wider than the screen with the longest names, every
tap target is at least 44 px, and no page logs a console error (CSP included).

The longest names are tests/browser/phone.py's; test_every_tap.py takes every kind of tap in every game.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tracker.games import ADAPTERS
from tracker.matches import services
from tracker.models import Card, Match

from .phone import LONG_CARD, LONG_PLAYERS, check_page, in_view, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def errors(page: Page) -> list[str]:
    return watch_errors(page)


def test_a_double_tapped_start_makes_one_match(page: Page, catalog, errors):
    page.goto("/matches/new/card-crush/")
    page.get_by_label("Player 1", exact=True).fill(LONG_PLAYERS[0])
    page.get_by_label("Player 2", exact=True).fill(LONG_PLAYERS[1])
    check_page(page)
    page.get_by_role("button", name="Start").dblclick()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    page.wait_for_load_state("networkidle")
    assert Match.objects.count() == 1
    expect(page.locator("#outcome")).to_contain_text("Match started.")
    in_view(page, "#outcome .outcome-box")
    check_page(page)
    assert errors == []


def test_every_games_pages_fit_a_phone_with_the_longest_names(page: Page, catalog, errors):
    from tracker.demo import load_catalogs
    from tracker.games.card_crush.demo import deck

    load_catalogs()
    storm = Card.objects.get(slug="card-crush", name="Storm Caller")
    Card.objects.create(slug="card-crush", name=LONG_CARD, stats=storm.stats)
    long_battle = services.match_create(slug="card-crush", player_names=list(LONG_PLAYERS), config={})
    for seat, names in enumerate((["Ember Fox", LONG_CARD, "Stone Golem", "Phoenix", "Gale Sprite"],
                                  ["Tide Runner", "Frost Wisp", "Sky Lancer", "Void Lord", "Thorn Sprout"])):
        services.match_apply_action(match_id=long_battle.pk, expected_seq=seat,
                                    action={"type": "lock_deck", "seat": seat, "cards": deck(names)})
    services.match_apply_action(match_id=long_battle.pk, expected_seq=2, action={"type": "play_round"})
    matches = [long_battle]
    for slug, pages in ADAPTERS.items():
        matches.append(next(iter(pages.demo_matches.values()))(LONG_PLAYERS))  # a whole demo match of each game
        matches.append(services.match_create(slug=slug, player_names=list(LONG_PLAYERS), config={}))  # and a fresh one
    urls = ["/", "/matches/", "/stats/", "/cards/card-crush/", f"/matches/new/{matches[-1].slug}/"]
    for match in matches:
        urls += [match.get_absolute_url(), f"/matches/{match.pk}/log/", f"/matches/{match.pk}/replay/"]
    for url in urls:
        page.goto(url)
        check_page(page)
    assert errors == []


def test_the_outcome_is_in_view_and_a_refused_new_unit_keeps_its_stats(page: Page, catalog, errors):
    match = services.match_create(slug="lonely-star", player_names=list(LONG_PLAYERS), config={})
    page.goto(match.get_absolute_url())
    side = page.locator("#side-0-section")
    side.get_by_text("plays a unit").click()
    side.get_by_label("Unit card (from the catalog, or a new name)").fill("Brand New Unit")
    for stat, value in (("hp", "5"), ("at", "2"), ("reach", "1")):  # LK and RS left out: refused
        page.locator(f"#unit-{stat}-0").fill(value)
    play = side.get_by_role("button", name="Play the unit (takes a card from the hand)")
    play.click()
    expect(page.locator("#outcome")).to_contain_text("Not applied:")
    # Why, once (the box docked above the form says it, the form's own slot does not repeat it), each stat left
    # to type marked on one line, and the button to send it again in view with the box.
    expect(side.get_by_text("so all its stats are needed")).to_have_count(2)
    expect(side.get_by_text("so all its stats are needed").locator("visible=true")).to_have_count(1)
    for stat in ("lk", "rs"):
        mark = page.locator(f"#unit-{stat}-0 + .error")
        expect(mark).to_have_text("✗ Missing.")
        assert mark.bounding_box()["height"] < 30, f"{stat}'s mark wraps"
    in_view(page, "#outcome .outcome-box")
    in_view(page, play)
    expect(page.locator("#unit-name-0")).to_have_value("Brand New Unit")
    expect(page.locator("#unit-hp-0")).to_have_value("5")
    expect(side.locator("details.ls-more").first).to_have_attribute("open", "")

    page.locator("#unit-lk-0").fill("2")
    page.locator("#unit-rs-0").fill("1")
    side.get_by_role("button", name="Play the unit (takes a card from the hand)").click()
    expect(page.locator("#outcome")).to_contain_text("(log entry 1)")
    in_view(page, "#outcome .outcome-box")
    expect(page.locator("#side-0-section .ls-unit h3")).to_have_text(["Brand New Unit"])
    page.get_by_role("link", name="Close").click()
    expect(page.locator("#outcome .outcome-box")).to_have_count(0)
    check_page(page)
    assert errors == []


def test_without_javascript_the_outcome_is_in_view_and_the_form_kept(make_context, catalog):
    page = make_context(java_script_enabled=False).new_page()
    match = services.match_create(slug="lonely-star", player_names=list(LONG_PLAYERS), config={})
    page.goto(match.get_absolute_url())
    page.locator("#side-0-section summary").first.click()
    page.locator("#unit-name-0").fill("Brand New Unit")
    page.locator("#unit-hp-0").fill("5")
    page.locator("#side-0-section").get_by_role("button", name="Play the unit (takes a card from the hand)").click()
    expect(page.locator("#outcome")).to_contain_text("Not applied:")
    in_view(page, "#outcome .outcome-box")
    expect(page.locator("#unit-name-0")).to_have_value("Brand New Unit")
    expect(page.locator("#unit-hp-0")).to_have_value("5")


def test_a_filtered_log_opens_on_the_steps_it_found(page: Page, catalog, errors):
    """The play-test: filtering a log sent the phone back to the page's top (its title, buttons and chart), the
    first step found more than a screen below. The filters' form and the log's pages land on the steps."""
    match = ADAPTERS["lonely-star"].demo_matches["deck-out"](LONG_PLAYERS)
    page.goto(f"/matches/{match.pk}/log/")
    page.get_by_text("Filter the log").click()
    page.get_by_label("Player", exact=True).select_option(label=LONG_PLAYERS[0])
    page.get_by_label("Only steps with dice").check()
    page.get_by_role("button", name="Filter", exact=True).click()
    expect(page).to_have_url(re.compile(r"rolls=on#log-steps$"))
    in_view(page, page.locator(".log-entry").first)
    check_page(page)
    assert errors == []


def test_a_lonely_star_turn_opens_on_the_side_in_turn(page: Page, catalog, errors):
    """The play-test: a new Lonely Star match, and each unit played, opened on "End … turn" (the first form in
    view), the side in turn and its "plays a unit" above the screen. The outcome box docks above that side."""
    page.goto("/matches/new/lonely-star/")
    page.get_by_label("Player 1", exact=True).fill(LONG_PLAYERS[0])
    page.get_by_label("Player 2", exact=True).fill(LONG_PLAYERS[1])
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#outcome")).to_contain_text("Match started.")
    side = page.locator("#side-0-section")
    assert page.evaluate("document.getElementById('outcome').nextElementSibling.id") == "side-0-section"
    in_view(page, "#outcome .outcome-box")
    in_view(page, side.locator("summary").first)
    side.locator("summary").first.click()
    page.locator("#unit-name-0").fill("Brand New Unit")
    for stat in ("hp", "at", "lk", "rs", "reach"):
        page.locator(f"#unit-{stat}-0").fill("2")
    side.get_by_role("button", name="Play the unit (takes a card from the hand)").click()
    expect(page.locator("#outcome")).to_contain_text("(log entry 1)")
    assert page.evaluate("document.getElementById('outcome').nextElementSibling.id") == "side-0-section"
    in_view(page, "#outcome .outcome-box")
    check_page(page)
    assert errors == []
