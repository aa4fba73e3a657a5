"""A form's `next` (tracker/web/next_page.py): every view that follows one goes only to a path on this
site, and a `next` that is not one (a word Django would take for a URL name, a NUL, another host) sends
the player to the view's own page after the change was made, once."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils.http import urlencode

from tracker.models import Card
from tracker.web import next_page

from .helpers import PASSWORD

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

NOT_OURS = ["x", "-1", "NaN", "1e9", "\uff11", "home", "match_list", "a\x00b", "//evil.example", "/\\evil.example",
            "https://evil.example/", "javascript:alert(1)", "/" + "x" * 3000,
            # What no header can carry (no page of ours has it in its address): a CR and LF (a 500 once, from the
            # language switch), a NUL, a vertical tab (the server dropped the connection), DEL, a C1 control.
            "/\r\nSet-Cookie: x=1", "/\nx", "/\x00", "/x\x0b", "/x\x7f", "/x\x85"]


def change_theme(client: Client, target: str):
    return client.post(reverse("set_theme"), {"theme": "dark", "next": target}), "/"


def change_language(client: Client, target: str):
    return client.post(reverse("set_language"), {"language": "de", "next": target}), "/"


def sign_in(client: Client, target: str):
    get_user_model().objects.create_user("ana", password=PASSWORD)
    return client.post(reverse("sign_in") + "?" + urlencode({"next": target}), {"username": "ana", "password": PASSWORD}), "/"


def sign_up(client: Client, target: str):
    data = {"username": "zoe", "password1": PASSWORD, "password2": PASSWORD, "player_name": "Zoe", "next": target}
    return client.post(reverse("sign_up"), data), "/"


def add_card(client: Client, target: str):
    card = {"name": "Magma Wyrm", "power": "8", "speed": "4", "affinity": "Fire", "rarity": "Epic", "level": "1"}
    data = {**{f"new-{key}": value for key, value in card.items()}, "next": target}
    return client.post(reverse("card_new", args=["card-crush"]), data), reverse("card_list", args=["card-crush"])


def made(client: Client, response) -> dict[str, object]:
    """What each form changes, counted."""
    return {
        "theme": response.cookies["tk_theme"].value if "tk_theme" in response.cookies else None,
        "language": response.cookies[settings.LANGUAGE_COOKIE_NAME].value
        if settings.LANGUAGE_COOKIE_NAME in response.cookies else None,
        "signed in": "_auth_user_id" in client.session,
        "accounts": get_user_model().objects.filter(username="zoe").count(),
        "cards": Card.objects.filter(name="Magma Wyrm").count(),
    }


FORMS = {change_theme: {"theme": "dark"}, change_language: {"language": "de"}, sign_in: {"signed in": True},
         sign_up: {"accounts": 1, "signed in": True}, add_card: {"cards": 1}}


@pytest.mark.parametrize("target", NOT_OURS)
@pytest.mark.parametrize("form", FORMS, ids=lambda form: form.__name__)
def test_a_next_that_is_not_a_page_of_ours_goes_to_the_forms_own_page_after_the_change(form, target):
    client = Client()
    response, own_page = form(client, target)
    assert response.status_code == 302
    assert response.url == own_page
    nothing = {"theme": None, "language": None, "signed in": False, "accounts": 0, "cards": 0}
    assert made(client, response) == {**nothing, **FORMS[form]}


@pytest.mark.parametrize("form", FORMS, ids=lambda form: form.__name__)
def test_a_next_on_this_site_is_followed(form):
    client = Client()
    response, _own_page = form(client, "/stats/?game=evons")
    assert response.status_code == 302
    assert response.url == "/stats/?game=evons"


@pytest.mark.parametrize("form", FORMS, ids=lambda form: form.__name__)
def test_a_next_with_letters_beyond_ascii_is_followed_as_a_uri(form):
    """A header carries ASCII alone: "/日" written into Location came out MIME-encoded ("=?utf-8?b?...?="), a
    redirect to nowhere."""
    client = Client()
    response, _own_page = form(client, "/stats/日?game=évons")
    assert response.status_code == 302
    assert response["Location"] == "/stats/%E6%97%A5?game=%C3%A9vons"


@pytest.mark.parametrize("target", NOT_OURS)
def test_a_form_drawn_with_a_next_that_is_not_ours_carries_none(target):
    """The sign-in page and the card form fetched by a match page put `next` into the form they draw."""
    sign_in_page = Client().get(reverse("sign_in"), {"next": target}).content.decode()
    assert '<input type="hidden" name="next" value="/">' in sign_in_page
    card_form = Client().get(reverse("card_new", args=["card-crush"]), {"next": target}, HTTP_HX_REQUEST="true")
    assert 'name="next"' not in card_form.content.decode()


def test_only_a_path_on_this_site_is_local(rf):
    request = rf.get("/")
    assert next_page.local_path("/matches/7/?step=3", request) == "/matches/7/?step=3"
    assert [next_page.local_path(target, request) for target in NOT_OURS] == [""] * len(NOT_OURS)
    assert next_page.local_path("/日?q=a b", request) == "/%E6%97%A5?q=a%20b"
    assert next_page.local_path("/%E6%97%A5", request) == "/%E6%97%A5"  # a URI already: as it is
