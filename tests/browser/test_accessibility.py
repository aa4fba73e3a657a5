"""Every page of the app through axe-core, at phone size (360x740), in the light and the dark theme,
and every control at least 44x44 pixels (tests/browser/accessibility.py).

The demo data gives every game finished matches, cards and statistics, and a club with ratings
and a finished tournament; the fixture adds a tournament still to pair and a collection. One test
visits every game as a player meets it: the new-match form (signed in, and sent empty), the board
at the start, after two steps, half-way and at the end (the demo match is taken back with "go to
step"), the secret entry awaited there and the pass-the-phone screen before it, the log, the replay,
the catalog and the game's statistics. The other takes a phone without an account from home to its
own match (the new-match form signed out: a game's form signed in is the same with a club to choose),
a join link that a second phone opens, and signing in; then the reopen question, card editing,
statistics, clubs, ratings, tournaments, collections and the account. Every <details> is opened
first, so what a tap would show is checked too.

Each test walks its pages in one browser page and gathers every violation before it fails, so
one run lists everything to fix. The games share one test, so the demo is loaded twice a run rather
than six times (it took as long as a game's walk). What fails is any axe violation of WCAG 2.0-2.2 A
and AA and of axe's best practices, whatever its impact, and any control under 44x44 pixels.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from tracker import demo
from tracker.competition import collection, tournaments
from tracker.games import ADAPTERS, pages_for
from tracker.matches import services
from tracker.models import Card, Club, Match, Player, Tournament
from tracker.people import locks

from .accessibility import small_targets, theme_violations
from .phone import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "an accessible table 2026"
OPEN_TOURNAMENT = "Next Thursday"


@pytest.fixture
def club_night(transactional_db) -> Club:
    """The demo data, Ana's password, her collections (personal and in the club), a tournament to pair."""
    demo.load()
    ana = get_user_model().objects.get(username="ana")
    ana.set_password(PASSWORD)
    ana.save()
    club = Club.objects.get(name=demo.CLUB)
    player = Player.objects.get(user=ana)
    for name, count in (("Ember Fox", 4), ("Tide Runner", 1), ("Phoenix", 2)):
        collection.copies_add(player=player, club=club, card_name=name, count=count, by=ana)
        collection.copies_add(player=player, card_name=name, count=count, by=ana)
    tournaments.tournament_create(name=OPEN_TOURNAMENT, player_names=list(demo.ACCOUNTS.values()), club=club)
    return club


class Walk:
    """One browser page going from page to page, gathering what axe (in each theme) and the 44px check find."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.found: list[str] = []
        self.checked = 0

    def check(self, url: str | None = None, status: int = 200, page: Page | None = None) -> None:
        """The page at `url` (or as it is now), with its <details> open: every violation, in both themes.

        `page` is another phone's page, for a page only it sees."""
        page = page or self.page
        if url is not None:
            response = page.goto(url)
            assert response is not None and response.status == status, f"{url} answered {response and response.status}"
        page.evaluate("document.querySelectorAll('details').forEach(box => { box.open = true; })")
        self.checked += 1
        found = theme_violations(page) + small_targets(page)
        self.found += [f"{page.url}\n    {line}" for line in found]


