"""The longest names on every page a player meets, at 360 px (issue 28): the demo data with each player renamed to
40 characters (the most a name may have: one without a space, one like an e-mail address, two with spaces), the
club and its tournament at the most their names may have, and a card of 60 characters in every game's catalog.
No page scrolls sideways and no tap target is under 44x44 px (tests/browser/phone.py: check_page).

One walk through the pages, gathering what each shows before failing, so one run lists everything to fix. It
takes about 15 s: the thirty pages of a club night, each loaded once; test_every_tap covers the boards with the
long card in play.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import Page

from tracker import demo
from tracker.games import pages_for
from tracker.models import Card, Club, Match, Player, Tournament

from .accessibility import small_targets
from .phone import LONG_CARD, LONG_PLAYERS, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONGEST = {"Ana": LONG_PLAYERS[0], "Ben": LONG_PLAYERS[1], "Chloé": "Chloé-Éloïse Vandermeersch Oyelaran-Tana",
           "Dev": "Devendra Ramaswamy Subrahmanyam Iyengarr"}
SIDEWAYS = """(width) => document.documentElement.scrollWidth > width ? [...document.querySelectorAll('main *')]
  .filter(e => e.getBoundingClientRect().right > width + 1).slice(0, 3)
  .map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 40)) : []"""


def longest(model, field: str = "name") -> int:
    return model._meta.get_field(field).max_length


@pytest.fixture
def club_night(transactional_db) -> Club:
    demo.load()
    for short, long in LONGEST.items():
        assert len(long) == longest(Player)
        Player.objects.filter(name=short).update(name=long)
    club = Club.objects.get(name=demo.CLUB)
    club.name = ("Thursday Card Night at the Old Lighthouse Games Café " * 3)[:longest(Club)]
    club.save(update_fields=["name"])
    Tournament.objects.update(name=("Demo Swiss of the longest names the club allows " * 3)[:longest(Tournament)])
    for slug in demo.rules.GAMES:
        model = Card.objects.filter(slug=slug).first()
        Card.objects.create(slug=slug, name=LONG_CARD, stats=model.stats)
    return club


def pages(club: Club) -> list[str]:
    """Every page a player at a club night sees, once: per game its new-match form, a match, its catalog and the
    long card; one match's log and replay; statistics, the club, its ratings, tournament and a collection."""
    urls = [reverse("home"), reverse("match_list"), reverse("stats"), reverse("card_games"),
            reverse("club_detail", args=[club.pk]), reverse("leaderboard", args=[club.pk]),
            reverse("tournaments_index"), reverse("ratings_index"), reverse("collection_index")]
    for slug in demo.rules.GAMES:
        match = Match.objects.filter(slug=slug).order_by("pk").first()
        urls += [reverse("match_new", args=[slug]), match.get_absolute_url(), reverse("card_list", args=[slug]),
                 reverse("card_detail", args=[slug, Card.objects.get(slug=slug, name=LONG_CARD).pk])]
        if pages_for(slug).competes:
            urls += [reverse("match_log", args=[match.pk]), reverse("match_replay", args=[match.pk])]
    ana = Player.objects.get(name=LONGEST["Ana"])
    urls += [reverse("stats_player", args=[ana.pk]), reverse("player_rating", args=[club.pk, ana.pk]),
             reverse("tournament_detail", args=[Tournament.objects.get().pk]),
             reverse("battle_rating", args=[Match.objects.filter(club=club, finished__isnull=False, rated=True,
                                                                 slug="card-crush").first().pk]),
             reverse("club_collection_detail", args=[club.pk, ana.pk])]
    return urls


def test_every_page_fits_360_px_with_the_longest_names(page: Page, live_server, club_night, screenshot_dir):
    sign_in(page.context, live_server.url, "ana")  # a member and organiser: the club's own pages too
    found = []
    for url in pages(club_night):
        response = page.goto(url)
        assert response is not None and response.status == 200, f"{url}: {response and response.status}"
        page.evaluate("document.querySelectorAll('details').forEach(box => { box.open = true; })")
        if sideways := page.evaluate(SIDEWAYS, page.viewport_size["width"]):
            found.append(f"{url} scrolls sideways: {sideways}")
            page.screenshot(path=screenshot_dir / f"long-names-{url.strip('/').replace('/', '-') or 'home'}.png")
        if small := small_targets(page):
            found.append(f"{url} has tap targets under 44 px: {small}")
    assert found == [], "\n".join(found)
