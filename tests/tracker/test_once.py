"""A double tap makes one thing: the forms that create a match, a club, a tournament or a card carry a
one-time token, and a second POST with it goes where the first went without making anything."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tracker.models import Card, Club, Match, Tournament

from .helpers import club_account, text

pytestmark = pytest.mark.django_db


def token(page: str, action: str | None = None) -> str:
    """The one-time token of the page's first form, or of its form that posts to `action`."""
    form = rf'action="{re.escape(action)}"[^>]*>(?:(?!</form>).)*?' if action else ""
    return re.search(form + r'name="once" value="([^"]+)"', page, re.DOTALL).group(1)


def twice(client, url: str, data: dict, form_page: str | None = None):
    """Post the form found on `form_page` (default: `url`, then its first form) twice with its token, as a
    double tap does."""
    data = {**data, "once": token(text(client.get(form_page or url)), url if form_page else None)}
    return client.post(url, data), client.post(url, data)


def test_a_double_tapped_start_makes_one_match(client, catalog):
    first, second = twice(client, reverse("match_new", args=["card-crush"]), {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score"})
    match = Match.objects.get()
    assert first.status_code == second.status_code == 302
    assert first.url == second.url == match.get_absolute_url()


def test_the_second_tap_is_told_what_the_first_was_told(catalog):
    """A browser may drop the first answer for the second: the second carries its message again."""
    url = reverse("match_new", args=["card-crush"])
    data = {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score"}
    data["once"] = token(text(Client().get(url)))
    Client().post(url, data)  # the first tap's answer, never read
    second = Client().post(url, data, follow=True)
    assert "Match started." in text(second) and Match.objects.count() == 1


def test_a_token_remembered_before_the_upgrade_still_sends_the_second_tap_there(catalog):
    from django.core.cache import cache

    from tracker.matches import once

    url = reverse("match_new", args=["card-crush"])
    data = {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score",
            "once": token(text(Client().get(url)))}
    cache.set(once._key(data["once"]), "/matches/1/", once.KEPT)  # the old format: only where it went
    answer = Client().post(url, data)
    assert answer.status_code == 302 and answer.url == "/matches/1/" and not Match.objects.exists()


def test_a_double_tapped_club_is_one_club():
    ana = club_account("ana")
    first, second = twice(ana, reverse("club_new"), {"name": "Thursday"}, form_page=reverse("club_list"))
    club = Club.objects.get()
    assert first.url == second.url == club.get_absolute_url()


def test_a_double_tapped_tournament_is_one_tournament(organiser, club, catalog):
    url = reverse("tournament_list", args=[club.pk])
    first, second = twice(organiser, url, {"name": "Cup", "entrants": "Ana\nBen\nCid"})
    assert first.url == second.url == Tournament.objects.get().get_absolute_url()


def test_a_double_tapped_card_is_one_card(client):
    fields = {"new-name": "Twice Wyrm", "new-affinity": "Fire", "new-power": "5", "new-speed": "5",
              "new-rarity": "Epic", "new-level": "1"}
    first, second = twice(client, reverse("card_new", args=["card-crush"]), fields,
                          form_page=reverse("card_list", args=["card-crush"]))
    assert first.status_code == second.status_code == 302 and first.url == second.url
    assert Card.objects.filter(name="Twice Wyrm").count() == 1


def test_a_refused_form_frees_its_token_for_the_corrected_one(client, catalog):
    url = reverse("match_new", args=["card-crush"])
    once = token(text(client.get(url)))
    assert client.post(url, {"player_0": "Ana", "player_1": "", "config-resolution": "battle-score", "once": once}).status_code == 422
    assert client.post(url, {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score", "once": once}).status_code == 302
    assert Match.objects.count() == 1


# ---------------------------------------------------------------- every route that makes something

MAKES_SOMETHING = {
    "sign_up", "match_new", "match_import", "card_new", "card_import", "club_new", "club_invite_new", "invite_new",
    "collection_add", "club_collection_add", "tournament_list", "tournament_entrant", "card_club_correction",
    "club_claim",
}
"""Routes whose POST makes a new thing (an account, a match, cards, a club, an invite, copies, a tournament,
an entrant, a club's correction of a card, a name claim): each is @made_once and its form carries the token."""
MAKES_NOTHING_NEW = {
    "match_take_over",  # hands an existing match to an organiser
    # Pages and files to read.
    "home", "healthz", "service_worker", "web_manifest", "offline", "settings", "match_list", "match_detail",
    "match_poll", "match_log", "match_replay", "match_export_json", "match_export_text", "stats", "stats_player",
    "card_games", "card_list", "card_picks", "card_detail", "card_export", "ratings_index", "leaderboard",
    "player_rating", "battle_rating", "tournaments_index", "tournament_detail", "collection_index",
    "collection_detail", "club_collections", "club_collection_detail", "club_list", "club_detail",
    "cardmaster_steps", "cardmaster_analysis", "cardmaster_hint", "trust_page", "trust_certificate", "match_events",
    # Changes to one thing, each refused when stale or repeated (the step number, the round, the state).
    "match_act", "match_entry", "match_goto", "match_pass", "cardmaster_ai_turn", "proposal_answer",
    "proposal_withdraw", "match_void", "tournament_reopen", "tournament_pair", "tournament_drop",
    "tournament_finish", "battle_confirm", "club_claim_release", "collection_upgrade", "club_collection_upgrade", "card_edit", "card_delete",
    "invite_revoke", "club_invite_revoke", "club_settings", "club_member", "club_leave",
    # Settings and sessions: the same again changes nothing more.
    "set_theme", "set_language", "sign_in", "sign_out", "password_change",
    # Joining by a link: a second tap finds the seat or the membership already there.
    "join", "club_join",
}




def every_pattern() -> dict[str, object]:
    from django.urls import URLPattern, URLResolver, get_resolver

    def walk(resolver):
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern)
            elif isinstance(pattern, URLPattern) and pattern.name:
                yield pattern.name, pattern

    return dict(walk(get_resolver()))


def every_route() -> dict[str, object]:
    return {name: pattern.callback for name, pattern in every_pattern().items()}


def test_every_route_is_sorted_and_every_one_that_makes_something_is_made_once():
    routes = every_route()
    assert set(routes) == MAKES_SOMETHING | MAKES_NOTHING_NEW, \
        "a new route: does its POST make something?"
    assert {name for name, view in routes.items() if getattr(view, "made_once", False)} == MAKES_SOMETHING


def test_a_double_tapped_sign_up_makes_one_account(client):
    from django.contrib.auth import get_user_model

    data = {"username": "zoe", "password1": "a long passphrase 42", "password2": "a long passphrase 42",
            "player_name": "Zoe"}
    first, second = twice(client, reverse("sign_up"), data)
    assert first.status_code == second.status_code == 302 and first.url == second.url
    assert get_user_model().objects.filter(username="zoe").count() == 1


def test_a_sign_up_racing_another_for_the_same_name_is_told_not_crashed(client, monkeypatch):
    """The form checked the names were free; another request took one before the save: a message, not a 500."""
    from django.contrib.auth import get_user_model
    from django.db import IntegrityError

    from tracker.people import views

    def racing(form):
        raise IntegrityError("duplicate key value violates unique constraint")

    monkeypatch.setattr(views, "_new_account", racing)
    data = {"username": "zoe", "password1": "a long passphrase 42", "password2": "a long passphrase 42",
            "player_name": "Zoe"}
    response = client.post(reverse("sign_up"), data)
    assert response.status_code == 422
    assert "That user name or player name was just taken; choose another." in text(response)
    assert not get_user_model().objects.filter(username="zoe").exists()


def test_double_tapped_copies_are_added_once(catalog):
    from tracker.models import CollectionCard, Player

    ana = club_account("ana")
    player = Player.objects.create(name="Ana", user=ana.user)
    url = reverse("collection_add", args=[player.pk])
    first, second = twice(ana, url, {"card": "Phoenix", "count": "2"},
                          form_page=reverse("collection_detail", args=[player.pk]))
    assert first.status_code == second.status_code == 302
    assert CollectionCard.objects.get(player=player).copies == 2


def test_copies_racing_the_first_add_of_a_card_are_told_not_crashed(catalog, monkeypatch):
    """Two first adds of one card in the same instant: the second insert meets the unique row; a message."""
    from django.db import IntegrityError

    from tracker.competition import collection
    from tracker.models import Player

    ana = club_account("ana")
    player = Player.objects.create(name="Ana", user=ana.user)

    def racing(**kwargs):
        raise IntegrityError("duplicate key value violates unique constraint")

    monkeypatch.setattr(collection, "copies_add", racing)
    response = ana.post(reverse("collection_add", args=[player.pk]), {"card": "Phoenix", "count": "2"})
    assert response.status_code == 409
    assert "This collection changed at the same moment" in text(response)


def test_a_double_tapped_import_stores_one_match(client, catalog, settings):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from .test_exchange import as_file, play_script, rename

    raw = __import__("json").dumps(rename(as_file(play_script("card-crush", "rulebook")), "Zed", "Yara")).encode()
    before = Match.objects.count()
    once = token(text(client.get(reverse("match_import"))))
    answers = [client.post(reverse("match_import"), {"file": SimpleUploadedFile("m.json", raw), "once": once})
               for _ in range(2)]
    assert [answer.status_code for answer in answers] == [302, 302] and answers[0].url == answers[1].url
    assert Match.objects.count() == before + 1


def test_a_double_tapped_invite_makes_one_link(owner, battle):
    from tracker.models import Invite

    first, second = twice(owner, reverse("invite_new", args=[battle.pk]), {"kind": "seat", "seat": "1"},
                          form_page=battle.get_absolute_url())
    assert first.url == second.url
    assert Invite.objects.filter(match=battle).count() == 1


def test_a_double_tapped_club_invite_makes_one_link(organiser, club):
    from tracker.models import ClubInvite

    twice(organiser, reverse("club_invite_new", args=[club.pk]), {}, form_page=club.get_absolute_url())
    assert ClubInvite.objects.filter(club=club).count() == 1


def test_a_double_tapped_club_correction_is_recorded_once(organiser, club, catalog):
    from tracker.models import CardChange, ClubCorrection

    phoenix = catalog["Phoenix"]
    url = reverse("card_club_correction", args=["card-crush", phoenix.pk, club.pk])
    fields = {f"card-{k}": v for k, v in {**phoenix.stats, "power": 7}.items()}
    first, second = twice(organiser, url, fields)
    assert first.status_code == second.status_code == 302 and first.url == second.url
    assert ClubCorrection.objects.get(club=club, card=phoenix).stats["power"] == 7
    assert CardChange.objects.filter(kind=CardChange.CLUB).count() == 1
    page = text(organiser.get(first.url))
    assert "new matches play Phoenix with these stats" in page and "Nothing was different" not in page


def test_a_double_tapped_name_claim_is_one_claim_and_no_refusal(organiser, club):
    from tracker.models import NameClaim

    first, second = twice(organiser, reverse("club_claim", args=[club.pk]), {"slug": "card-crush", "name": "Store Drake"},
                          form_page=club.get_absolute_url())
    assert first.status_code == second.status_code == 302 and first.url == second.url
    assert NameClaim.objects.filter(club=club).count() == 1
    assert "already claimed" not in text(organiser.get(first.url))


def _post_forms(page: str, page_url: str) -> list[tuple[str, bool]]:
    """Each POST form of the page: the route it posts to, and whether it carries a one-time token."""
    from html.parser import HTMLParser

    from django.urls import resolve

    found: list[list] = []

    class Forms(HTMLParser):
        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if tag == "form" and (attrs.get("method") or "").lower() == "post":
                found.append([resolve((attrs.get("action") or page_url).split("#")[0].split("?")[0]).url_name, False])
            elif tag == "input" and attrs.get("name") == "once" and found:
                found[-1][1] = True

    Forms().feed(page)
    return [(route, carries) for route, carries in found]


def test_every_form_that_makes_something_carries_the_token(organiser, club, catalog, owner, battle):
    """The pages that hold the forms of every route in MAKES_SOMETHING: each such form carries the token
    (a @made_once view without it in its form would still make two things of a double tap)."""
    from tracker.models import Player

    player = Player.objects.create(name="Olga", user=organiser.user)
    organiser.post(reverse("tournament_list", args=[club.pk]), {"name": "Cup", "entrants": "Ana\nBen\nCid"})
    cup = Tournament.objects.get()
    pages = {
        Client(): [reverse("sign_up")],
        owner: [reverse("match_new", args=["card-crush"]), reverse("match_import"),
                reverse("card_list", args=["card-crush"]), battle.get_absolute_url()],
        organiser: [reverse("club_list"), club.get_absolute_url(), reverse("tournament_list", args=[club.pk]),
                    cup.get_absolute_url(), reverse("collection_detail", args=[player.pk]),
                    reverse("club_collection_detail", args=[club.pk, player.pk]),
                    reverse("card_club_correction", args=["card-crush", catalog["Phoenix"].pk, club.pk])],
    }
    seen: dict[str, set[bool]] = {}
    for phone, urls in pages.items():
        for url in urls:
            response = phone.get(url)
            assert response.status_code == 200, url
            for route, carries in _post_forms(text(response), url):
                seen.setdefault(route, set()).add(carries)
    missing = MAKES_SOMETHING - set(seen)
    assert not missing, f"no page above holds a form of {missing}"
    assert {route for route in MAKES_SOMETHING if seen[route] != {True}} == set()
    assert {route for route, carries in seen.items() if True in carries} <= MAKES_SOMETHING, "a token no view reads"


# ---------------------------------------------------------------- a token no page issued

NOT_ISSUED = ["ab\x00cd", "\x00", "x" * 100_000, "🂡 ünïcødé", "a b", "%00"]
"""Tokens of another shape than {% once %} gives: a NUL in the cache key was a 500 on PostgreSQL."""


@pytest.mark.parametrize("name", sorted(MAKES_SOMETHING))
def test_a_token_no_page_issued_is_no_token_on_every_made_once_route(organiser, name):
    """Every id a view looks up is unknown (the view refuses after made_once read the token): never a 500."""
    converters = every_pattern()[name].pattern.converters
    kwargs = {key: "card-crush" if key == "slug" else 10**9 for key in converters}
    for once in NOT_ISSUED:
        assert organiser.post(reverse(name, kwargs=kwargs), {"once": once}).status_code < 500, repr(once[:10])


def test_a_start_with_a_nul_in_its_token_is_made_once(client, catalog):
    data = {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score", "once": "ab\x00cd"}
    answer = client.post(reverse("match_new", args=["card-crush"]), data)
    assert answer.status_code == 302 and answer.url == Match.objects.get().get_absolute_url()
