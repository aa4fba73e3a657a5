"""A game's card catalog: search as you type, and adding a card (also mid-match)."""

import json
import re
import unicodedata

import pytest
from django.urls import reverse

import rules
from tracker.models import Card

from .helpers import JUNK, JUNK_IDS, assert_csrf_refused, csrf_token_from, text

pytestmark = pytest.mark.django_db

LIST = reverse("card_list", args=["card-crush"])
NEW = reverse("card_new", args=["card-crush"])


def card_data(**fields):
    data = {"name": "Magma Wyrm", "power": "8", "speed": "4", "affinity": "Fire", "rarity": "Epic", "level": "1"}
    data.update(fields)
    return {f"new-{key}": value for key, value in data.items()}


def names_listed(html: str) -> list[str]:
    """The names in the catalog table, each a link to the card's page."""
    return re.findall(r'<th scope="row"><a href="/cards/[^"]+/\d+/">([^<]+)</a></th>', html)


# ---------------------------------------------------------------- card_games (the index)


def test_it_lists_every_games_catalog_with_its_size(client, catalog):
    response = client.get(reverse("card_games"))
    assert response.status_code == 200
    html = text(response)
    for slug, game in rules.GAMES.items():
        assert reverse("card_list", args=[slug]) in html
        assert game.name in html
    assert f"Card Crush: {len(catalog)} cards" in html


def test_the_index_refuses_post(client):
    assert client.post(reverse("card_games")).status_code == 405


# ---------------------------------------------------------------- card_list


def test_it_lists_the_catalog(client, catalog):
    response = client.get(LIST)
    assert response.status_code == 200
    html = text(response)
    assert "Card Crush cards" in html
    assert names_listed(html) == sorted(catalog)


def test_it_searches_by_name_in_any_case(client, catalog):
    html = text(client.get(LIST, {"q": "  sTORM "}))
    assert names_listed(html) == ["Storm Caller"]
    assert names_listed(text(client.get(LIST, {"q": "fox"}))) == ["Ember Fox"]


def test_it_says_when_nothing_matches(client, catalog):
    html = text(client.get(LIST, {"q": "zzz"}))
    assert names_listed(html) == []
    assert "No cards match." in html and "yet" not in html.split('id="results"')[1].split("</div>")[0]
    assert not re.search(r'<details class="new-card" id="add-card" open', html)


def test_an_empty_catalog_says_it_has_no_card_yet_and_leads_to_the_form(client):
    """A game with no cards yet said "No cards match." with no search made."""
    for html in (text(client.get(LIST)), text(client.get(LIST, {"q": "fox"}, HTTP_HX_REQUEST="true"))):
        assert "No cards in this catalog yet." in html and "No cards match." not in html
        assert '<a href="#add-card">Add the first one</a>' in html
    assert '<details class="new-card" id="add-card" open>' in text(client.get(LIST))


