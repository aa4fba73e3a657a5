"""Random and malformed form posts to every form and action endpoint of every game.

Field names come from the game itself (its board and entry templates, its config, card and
entry forms) plus the generic ones, so a game added to rules.GAMES is fuzzed with no change
here. Values: text in any script, huge and negative numbers, blanks, repeated fields, fields
left out, a current or an old `seq`. Whatever is sent:
- the answer is never a 500 (the test client re-raises any exception a view lets escape);
- when the answer refuses (4xx), the match's head, state, version and action count, and
  the numbers of matches and cards, are as they were.
"""

import json
import os
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from tracker import demo
from tracker.catalog import csv_files as catalog_csv
from tracker.games import pages_for
from tracker.matches import services
from tracker.matches.views import ENTRY_SALT
from tracker.models import Action, Card, CardChange, Match
from tracker.people import devices

# No example database on disk (.hypothesis/): a failure prints the blob that reproduces it instead.
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", 8)), deadline=None, database=None,
                print_blob=True, derandomize=bool(os.environ.get("CI")),
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

GENERIC_FIELDS = ["seq", "step", "action", "type", "roll", "seat", "kind", "card", "target", "entry_token",
                  "player_0", "player_1", "next", "q", "once"]

VALUES = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="ÄßçŁ中文😀\u202e\x00 -_.,;'\"<>&%", max_size=20),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.sampled_from(["", "0", "1", "-1", "2", "5", "99999999999999999999", "1e9", "NaN", "true", "null",
                     "9" * 5000]),  # more digits than int() reads
)


def game_fields(slug: str, match: Match) -> list[str]:
    """Every field name a page of this game posts: from its templates and its forms."""
    names = set(GENERIC_FIELDS)
    for template in (Path(django_settings.BASE_DIR) / "templates" / "games" / slug).rglob("*.html"):
        names |= set(re.findall(r'name="([\w-]+)"', template.read_text()))
    pages = pages_for(slug)
    names |= {f"config-{name}" for name in pages.config_form().fields}
    names |= {f"new-{name}" for name in pages.card_form().fields}
    names |= set(pages.entry_form(match).fields)
    return sorted(names)


@pytest.fixture
def table(db, settings):
    """A client holding a device cookie and, per game, a match that device owns. Limits off: the fuzzers
    are for the views behind them (past ten imports an hour each example would only meet the 429)."""
    settings.RATELIMIT_ENABLE = False
    demo.load_catalogs()
    client = Client()
    client.post(reverse("healthz"))  # a form sent gives the phone its device cookie (devices.py)
    request = HttpRequest()
    request.COOKIES = {devices.COOKIE: client.cookies[devices.COOKIE].value}
    device = request.get_signed_cookie(devices.COOKIE, salt=devices.COOKIE)
    matches = {slug: services.match_create(slug=slug, player_names=["Ana", "Ben"], config={},
                                           owner_device=device)
               for slug in rules.GAMES}
    return client, matches


def snapshot(match: Match) -> tuple:
    match.refresh_from_db()
    return (match.head, match.state, match.version, Action.objects.filter(match=match).count(),
            Match.objects.count(), Card.objects.count())


@st.composite
def form_posts(draw, fields: list[str], match: Match, legal_types: list[str]) -> dict:
    """A form body: some of the game's fields with odd values, sometimes the real `seq` or action type."""
    body = {}
    for name in draw(st.lists(st.sampled_from(fields), max_size=8, unique=True)):
        values = draw(st.lists(VALUES, min_size=1, max_size=3))
        body[name] = values if len(values) > 1 else values[0]
    if draw(st.booleans()):
        body["seq"] = str(draw(st.sampled_from([match.head, match.head - 1, match.head + 1])))
    if legal_types and draw(st.booleans()):
        body["action"] = body["type"] = draw(st.sampled_from(legal_types))
    return body


def post(client: Client, url: str, body: dict):
    response = client.post(url, body)
    assert response.status_code < 500, f"{url} answered {response.status_code} to {body!r}"
    return response


def check(client: Client, match: Match, url: str, body: dict) -> None:
    before = snapshot(match)
    response = post(client, url, body)
    if response.status_code >= 400:
        assert snapshot(match) == before, f"a refused POST to {url} changed something: {body!r}"


