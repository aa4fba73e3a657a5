"""Limits on costly requests (tracker/web/limits.py): every costly route found from the URL resolver is
limited per phone, per account and per address, answers 429 with when to try again, and imports stop
at a stored-bytes quota. The sign-in limits are tested with the accounts (test_accounts.py)."""

import html
import json
import re
from datetime import UTC, timedelta

import pytest
from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client, RequestFactory
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tracker.models import Card, Match
from tracker.web import limits

from .helpers import PASSWORD, battle_won, device_of
from .helpers import page_text as text
from .test_exchange import as_file, play_script, rename

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

COSTLY_ROUTES = {
    "match_import": "match-import", "card_new": "card-new", "card_import": "card-csv",
    "cardmaster_hint": "hint", "cardmaster_analysis": "analysis", "cardmaster_ai_turn": "ai-turn",
    "sign_up": "sign-up", "match_export_json": "export", "match_export_text": "export",
    "club_new": "club-new", "club_claim": "name-claim", "match_new": "match-new",
    "tournament_list": "tournament-new", "tournament_pair": "round-pair",
    "sign_in": "password-check", "password_change": "password-check",
    "stats": "stats", "stats_player": "stats",
    "leaderboard": "ratings", "player_rating": "ratings", "battle_rating": "ratings", "tournament_detail": "ratings",
}
"""Issue 24's costly requests (imports, new matches, card creation, CSV uploads, hints, analysis parts, sign-ups),
the AI's move and the exports (a 7,000-step match re-run for its file), by route name."""
SIGNED_IN = {"club_new", "password_change"}
"""Routes a signed-out phone is sent from to sign in first."""
ARGS = {"slug": "card-crush", "pk": 10**9, "club_id": 10**9}


def routes(resolver: URLResolver | None = None):
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern)
        elif isinstance(pattern, URLPattern):
            yield pattern


def limited_routes() -> dict[str, str]:
    return {pattern.name: pattern.callback.costly for pattern in routes() if hasattr(pattern.callback, "costly")}


def url_of(name: str) -> str:
    pattern = next(pattern for pattern in routes() if pattern.name == name)
    return reverse(name, kwargs={key: ARGS[key] for key in pattern.pattern.converters})


def ask(client: Client, name: str, **extra):
    method = limits.COSTLY[COSTLY_ROUTES[name]].methods[0]
    return (client.post if method == "POST" else client.get)(url_of(name), **extra)


def test_the_costly_routes_are_exactly_the_limited_ones_and_every_limit_is_used():
    assert limited_routes() == COSTLY_ROUTES
    assert set(COSTLY_ROUTES.values()) == set(limits.COSTLY)


@pytest.fixture
def one_an_hour(monkeypatch):
    """Every costly kind allowed once an hour per phone and account, twice per address."""
    for kind, limit in list(limits.COSTLY.items()):
        monkeypatch.setitem(limits.COSTLY, kind, limits.Limit(limit.what, 1, limit.methods, address_share=2))


@pytest.fixture
def every_request_counts(monkeypatch):
    """Every request that reaches a costly view counts, as if it did the work (empty forms will do)."""
    monkeypatch.setattr(limits, "did_work", lambda request, response: True)


def spend_the_hour(phone: Client, name: str) -> None:
    """Count as much work for this phone as the route allows it an hour (one_an_hour: once)."""
    request = RequestFactory().post("/")
    request.device, request.user = device_of(phone), AnonymousUser()
    limits.count_costly(request, COSTLY_ROUTES[name])


@pytest.mark.parametrize("name", sorted(COSTLY_ROUTES))
def test_each_costly_route_refuses_a_phone_beyond_its_limit_with_when_to_try_again(one_an_hour, name):
    phone = Client()
    if name in SIGNED_IN:  # a signed-out phone is sent to sign in first
        phone.force_login(get_user_model().objects.create_user("ana", password="pw"))
    spend_the_hour(phone, name)
    refused = ask(phone, name)
    assert refused.status_code == 429
    assert "from this phone in the last hour." in text(refused)
    assert "Try again in" in text(refused)
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert ask(Client(REMOTE_ADDR="203.0.113.5"), name).status_code != 429  # another phone elsewhere is not


