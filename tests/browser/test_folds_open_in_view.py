"""A fold (a <details>) tapped at the foot of a 360x740 screen opens in view: what it opened is on the screen,
its summary still above it (a fold taller than the screen: its summary at the screen's top). The browser leaves
the page where it was, so a fold tapped there opened below the screen and the player saw nothing happen: the
tournament's "End the tournament…" with a long name above it, a board's "+ Ana plays a unit", the share panel.

Every fold of the pages an organiser meets on a club night, each in turn placed with its summary at the screen's
foot and tapped: the tournament (running, its name the longest allowed), the club, a player's statistics, the
club's ratings, a game's catalog, and a new match of every game with its log; Evons' "Add a card to the
catalog" fetches its form as it opens (taller than the screen).
"""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

import rules
from tracker import demo
from tracker.competition import tournaments
from tracker.matches import services
from tracker.models import Club, Match, Player, Tournament

from .phone import sign_in, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLOSED = """() => [...document.querySelectorAll('details')].map((fold, i) => [fold, i])
  .filter(([fold]) => !fold.open && fold.querySelector(':scope > summary').checkVisibility()).map(([, i]) => i)"""
# The summary's foot on the screen's foot: where it is, the point a thumb taps.
TO_THE_FOOT = """(i) => { const summary = document.querySelectorAll('details')[i].querySelector(':scope > summary');
  scrollBy(0, summary.getBoundingClientRect().bottom - innerHeight + 2);
  const box = summary.getBoundingClientRect(); return [box.left + 20, box.top + box.height / 2, box.bottom]; }"""
SHOWN = """(i) => { const fold = document.querySelectorAll('details')[i], box = fold.getBoundingClientRect();
  return { open: fold.open, top: Math.round(box.top), bottom: Math.round(box.bottom),
           name: fold.querySelector(':scope > summary').textContent.trim().slice(0, 40) }; }"""


@pytest.fixture
def club_night(transactional_db) -> list[str]:
    """The demo, its tournament running again (its second round played: Ana, who plays and organises, may end it)
    under the longest name a tournament may have; the pages, with a new match of every game."""
    demo.load()
    tournament = Tournament.objects.get()
    tournaments.tournament_reopen(tournament_id=tournament.pk, expected_round=2)
    longest = Tournament._meta.get_field("name").max_length
    Tournament.objects.update(name=("Demo Swiss of the longest names the club allows " * 3)[:longest])
    club = Club.objects.get(name=demo.CLUB)
    urls = [reverse("tournament_detail", args=[tournament.pk]), reverse("club_detail", args=[club.pk]),
            reverse("stats_player", args=[Player.objects.get(name="Ana").pk]), reverse("leaderboard", args=[club.pk]),
            reverse("card_list", args=["logos"])]
    ana = Player.objects.get(name="Ana").user
    for slug in rules.GAMES:
        match = services.match_create(slug=slug, player_names=["Ana", "Ben"], config={})
        Match.objects.filter(pk=match.pk).update(owner=ana, club=None)  # Ana's: her share panel too
        urls.append(match.get_absolute_url())
    urls.append(reverse("match_log", args=[Match.objects.filter(slug="cardmaster", finished__isnull=False)[0].pk]))
    return urls


def test_a_fold_tapped_at_the_foot_of_the_screen_opens_in_view(page: Page, live_server, club_night, screenshot_dir):
    sign_in(page.context, live_server.url, "ana")
    errors = watch_errors(page)
    below, names = [], set()
    for url in club_night:
        page.goto(url)
        for i in page.evaluate(CLOSED):
            page.goto(url)  # each fold from the page as it opens, the others closed
            page.wait_for_load_state("load")
            x, y, foot = page.evaluate(TO_THE_FOOT, i)
            assert foot <= page.viewport_size["height"] + 2, f"{url}: fold {i} cannot be brought to the foot"
            page.mouse.click(x, y)
            fold = page.locator("details").nth(i)
            expect(fold).to_have_attribute("open", "")
            page.wait_for_load_state("networkidle")  # a fold whose content is fetched as it opens has it
            shown = page.evaluate(SHOWN, i)
            height = page.viewport_size["height"]
            # Wholly in view, or, taller than the screen, from its top (the summary) down.
            if not (shown["top"] >= -1 and (shown["bottom"] <= height + 1 or shown["top"] <= 1)):
                below.append(f"{url} {shown}")
            if shown["name"].startswith("End the tournament"):
                page.screenshot(path=screenshot_dir / "end-the-tournament-opened-in-view.png", caret="initial")
                expect(page.get_by_role("button", name="End the tournament: final standings")).to_be_in_viewport()
            names.add(shown["name"])
    assert below == []
    assert {"End the tournament…", "Drop a player", "Leave the club…", "+ Ana plays a unit", "Other phones: join or watch",
            "Add a card to the catalog"} <= names, names  # the sweep met them
    assert errors == []