def endpoints(slug: str, match: Match, seat: int) -> dict[str, str]:
    return {
        "match_new": reverse("match_new", args=[slug]),
        "match_act": reverse("match_act", args=[match.pk]),
        "match_entry": reverse("match_entry", args=[match.pk, seat]),
        "match_goto": reverse("match_goto", args=[match.pk]),
        "card_new": reverse("card_new", args=[slug]),
        "invite_new": reverse("invite_new", args=[match.pk]),
    }


@pytest.mark.parametrize("slug", list(rules.GAMES))
@pytest.mark.parametrize("endpoint", ["match_new", "match_act", "match_entry", "match_goto", "card_new",
                                      "invite_new"])
@FUZZ
@given(data=st.data())
def test_form_endpoints_never_500_and_refusals_change_nothing(table, slug, endpoint, data):
    client, matches = table
    match = matches[slug]
    match.refresh_from_db()
    game = rules.GAMES[slug]
    legal_types = sorted({action["type"] for action in game.legal_actions(match.state)})
    body = data.draw(form_posts(game_fields(slug, match), match, legal_types))
    seat = data.draw(st.integers(0, game.seats - 1))
    if endpoint == "match_entry" and data.draw(st.booleans()):
        body["entry_token"] = signing.dumps({"match": match.pk, "seat": seat}, salt=ENTRY_SALT)
    check(client, match, endpoints(slug, match, seat)[endpoint], body)


@FUZZ
@given(rows=st.binary(max_size=2000) | st.text(max_size=500).map(str.encode),
       slug=st.sampled_from(list(rules.GAMES)))
def test_card_import_takes_any_rows(table, rows, slug):
    """The game's real header, then anything: every row problem must be a clear refusal."""
    client, matches = table
    header = ",".join(catalog_csv.columns(slug)).encode() + b"\n"
    upload = SimpleUploadedFile("cards.csv", header + rows, content_type="text/csv")
    check(client, matches[slug], reverse("card_import", args=[slug]), {"file": upload})


@pytest.mark.parametrize("slug", list(rules.GAMES))
@FUZZ
@given(data=st.data())
def test_card_edit_never_500_and_refusals_change_nothing(table, slug, data):
    """Corrections of a card this phone added (so some go through) and of a demo card (always refused)."""
    client, _matches = table
    request = HttpRequest()
    request.COOKIES = {devices.COOKIE: client.cookies[devices.COOKIE].value}
    mine, demo_card = Card.objects.filter(slug=slug).order_by("pk")[:2]
    Card.objects.filter(pk=mine.pk).update(created_device=request.get_signed_cookie(devices.COOKIE, salt=devices.COOKIE))
    card = data.draw(st.sampled_from([mine, demo_card]))
    fields = [f"card-{name}" for name in pages_for(slug).card_form().fields]
    body = {name: data.draw(VALUES) for name in data.draw(st.lists(st.sampled_from(fields), unique=True))}
    before = (Card.objects.filter(pk=card.pk).values_list("name", "stats").get(), CardChange.objects.count())
    response = post(client, reverse("card_edit", args=[slug, card.pk]), body)
    if response.status_code >= 400:
        assert (Card.objects.filter(pk=card.pk).values_list("name", "stats").get(), CardChange.objects.count()) == before
    if card == demo_card:
        assert response.status_code >= 400


# Found by fuzzing (fixed since): a header line the csv module cannot parse was a 500.
def test_card_import_refuses_a_header_that_is_not_csv(table):
    client, matches = table
    upload = SimpleUploadedFile("cards.csv", b"\r\x00", content_type="text/csv")
    response = client.post(reverse("card_import", args=["card-crush"]), {"file": upload})
    assert response.status_code == 422


JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                       lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                       max_leaves=20)


@FUZZ
@given(content=st.binary(max_size=1000) | JSONISH.map(lambda value: json.dumps(value).encode()),
       slug=st.sampled_from(list(rules.GAMES)))
def test_match_import_takes_any_file(table, content, slug):
    client, matches = table
    upload = SimpleUploadedFile("match.json", content, content_type="application/json")
    check(client, matches[slug], reverse("match_import"), {"file": upload})


@FUZZ
@given(token=st.text(max_size=60), method=st.sampled_from(["get", "post"]),
       slug=st.sampled_from(list(rules.GAMES)))
def test_join_takes_any_token(table, token, method, slug):
    client, matches = table
    url = reverse("join", args=["x"]).replace("/x/", "/" + quote(token, safe="") + "/") if token else "/join//"
    before = snapshot(matches[slug])
    response = getattr(client, method)(url)
    assert response.status_code < 500
    if response.status_code >= 400:
        assert snapshot(matches[slug]) == before
