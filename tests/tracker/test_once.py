"""A double tap makes one thing: the forms that create a match, a club, a tournament or a card carry a
one-time token, and a second POST with it goes where the first went without making anything."""

import re

import pytest
from django.urls import reverse

from tracker.models import Card, Club, Match, Tournament

from .helpers import club_account, text

pytestmark = pytest.mark.django_db


def token(page: str) -> str:
    return re.search(r'name="once" value="([^"]+)"', page).group(1)


def twice(client, url: str, data: dict, form_page: str | None = None):
    """Post the form found on `form_page` (default: `url`) twice with its token, as a double tap does."""
    data = {**data, "once": token(text(client.get(form_page or url)))}
    return client.post(url, data), client.post(url, data)


def test_a_double_tapped_start_makes_one_match(client, catalog):
    first, second = twice(client, reverse("match_new", args=["card-crush"]), {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score"})
    match = Match.objects.get()
    assert first.status_code == second.status_code == 302
    assert first.url == second.url == match.get_absolute_url()


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