@pytest.mark.parametrize("name", ["card_new", "match_import"])
def test_an_account_is_limited_across_its_phones(one_an_hour, every_request_counts, name):
    user = get_user_model().objects.create_user("ana", password="pw")
    phones = [Client(REMOTE_ADDR=f"203.0.113.{number}") for number in (1, 2)]
    for phone in phones:
        phone.force_login(user)
    assert ask(phones[0], name).status_code != 429
    refused = ask(phones[1], name)
    assert refused.status_code == 429
    assert "from this account in the last hour." in text(refused)


def test_an_address_is_limited_more_generously_than_a_phone(one_an_hour, every_request_counts):
    """A phone that clears its cookie is a new phone on the same network: the network's share stops it."""
    assert [ask(Client(), "match_import").status_code != 429 for _ in range(2)] == [True, True]
    refused = ask(Client(), "match_import")
    assert refused.status_code == 429
    assert "from this network in the last hour." in text(refused)


def test_a_limited_page_comes_back_whole_to_htmx(one_an_hour, every_request_counts):
    phone = Client()
    ask(phone, "card_new", headers={"HX-Request": "true"})
    refused = ask(phone, "card_new", headers={"HX-Request": "true"})
    assert refused.status_code == 429
    assert (refused["HX-Retarget"], refused["HX-Reswap"]) == ("body", "innerHTML")


def test_a_get_of_a_post_only_limit_is_not_counted(one_an_hour, every_request_counts):
    phone = Client()
    for _ in range(3):
        assert phone.get(url_of("match_import")).status_code == 200
    assert ask(phone, "match_import").status_code != 429


@pytest.mark.parametrize("name", sorted(set(COSTLY_ROUTES) - {"stats"}))  # a page with nothing to refuse: all work
def test_a_request_refused_before_any_work_counts_nowhere(one_an_hour, name):
    """Empty forms, unknown matches: answered as cheaply as a page, so the phone's one an hour stays unused."""
    phone = Client()
    assert all(ask(phone, name).status_code != 429 for _ in range(4))


def test_one_phone_sending_empty_forms_without_its_cookie_locks_nobody_out(match_file):
    """From one address, a fresh cookie each time: past every phone's and the network's share of sign-ups and
    imports, and a real new phone there still signs up and imports."""
    for _ in range(limits.COSTLY["sign-up"].per_hour * limits.COSTLY["sign-up"].address_share + 5):
        assert Client().post(reverse("sign_up"), {}).status_code == 422
    for _ in range(limits.COSTLY["match-import"].per_hour * limits.COSTLY["match-import"].address_share + 5):
        assert Client().post(reverse("match_import"), {}).status_code == 422
    phone = Client()
    made = phone.post(reverse("sign_up"), {"username": "ana", "password1": PASSWORD, "password2": PASSWORD,
                                           "player_name": "Ana"})
    assert made.status_code == 302
    assert upload(phone, match_file).status_code == 302


def test_what_did_the_work_counts_even_when_refused_after_it(one_an_hour, match_file):
    """An account made, or a file read and re-run that then fails its check, uses up the hour."""
    phone = Client()
    assert phone.post(reverse("sign_up"), {"username": "ana", "password1": PASSWORD, "password2": PASSWORD,
                                           "player_name": "Ana"}).status_code == 302
    assert phone.post(reverse("sign_up"), {}).status_code == 429
    other = Client(REMOTE_ADDR="203.0.113.9")
    broken = other.post(reverse("match_import"), {"file": SimpleUploadedFile("m.json", b'{"format": "tablekeeper')})
    assert broken.status_code == 422
    assert "Too many match imports from this phone" in text(upload(other, match_file))