def test_it_returns_only_the_results_to_htmx(client, catalog):
    response = client.get(LIST, {"q": "stone"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<div id="results"')
    assert "<html" not in html and "<form" not in html
    assert names_listed(html) == ["Stone Golem"]


@pytest.mark.parametrize("q", ["x" * 10_000, "<script>", "%", "_", "\x00", "🂡"])
def test_it_survives_odd_searches(client, catalog, q):
    response = client.get(LIST, {"q": q})
    assert response.status_code == 200
    assert "<script>" not in text(response).split("<body", 1)[1]


def test_a_percent_sign_is_not_a_wildcard(client, catalog):
    assert names_listed(text(client.get(LIST, {"q": "%"}))) == []


def test_list_404s_for_an_unknown_game(client):
    assert client.get(reverse("card_list", args=["chess"])).status_code == 404


def test_list_refuses_post(client):
    assert client.post(LIST).status_code == 405


# ---------------------------------------------------------------- card_new


def test_it_adds_a_card(client, catalog):
    response = client.post(NEW, card_data())
    assert response.status_code == 302
    assert response.url == LIST
    card = Card.objects.get(name="Magma Wyrm")
    assert card.slug == "card-crush"
    assert card.stats == {"power": 8, "speed": 4, "affinity": "Fire", "rarity": "Epic", "level": 1}
    assert "Magma Wyrm added to the catalog." in text(client.get(response.url))


def test_it_adds_a_card_for_htmx(client, catalog):
    response = client.post(NEW, card_data(), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = text(response)
    assert "<html" not in html
    assert "Magma Wyrm added to the catalog." in html
    # The deck entry's card list is refreshed out of band with the new card in it.
    assert '<datalist id="catalog" hx-swap-oob="true">' in html
    assert '<option value="Magma Wyrm">' in html
    assert Card.objects.filter(name="Magma Wyrm").exists()
    # The catalog page's list, searched or not, asks for itself again with what the search holds, and shows it.
    assert json.loads(response["HX-Trigger"]) == {"card-added": {}}
    for html in (text(client.get(LIST)), text(client.get(LIST, {"q": "wyrm"}, HTTP_HX_REQUEST="true"))):
        results = html[html.index('<div id="results"'):]
        assert 'hx-trigger="card-added from:body"' in results.split(">", 1)[0]
        assert 'hx-include="#card-search"' in results.split(">", 1)[0]
    assert names_listed(text(client.get(LIST, {"q": "wyrm"}, HTTP_HX_REQUEST="true"))) == ["Magma Wyrm"]
    refused = client.post(NEW, card_data(), HTTP_HX_REQUEST="true")  # the same name again: nothing added
    assert refused.status_code == 422 and "HX-Trigger" not in refused


def test_a_match_page_fetches_the_empty_form_and_a_phone_without_htmx_gets_the_catalog_page(client, catalog):
    back = "/matches/1/"
    part = client.get(NEW, {"next": back}, HTTP_HX_REQUEST="true")
    assert part.status_code == 200
    html = text(part)
    assert "<html" not in html and 'name="new-name"' in html and 'name="once"' in html
    assert f'name="next" value="{back}"' in html  # where the card's answer leads, as the inline form had it
    assert 'name="next" value="https://' not in text(client.get(NEW, {"next": "https://example.org/"},
                                                                HTTP_HX_REQUEST="true"))
    plain = client.get(NEW)
    assert plain.status_code == 302 and plain.url == LIST + "#new-card"
    assert Card.objects.filter(slug="card-crush").count() == len(catalog)  # a GET adds nothing


def test_it_returns_to_the_deck_entry_it_came_from(client, match):
    back = reverse("match_entry", args=[match.pk, 0])
    response = client.post(NEW, {**card_data(), "next": back})
    assert response.status_code == 302
    assert response.url == back


@pytest.mark.parametrize(
    "next_url",
    ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)", "http://testserver.evil/"],
)
def test_it_does_not_follow_an_off_site_next(client, catalog, next_url):
    response = client.post(NEW, {**card_data(), "next": next_url})
    assert response.status_code == 302
    assert response.url == LIST


def refused(client, data, **headers):
    count = Card.objects.count()
    response = client.post(NEW, data, **headers)
    assert response.status_code == 422
    assert Card.objects.count() == count
    return text(response)


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"power": "-1"}, "Ensure this value is greater than or equal to 0."),
        ({"power": "seven"}, "Enter a whole number."),
        ({"power": "7.5"}, "Enter a whole number."),
        ({"power": "1000"}, "Ensure this value is less than or equal to 999."),
        ({"speed": "1000000000000000000000000"}, "Ensure this value is less than or equal to 999."),
        ({"power": ""}, "This field is required."),
        ({"level": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"affinity": "Plasma"}, "Select a valid choice. Plasma is not one of the available choices."),
        ({"rarity": "Mythic"}, "Select a valid choice. Mythic is not one of the available choices."),
        ({"name": "   "}, "This field is required."),
        ({"name": "N" * 61}, "Ensure this value has at most 60 characters"),
    ],
)
def test_it_refuses_a_bad_card(client, catalog, fields, message):
    html = refused(client, card_data(**fields))
    assert message in html
    assert not Card.objects.filter(name="Magma Wyrm").exists()


