"""German at phone size: the longer German words still fit a 360-pixel screen on every game's page.

German runs about a third longer than English and has long compounds ("Wiederherstellen",
"Aktivierungssequenz"): a button or a label that fits in English can push the page wider
than the phone, so the player has to scroll sideways. Each game's demo match, played half
way, and a fresh match's secret entry are opened in German and measured. Of the demo only what is
opened is made: the catalogs and each game's first demo match (the whole demo, its club and
tournament, took as long again).
"""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

import rules
from tracker.demo import load_catalogs
from tracker.games import pages_for
from tracker.matches import services
from tracker.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = 360  # tests/browser/conftest.py's phone


def wider_than_the_screen(page: Page) -> list[str]:
    """What sticks out past the right edge (tables scroll inside their own box, so they are left out)."""
    return page.evaluate("""(width) => [...document.querySelectorAll('body *')]
        .filter(el => !el.closest('.table-scroll, .sr-only, .skip'))
        .filter(el => { const r = el.getBoundingClientRect(); return r.width && r.right > width + 0.5; })
        .map(el => el.tagName + ' ' + (el.textContent || '').trim().slice(0, 40))""", WIDTH)


def test_every_game_fits_the_phone_in_german(page: Page, screenshot_dir):
    load_catalogs()
    page.goto(reverse("settings"))
    page.get_by_role("button", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    urls, halfway = [], {}
    for slug in rules.GAMES:
        script, players = pages_for(slug).demo_played[0]  # the first match `manage.py demo` plays
        match = pages_for(slug).demo_matches[script](players)
        Match.objects.filter(pk=match.pk).update(owner=None, club=None)  # the table's: any phone opens it
        services.match_goto(match_id=match.pk, step=match.head // 2, expected_seq=match.head)
        fresh = services.match_create(slug=slug, player_names=["Ana", "Ben"], config={})
        halfway[slug] = match.get_absolute_url()
        urls += [halfway[slug], reverse("match_log", args=[match.pk]), fresh.get_absolute_url()]
        urls += [reverse("match_entry", args=[fresh.pk, seat]) for seat in pages_for(slug).seats_to_enter(fresh)[:1]]
    for url in urls:
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", "de")
        assert (url, page.evaluate("document.documentElement.scrollWidth"), wider_than_the_screen(page)) == (url, WIDTH, [])
    page.goto(halfway["cardmaster"])  # the fullest board: lineups, gems, statuses
    page.screenshot(path=screenshot_dir / "cardmaster-in-german-360.png", full_page=True, caret="initial")


def test_a_refused_unit_in_german_keeps_why_the_name_and_the_button_in_view(make_context, catalog, screenshot_dir):
    """Lonely Star in German, 40-character players and a new 60-character unit without its LK: why (seven lines in
    the box), the unit's name and the button that plays it are on the screen together. The button's three lines and
    the name's three-line label ended it at y 768; both say it shorter now."""
    from .phone import LONG_CARD, LONG_PLAYERS, fill_card, in_view

    page = make_context(locale="de-DE").new_page()
    match = services.match_create(slug="lonely-star", player_names=list(LONG_PLAYERS), config={})
    page.goto(match.get_absolute_url())
    side = page.locator("#side-0-section")
    side.locator("summary").first.click()
    name = side.get_by_label("Einheitenkarte (Katalog oder neuer Name)")
    fill_card(name, LONG_CARD)
    for stat, value in (("hp", "5"), ("at", "2"), ("rs", "1"), ("reach", "1")):  # LK left out: refused
        page.locator(f"#unit-{stat}-0").fill(value)
    play = side.get_by_role("button", name="Einheit spielen (kostet eine Handkarte)")
    play.click()
    box = page.locator("#outcome .outcome-refused")
    expect(box).to_contain_text("LK")
    page.wait_for_timeout(300)  # the box docked and scrolled to, once the swap has settled
    page.screenshot(path=screenshot_dir / "lonely-star-refused-unit-in-german.png", caret="initial")
    for shown in (box, name, play):
        in_view(page, shown)
    expect(name).to_have_value(LONG_CARD)


@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
def test_a_players_record_per_game_fits_the_phone(make_context, live_server, locale, screenshot_dir):
    """A player's statistics page: the table of their record per game (game, played, won, win rate) fits a
    360-pixel phone with nothing to swipe sideways for, in German too ("Gespielt" and "Gewonnen", unbroken, made
    it 383 px wide; now "Partien" and "Siege", and the games' own short names keep no 7rem minimum)."""
    from tracker import demo
    from tracker.models import Player

    from .phone import sign_in

    demo.load()
    page = make_context(locale=locale).new_page()
    sign_in(page.context, live_server.url, "ana")
    for player in Player.objects.filter(name__in=["Ana", "Ben", "Chloé", "Dev"]):
        page.goto(reverse("stats_player", args=[player.pk]))
        table = page.locator(".table-scroll").first
        expect(table.get_by_role("columnheader")).to_have_count(4)
        wide, box = table.evaluate("box => [box.scrollWidth, box.clientWidth]")
        assert wide <= box, f"{player.name}: the table is {wide} px wide in a box of {box}"
        expect(table.locator(".scroll-hint")).to_be_hidden()
    page.screenshot(path=screenshot_dir / f"player-record-per-game-{locale}.png", caret="initial")