def test_a_club_s_rating_pages_are_counted_and_a_flood_of_them_is_refused(monkeypatch, catalog, club, member):
    """A leaderboard, a rating history and a battle's working each replay every counted battle of the club: browsing
    them counts against the hour, far below it (a page a minute all evening); a flood is refused as a statistics
    page is, and a phone elsewhere still reads them. (Four an hour here: the counts are kept per rate.)"""
    assert limits.COSTLY["ratings"].per_hour >= 4 * 60 and limits.COSTLY["ratings"].methods == ("GET",)
    monkeypatch.setitem(limits.COSTLY, "ratings", limits.Limit(limits.COSTLY["ratings"].what, 4, ("GET",)))
    battle = battle_won("Ana", "Ben", club=club)
    pages = [reverse("leaderboard", args=[club.pk]), reverse("battle_rating", args=[battle.pk]),
             reverse("player_rating", args=[club.pk, battle.winner_id])]
    assert [member.get(url).status_code for url in pages] == [200, 200, 200]
    assert member.get(reverse("leaderboard", args=[10**9])).status_code == 404, "refused before any work: not counted"
    assert member.get(pages[0]).status_code == 200, "the fourth page of the hour"
    refused = member.get(pages[1])
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 3600
    assert re.search(r"Too many rating and standings pages from this (phone|account) in the last hour\.", text(refused))
    club.public_leaderboard = True
    club.save(update_fields=["public_leaderboard"])
    assert Client(REMOTE_ADDR="203.0.113.7").get(pages[0]).status_code == 200, "a phone elsewhere reads it still"


def test_a_request_that_failed_after_the_work_counts(one_an_hour, match_file, monkeypatch):
    """A whole match file re-run, then a bug (an odd value its last row could not hold): a 500 each time, and it
    counted nowhere, so one phone re-ran the costliest request as often as it liked."""
    from tracker.review import exchange

    def failed_at_the_end(*args, **kwargs):
        raise RuntimeError("the last row could not be stored")

    monkeypatch.setattr(exchange, "import_match", failed_at_the_end)
    phone = Client(raise_request_exception=False)
    assert upload(phone, match_file).status_code == 500
    assert upload(phone, match_file).status_code == 429


def test_the_wait_is_said_in_seconds_then_minutes():
    assert limits.wait_text(1) == "Try again in 1 second."
    assert limits.wait_text(119) == "Try again in 119 seconds."
    assert limits.wait_text(121) == "Try again in 3 minutes."


# ---------------------------------------------------------------- what was typed survives the 429


def resend_form(page: str) -> dict:
    """The 429 page's form to send the refused POST again: where it posts, its fields and file inputs."""
    from html.parser import HTMLParser

    form: dict = {}

    class Forms(HTMLParser):
        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if tag == "form" and attrs.get("method") == "post":
                form.update(action=attrs["action"], enctype=attrs.get("enctype"), fields=[], files=[])
            elif tag == "input" and form and attrs.get("type") == "file":
                form["files"].append(attrs["name"])
            elif tag == "input" and form:
                form["fields"].append((attrs["name"], attrs.get("value", "")))

    Forms().feed(page)
    return form


TYPED = {"typed": "Kept Wyrm", "twice": ["first", "second"], "once": "A" * 16, "next": "/matches/",
         "password1": "secret pass 42"}


def typed_field(name: str) -> tuple[str, str] | None:
    """A text field the player sees in the forms route `name` declares to its limit (limits.costly's `labels`):
    (the name it posts as, its label); None for a route whose form has none (a file, hidden fields)."""
    pattern = next(pattern for pattern in routes() if pattern.name == name)
    if pattern.callback.labels is None:
        return None
    request = RequestFactory().get("/")
    request.device, request.user, request.session = "", AnonymousUser(), {}
    kwargs = {key: ARGS[key] for key in pattern.pattern.converters}
    fields = [field for form in pattern.callback.labels(request, **kwargs) for field in form]
    return next((field.html_name, str(field.label)) for field in fields if not field.is_hidden
                and isinstance(field.field, forms.CharField) and "password" not in field.html_name)


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize("name", sorted(name for name, kind in COSTLY_ROUTES.items()
                                        if limits.COSTLY[kind].methods == ("POST",)))