def match_pages(walk: Walk, match: Match) -> None:
    """A finished match: its board at the start, after two steps, half-way and at the end, with every
    secret entry awaited on the way (the first behind its pass-the-phone screen); its log and replay."""
    pages = pages_for(match.slug)
    end = match.head
    pass_screen = True
    for step in sorted({0, 2, end // 2}):
        match = services.match_goto(step=step, expected_seq=match.head, match_id=match.pk)
        walk.check(match.get_absolute_url())
        for seat in pages.seats_to_enter(match)[:1]:
            if pass_screen:
                walk.check(reverse("match_pass", args=[match.pk, seat]))
                pass_screen = False
            walk.check(reverse("match_entry", args=[match.pk, seat]))
    match = services.match_goto(step=end, expected_seq=match.head, match_id=match.pk)
    walk.check(match.get_absolute_url())
    walk.check(reverse("match_log", args=[match.pk]))
    walk.check(reverse("match_replay", args=[match.pk]) + f"?step={end // 2}")


def fail_on(walk: Walk) -> None:
    assert not walk.found, f"{len(walk.found)} violations on {walk.checked} pages:\n" + "\n".join(walk.found)


def game_pages(walk: Walk, slug: str) -> None:
    """One game's pages, signed in: the new-match form (with the club to play in) before and after it is sent
    empty, its longest demo match (match_pages), its catalog, a card and its statistics."""
    page = walk.page
    walk.check(reverse("match_new", args=[slug]))
    start = page.locator("main form").last
    start.evaluate("form => { form.noValidate = true; }")  # as a browser without form checks sends it
    start.locator("[type=submit]").last.click()
    expect(page.locator(".error").first).to_be_visible()
    walk.check()  # the form with its errors
    # The longest demo match that can still change: a battle of the ended tournament is locked, and
    # its entry pages refuse (409). Ties in length are broken by pk, the same on every database.
    longest = next(match for match in Match.objects.filter(slug=slug).order_by("-head", "pk")
                   if not locks.why_locked(match))
    match_pages(walk, longest)
    walk.check(reverse("card_list", args=[slug]))
    card = Card.objects.filter(slug=slug).first()
    assert card is not None
    walk.check(reverse("card_detail", args=[slug, card.pk]))
    walk.check(reverse("stats") + f"?game={slug}")


def test_every_game_s_pages_have_no_accessibility_violations(live_server, context: BrowserContext, page: Page,
                                                              club_night: Club):
    """As the demo club's organiser (the club's Card Crush battles are hers), every game in turn."""
    walk = Walk(page)
    sign_in(context, live_server.url, "ana")
    for slug in ADAPTERS:
        game_pages(walk, slug)
    fail_on(walk)


def test_the_pages_around_the_games_have_no_accessibility_violations(make_context, context: BrowserContext,
                                                                      page: Page, club_night: Club):
    walk = Walk(page)
    # A phone without an account: its own match, a join link for another phone, then signing in.
    for name in ("home", "offline", "settings", "sign_up", "match_list", "match_import", "card_games"):
        walk.check(reverse(name))
    walk.check("/no-such-page/", status=404)
    walk.check(reverse("match_new", args=["card-crush"]))  # signed out: no club to choose
    page.get_by_label("Player 1").fill("Eve")
    page.get_by_label("Player 2").fill("Finn")
    page.get_by_role("button", name="Start").click()
    page.get_by_text("Other phones: join or watch").click()
    page.get_by_role("button", name="Join link for Finn").click()
    link = page.get_by_label("Link").input_value()
    walk.check()  # the share panel with its link and QR code
    walk.check(reverse("sign_in"))  # offers to keep this phone's match
    walk.check(link, page=make_context().new_page())  # the other phone, asked to take Finn's seat
    page.get_by_label("Username").fill("ana")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("link", name=re.compile("ana"))).to_be_visible()

    # Undo on a finished match asks first: the question replaces the board.
    page.goto(Match.objects.filter(slug="logos", finished__isnull=False).first().get_absolute_url())
    page.get_by_role("button", name="Undo last step").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("^Reopen this finished match"))
    walk.check()
    card = Card.objects.get(slug="card-crush", name="Gale Sprite")
    walk.check(reverse("card_edit", args=["card-crush", card.pk]))
    walk.check(reverse("card_delete", args=["card-crush", card.pk]))
    ana = Player.objects.get(user__username="ana")
    battle = Match.objects.filter(club=club_night, finished__isnull=False).first()
    assert battle is not None
    for url in [
        reverse("stats"), reverse("stats_player", args=[ana.pk]),
        reverse("club_list"), reverse("club_detail", args=[club_night.pk]),
        reverse("ratings_index"), reverse("leaderboard", args=[club_night.pk]),
        reverse("player_rating", args=[club_night.pk, ana.pk]), reverse("battle_rating", args=[battle.pk]),
        reverse("tournaments_index"), reverse("tournament_list", args=[club_night.pk]),
        Tournament.objects.get(name=demo.TOURNAMENT).get_absolute_url(),
        Tournament.objects.get(name=OPEN_TOURNAMENT).get_absolute_url(),
        reverse("collection_index"), reverse("collection_detail", args=[ana.pk]),
        reverse("club_collections", args=[club_night.pk]),
        reverse("club_collection_detail", args=[club_night.pk, ana.pk]),
        reverse("password_change"), reverse("match_list"), reverse("home"),
    ]:
        walk.check(url)
    fail_on(walk)