def test_it_refuses_a_bad_card_for_htmx(client, catalog):
    html = refused(client, card_data(power="-5"), HTTP_HX_REQUEST="true")
    assert "<html" not in html
    assert "Ensure this value is greater than or equal to 0." in html


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", ["Ember Fox", "ember FOX", "  Ember Fox  "])
def test_it_refuses_a_name_already_in_the_catalog(client, catalog, name):
    html = refused(client, card_data(name=name))
    assert "is already in the catalog." in html
    assert Card.objects.get(slug="card-crush", name__iexact="ember fox").stats["power"] == 7


@pytest.mark.django_db(transaction=True)
def test_it_refuses_a_name_already_in_the_catalog_for_htmx(client, catalog):
    html = refused(client, card_data(name="EMBER FOX"), HTTP_HX_REQUEST="true")
    assert "is already in the catalog." in html


@pytest.mark.django_db(transaction=True)
def test_it_refuses_an_accented_name_already_in_the_catalog(client, catalog):
    assert client.post(NEW, card_data(name="Éclair")).status_code == 302
    html = refused(client, card_data(name="éclair"))
    assert "is already in the catalog." in html


def test_it_refuses_a_name_already_in_the_catalog_inside_a_transaction(client, catalog):
    html = refused(client, card_data(name="ember fox"))
    assert "is already in the catalog." in html


def test_new_404s_for_an_unknown_game(client, catalog):
    assert client.post(reverse("card_new", args=["chess"]), card_data()).status_code == 404
    assert not Card.objects.filter(name="Magma Wyrm").exists()


def test_new_makes_a_card_only_by_post(client):
    """GET is the empty form (a match page fetches it): the card's fields in a GET make nothing."""
    assert client.get(NEW, card_data(), HTTP_HX_REQUEST="true").status_code == 200
    assert client.put(NEW).status_code == 405
    assert not Card.objects.filter(name="Magma Wyrm").exists()


# ---------------------------------------------------------------- CSRF and junk


def test_it_refuses_a_card_without_csrf_token(csrf_client, catalog):
    count = Card.objects.count()
    assert_csrf_refused(csrf_client.post(NEW, card_data()))
    assert Card.objects.count() == count


def test_it_accepts_a_card_with_the_pages_csrf_token(csrf_client, catalog):
    token = csrf_token_from(csrf_client, LIST)
    assert csrf_client.post(NEW, {**card_data(), "csrfmiddlewaretoken": token}).status_code == 302
    assert Card.objects.filter(name="Magma Wyrm").exists()


# Junk in one stat, beside a good name, is refused by the card form's own field (a number, a choice) before anything
# reaches the database: the view stores only a valid form. The same on either engine, so CI runs those once, on SQLite
# (tests/conftest.py, engine_agnostic). Junk in every field, the name too, is looked up by name: both engines.
@pytest.mark.parametrize("junk", JUNK, ids=JUNK_IDS)
@pytest.mark.parametrize("shape", ["all-fields", *(pytest.param(stat, marks=pytest.mark.engine_agnostic)
                                                   for stat in ("power", "speed", "level", "affinity", "rarity"))])
def test_no_junk_makes_it_fail(client, catalog, junk, shape):
    data = card_data() if shape != "all-fields" else {key: junk for key in card_data()}
    if shape != "all-fields":
        data[f"new-{shape}"] = junk
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        count = Card.objects.count()
        response = client.post(NEW, data, **headers)
        assert response.status_code == 422
        assert Card.objects.count() == count


@pytest.mark.parametrize("junk", JUNK, ids=JUNK_IDS)
def test_an_odd_card_name_is_refused_or_kept_exactly(client, catalog, junk):
    count = Card.objects.count()
    response = client.post(NEW, card_data(name=junk))
    if response.status_code == 422:
        assert Card.objects.count() == count
        return
    assert response.status_code == 302
    # As the catalog keeps a name: in Unicode's compatibility form (a superscript two is a 2), with single spaces
    # (a line break is one).
    name = " ".join(unicodedata.normalize("NFKC", junk[-1] if isinstance(junk, list) else junk).split())
    assert Card.objects.count() == count + 1
    assert Card.objects.filter(name=name).exists()
    assert "<script>alert(1)</script>" not in text(client.get(LIST)).split("<body", 1)[1]