def test_a_refused_post_comes_back_in_a_form_to_send_again(one_an_hour, name, htmx):
    """Every costly form route: the 429 page carries every field back (a password never), lists what was
    typed in the form's fields, each value with its field's label, and asks for a file again; its form posts
    where the refused one did."""
    phone = Client(headers={"HX-Request": "true"} if htmx else {})
    if name in SIGNED_IN:  # a signed-out phone is sent to sign in first
        phone.force_login(get_user_model().objects.create_user("ana", password="pw"))
    ask(phone, name)  # the phone's first request gives it its device
    spend_the_hour(phone, name)
    named = typed_field(name)
    data = {**TYPED, **({named[0]: "Named Wyrm"} if named else {}),
            "upload": SimpleUploadedFile("cards.csv", b"name\n")}
    refused = ask(phone, name, data=data)
    assert refused.status_code == 429
    form = resend_form(text(refused))
    assert form["action"] == url_of(name) and form["enctype"] == "multipart/form-data"
    assert [field for field in form["fields"] if field[0] != "csrfmiddlewaretoken"] == [
        ("typed", "Kept Wyrm"), ("twice", "first"), ("twice", "second"), ("once", "A" * 16), ("next", "/matches/"),
        *([(named[0], "Named Wyrm")] if named else [])]
    assert [field[0] for field in form["fields"]].count("csrfmiddlewaretoken") == 1  # the page's own, fresh
    assert form["files"] == ["upload"]
    page = text(refused)
    listed = [" ".join(item.split()) for item in re.findall(r"<li>(.*?)</li>", page, re.S)]
    assert listed == ([f"<strong>{html.escape(named[1], quote=True)}:</strong> Named Wyrm"] if named else [])
    assert "secret pass 42" not in page and "the form asks for it again" in page


def test_a_refused_new_match_lists_each_value_with_its_label_and_a_choice_in_its_words(one_an_hour):
    """What the 429 page lists is what the new-match form showed: each value after its field's label, a choice
    as it was offered (not its code), a ticked box as "yes"; hidden fields and unknown ones are carried, unlisted."""
    phone = Client()
    ask(phone, "match_new")
    spend_the_hour(phone, "match_new")
    refused = phone.post(reverse("match_new", args=["lonely-star"]), {
        "player_0": "Ana", "player_1": "Ben", "config-who_rolls": "players", "config-deck": "40",
        "config-lethal_to": "removed", "config-stat_floor": "none", "seq": "3", "made_up": "Nobody's"})
    assert refused.status_code == 429
    listed = [" ".join(item.split()) for item in re.findall(r"<li>(.*?)</li>", text(refused), re.S)]
    assert listed == ["<strong>Player 1:</strong> Ana", "<strong>Player 2:</strong> Ben",
                      "<strong>Who rolls the dice, unless changed for a roll:</strong> Players roll real dice and tap them in",
                      "<strong>Cards in each deck after the opening hand:</strong> 40",
                      "<strong>Where a unit goes after lethal damage:</strong> Removed from the game",
                      "<strong>Can a total stat fall below 0?</strong> Yes"]  # no colon after its question mark
    page = text(refused)  # the button before the list: after eleven settings it was below a phone's fold
    assert page.index("Send again</button>") < page.index("<li><strong>Player 1:")
    german = Client(headers={"Accept-Language": "de"})
    ask(german, "match_new")
    spend_the_hour(german, "match_new")
    refused = german.post(reverse("match_new", args=["lonely-star"]), {"player_0": "Ana", "config-lethal_to": "removed"})
    listed = [" ".join(item.split()) for item in re.findall(r"<li>(.*?)</li>", text(refused), re.S)]
    assert len(listed) == 2 and all(re.fullmatch(r"<strong>[^<]+:</strong> \S.*", item) for item in listed), listed
    assert "Removed from the game" not in listed[1] and "Player 1" not in listed[0]


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_card_refused_by_the_limit_is_made_as_typed_once_sent_again(one_an_hour, catalog, htmx):
    card = {"new-name": "Kept Wyrm", "new-power": "8", "new-speed": "4", "new-affinity": "Fire",
            "new-rarity": "Epic", "new-level": "1", "next": "/matches/"}
    phone = Client(headers={"HX-Request": "true"} if htmx else {})
    assert ask(phone, "card_new", data={**card, "new-name": "First Wyrm"}).status_code in (200, 302)
    refused = ask(phone, "card_new", data=card)
    assert refused.status_code == 429 and not Card.objects.filter(name="Kept Wyrm").exists()
    form = resend_form(text(refused))
    cache.clear()  # the hour is over
    sent = Client().post(form["action"], dict(form["fields"]))  # the form is a plain one, htmx or not
    assert sent.status_code == 302 and sent.url == "/matches/"
    assert Card.objects.get(name="Kept Wyrm").stats == {"power": 8, "speed": 4, "affinity": "Fire",
                                                          "rarity": "Epic", "level": 1}


