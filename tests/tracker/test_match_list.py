"""All matches, newest first, filtered by game and player, 25 to a page."""

import re

import pytest
from django.urls import reverse

from tracker.matches import services
from tracker.models import Player

from .helpers import text

pytestmark = pytest.mark.django_db

URL = reverse("match_list")


def new_match(*names):
    return services.match_create(slug="card-crush", player_names=list(names), config={})


def shown(html: str) -> list[int]:
    """The ids of the matches listed, in order."""
    return [int(pk) for pk in re.findall(r'<a href="/matches/(\d+)/">', html)]


def test_it_lists_matches_newest_first(client, catalog):
    first, second, third = new_match("Ana", "Ben"), new_match("Ben", "Chloé"), new_match("Ana", "Dev")
    response = client.get(URL)
    assert response.status_code == 200
    html = text(response)
    assert shown(html) == [third.pk, second.pk, first.pk]
    assert "Ana vs Ben" in html and "Ben vs Chloé" in html


def test_it_says_when_there_are_none(client):
    assert "No matches yet." in text(client.get(URL))


def test_it_shows_winner_and_score(client, finished):
    html = text(client.get(URL))
    assert f"{finished.winner.name} won {finished.shown_score}" in html


def test_it_filters_by_game(client, catalog):
    match = new_match("Ana", "Ben")
    assert shown(text(client.get(URL, {"game": "card-crush"}))) == [match.pk]


def test_it_filters_by_player(client, catalog):
    ana_ben, ben_chloe, ana_dev = new_match("Ana", "Ben"), new_match("Ben", "Chloé"), new_match("Ana", "Dev")
    ana, chloe = Player.objects.get(name="Ana"), Player.objects.get(name="Chloé")
    assert shown(text(client.get(URL, {"player": ana.pk}))) == [ana_dev.pk, ana_ben.pk]
    assert shown(text(client.get(URL, {"player": chloe.pk}))) == [ben_chloe.pk]
    assert shown(text(client.get(URL, {"player": ana.pk, "game": "card-crush"}))) == [ana_dev.pk, ana_ben.pk]


def test_the_filters_offer_names_as_typed_and_keep_the_choice(client, catalog):
    odd = new_match('<b>Ana</b> & "Ben"', "Dev")
    html = text(client.get(URL))
    assert "<b>Ana</b>" not in html  # a name is text, never markup
    player = Player.objects.get(name__startswith="<b>")
    assert f'<option value="{player.pk}">&lt;b&gt;Ana&lt;/b&gt; &amp; &quot;Ben&quot;</option>' in html
    assert "&lt;b&gt;Ana&lt;/b&gt; &amp; &quot;Ben&quot; vs Dev" in html
    html = text(client.get(URL, {"player": player.pk, "game": "card-crush"}))
    assert f'<option value="{player.pk}" selected>' in html and '<option value="card-crush" selected>' in html
    assert shown(html) == [odd.pk]
    # A choice that is not offered is shown as the error it is, next to the field it names.
    html = text(client.get(URL, {"game": "chess"}))
    assert 'aria-invalid="true"' in html and 'id="id_game_error"' in html


@pytest.mark.parametrize(
    "query",
    [
        {"game": "chess"},
        {"game": "<script>alert(1)</script>"},
        {"player": "abc"},
        {"player": "-1"},
        {"player": "1.5"},
        {"player": "999999"},
        {"player": "9" * 30},
        {"player": "\x00"},
        {"page": "abc"},
        {"page": "-3"},
        {"page": "9" * 30},
        {"page": "0"},
        {"game": "ünïcødé", "player": "🂡", "page": "☃"},
    ],
)
def test_it_survives_bad_filter_values(client, catalog, query):
    match = new_match("Ana", "Ben")
    response = client.get(URL, query)
    assert response.status_code == 200
    assert "<script>alert(1)</script>" not in text(response)
    # A bad filter value is not a filter: the match is still listed on the one page there is.
    assert shown(text(response)) == [match.pk]


def test_it_paginates(client, catalog):
    matches = [new_match(f"P{i}", f"Q{i}") for i in range(30)]
    newest_first = [m.pk for m in reversed(matches)]
    html = text(client.get(URL))
    assert shown(html) == newest_first[:25]
    assert "Page 1 of 2" in html
    assert "page=2" in html
    html = text(client.get(URL, {"page": 2}))
    assert shown(html) == newest_first[25:]
    assert "Page 2 of 2" in html
    # Past the end: the last page.
    assert shown(text(client.get(URL, {"page": 7}))) == newest_first[25:]


def test_exactly_one_full_page_has_no_pager_and_one_more_match_brings_it(client, catalog):
    matches = [new_match(f"P{i}", f"Q{i}") for i in range(25)]
    for page in ({}, {"page": 1}, {"page": 2}):
        html = text(client.get(URL, page))
        assert shown(html) == [m.pk for m in reversed(matches)]
        assert "Page 1 of" not in html and "page=2" not in html
    newest = new_match("P25", "Q25")
    html = text(client.get(URL))
    assert shown(html)[0] == newest.pk and len(shown(html)) == 25
    assert "Page 1 of 2" in html and "page=2" in html
    assert shown(text(client.get(URL, {"page": 2}))) == [matches[0].pk]


def test_the_pager_keeps_the_filters(client, catalog):
    for _ in range(26):
        new_match("Ana", "Ben")
    ana = Player.objects.get(name="Ana")
    html = text(client.get(URL, {"player": ana.pk, "game": "card-crush"}))
    assert f"game=card-crush&amp;player={ana.pk}&amp;page=2" in html


def test_the_pager_keeps_the_club_filter(client, catalog, club, member):
    club_matches = [services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, club=club)
                    for _ in range(26)]
    new_match("Chloé", "Dev")
    html = text(member.get(URL, {"club": club.pk}))
    assert f"club={club.pk}&amp;page=2" in html
    # Page 2 of the club's matches is the club's oldest match, not every club's matches.
    assert shown(text(member.get(URL, {"club": club.pk, "page": 2}))) == [club_matches[0].pk]


def test_it_refuses_post(client):
    assert client.post(URL).status_code == 405


def test_the_club_filter_is_offered_to_club_members_only(client, catalog, club, member):
    club_match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, club=club)
    table_match = new_match("Chloé", "Dev")
    assert 'name="club"' not in text(client.get(URL)), "a phone without an account is in no club"
    html = text(member.get(URL))
    assert 'name="club"' in html and "Friday Club" in html
    assert shown(html) == [table_match.pk, club_match.pk]
    assert shown(text(member.get(URL, {"club": club.pk}))) == [club_match.pk]