def test_a_card_added_from_the_entry_page_counts_as_a_new_card(one_an_hour, owner, battle):
    """The entry page adds a card the catalog lacks, as the catalog's own form does (round 35: it went round the
    new-card limit, so one phone with one match added cards to the shared catalog without end). Refused like the
    catalog's form, with the deck typed so far and the card sent again once the wait is over."""
    url = reverse("match_entry", args=[battle.pk, 0])
    card = {"new-power": "8", "new-speed": "4", "new-affinity": "Fire", "new-rarity": "Epic", "new-level": "1",
            "add_card": "1", "card_1": "Typed Before"}
    assert owner.post(url, {**card, "new-name": "First Wyrm"}).status_code == 200
    refused = owner.post(url, {**card, "new-name": "Second Wyrm"})
    assert refused.status_code == 429 and not Card.objects.filter(name="Second Wyrm").exists()
    assert "no-store" in refused["Cache-Control"]  # it carries the deck typed so far, as the entry page does
    assert dict(resend_form(text(refused))["fields"])["card_1"] == "Typed Before"
    refused = ask(owner, "card_new", data={**card, "new-name": "Third Wyrm", "next": "/matches/"})
    assert refused.status_code == 429, "the catalog's form counts the entry page's card"


def test_a_get_refused_by_the_limit_has_nothing_to_send_again(one_an_hour, owner, battle):
    url = reverse("match_export_json", args=[battle.pk])
    owner.get(url)
    refused = owner.get(url)
    assert refused.status_code == 429 and resend_form(text(refused)) == {}


# ---------------------------------------------------------------- stored bytes


def upload(client: Client, data: dict):
    raw = json.dumps(data).encode()
    return client.post(reverse("match_import"), {"file": SimpleUploadedFile("m.json", raw)})


@pytest.fixture
def match_file(catalog) -> dict:
    return rename(as_file(play_script("card-crush", "rulebook")), "Zed", "Yara")


def test_an_import_is_refused_once_the_phones_matches_take_their_quota(match_file, monkeypatch):
    phone = Client()
    assert upload(phone, match_file).status_code == 302
    held = limits.held_bytes(Match.objects.filter(owner_device=Match.objects.latest("pk").owner_device))
    assert held > len(json.dumps(match_file["actions"])) // 2  # what was stored, measured in the database
    monkeypatch.setattr(limits, "HELD_BYTES", held + 100)
    before = Match.objects.count()
    refused = upload(phone, match_file)
    assert refused.status_code == 422
    assert "There is no room for it: this phone's matches already take" in text(refused)
    assert Match.objects.count() == before
    assert upload(Client(REMOTE_ADDR="203.0.113.8"), match_file).status_code == 302  # another phone has room


def test_an_address_imports_at_most_its_bytes_a_day(match_file, monkeypatch):
    monkeypatch.setattr(limits, "IMPORTED_BYTES_A_DAY", len(json.dumps(match_file)) * 2 + 10)
    assert [upload(Client(), match_file).status_code for _ in range(2)] == [302, 302]
    refused = upload(Client(), match_file)
    assert refused.status_code == 422
    assert "This network has imported" in text(refused)


# ---------------------------------------------------------------- the counting cache


def test_counting_keeps_the_windows_expiry_and_adds_up():
    cache.add("count", 0, 3600)
    assert [cache.incr("count") for _ in range(3)] == [1, 2, 3]
    with connection.cursor() as cursor:
        cursor.execute("SELECT expires FROM tracker_cache")
        (expires,) = cursor.fetchone()
    expires = parse_datetime(str(expires))  # SQLite's cursor gives text, PostgreSQL's a datetime
    if timezone.is_naive(expires):
        expires = timezone.make_aware(expires, UTC)
    assert expires > timezone.now() + timedelta(minutes=55)  # Django's own incr would have set 5 minutes
    with pytest.raises(ValueError):
        cache.incr("never-added")
