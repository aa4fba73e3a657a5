"""Hardening: the Content Security Policy and pages that need no inline script or style,
names with HTML in them shown as text everywhere, oversized names, CSRF, and `check --deploy`."""

import json
import os
import re
import secrets
import string
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tracker.matches import services
from tracker.models import Access, Card, Invite, Match, Player

from .helpers import (
    PASSWORD,
    assert_csrf_refused,
    deck,
    device_of,
    join_url,
    make_card,
    make_invite,
    play_out,
    start_battle,
)
from .helpers import text as raw_text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ROOT = Path(__file__).resolve().parents[2]
SCRIPT_NAME = "<script>alert(1)</script>"
ATTR_NAME = '"><img src=x onerror=alert(1)>'
CARD_SCRIPT = "<script>alert('card')</script>"
CARD_ATTR = "'><svg onload=alert(2)>"
RAW_PAYLOADS = ["<script>alert(", "<img src=x", "<svg onload", "onerror=alert(1)>"]


# ---------------------------------------------------------------- the pages under test


@pytest.fixture
def main_pages(owner, battle) -> dict[str, str]:
    """The main pages' URLs, as the owner sees them (match page with the share panel and QR codes)."""
    make_invite(owner, battle, "seat", 1)
    watch = make_invite(owner, battle, "watch")
    finished = play_out(_locked(battle))
    return {
        "home": reverse("home"),
        "match detail": finished.get_absolute_url(),
        "log": reverse("match_log", args=[finished.pk]),
        "replay": reverse("match_replay", args=[finished.pk]) + "?step=3",
        "stats": reverse("stats"),
        "stats player": reverse("stats_player", args=[Player.objects.get(name="Ana").pk]),
        "cards": reverse("card_list", args=["card-crush"]),
        "card games": reverse("card_games"),
        "match list": reverse("match_list"),
        "new match": reverse("match_new", args=["card-crush"]),
        "join": join_url(watch),  # opened by another phone (the owner's is sent to the match)
        "sign in": reverse("sign_in"),
        "sign up": reverse("sign_up"),
        "password change": reverse("password_change"),
        "not found": "/no/such/page/",
    }


def _locked(match: Match) -> Match:
    from .helpers import ANA_DECK, BEN_DECK, lock_both

    return lock_both(match, ANA_DECK, BEN_DECK)


def get_page(owner: Client, name: str, url: str):
    return (Client() if name == "join" else owner).get(url)


def csp_of(response) -> dict[str, list[str]]:
    header = response.get("Content-Security-Policy", "")
    directives = {}
    for part in filter(None, (p.strip() for p in header.split(";"))):
        name, *values = part.split()
        directives[name] = values
    return directives


# ---------------------------------------------------------------- Content Security Policy


def governing(csp: dict, directive: str) -> list[str]:
    """The sources a fetch directive allows, as a browser reads the policy: its own, else default-src's."""
    return csp.get(directive) or csp.get("default-src", [])


def test_every_main_page_sends_a_strict_content_security_policy(owner, main_pages):
    for name, url in main_pages.items():
        response = get_page(owner, name, url)
        assert response.status_code in (200, 404), (name, response.status_code)
        csp = csp_of(response)
        assert csp, f"no Content-Security-Policy on {name}"
        assert governing(csp, "script-src") == ["'self'"], name
        assert governing(csp, "style-src") == ["'self'"], name
        assert csp["default-src"] == ["'self'"], name
        assert csp["object-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"], name
        header = response["Content-Security-Policy"]
        for unsafe in ("'unsafe-inline'", "'unsafe-eval'", "data:", "*"):
            assert unsafe not in header.split(), (name, unsafe)


def test_refusals_and_the_poll_carry_the_policy_too(owner, battle):
    outsider = Client()
    for response in (outsider.get(battle.get_absolute_url()),
                     Client(enforce_csrf_checks=True).post(reverse("sign_in"), {})):
        assert governing(csp_of(response), "script-src") == ["'self'"]


def test_pages_may_not_be_framed_or_sniffed(owner, main_pages):
    response = owner.get(main_pages["match detail"])
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
STYLE_ATTR = re.compile(r"\sstyle\s*=", re.IGNORECASE)
STYLE_ELEMENT = re.compile(r"<style\b", re.IGNORECASE)
HANDLER_ATTR = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
JS_URL = re.compile(r"""(?:href|src|action)\s*=\s*["']?\s*javascript:""", re.IGNORECASE)


def test_main_pages_need_no_inline_script_or_style(owner, main_pages):
    for name, url in main_pages.items():
        html = raw_text(get_page(owner, name, url))
        assert not INLINE_SCRIPT.search(html), f"inline <script> on {name}: {INLINE_SCRIPT.search(html)}"
        assert not STYLE_ATTR.search(html), f"style= attribute on {name}"
        assert not STYLE_ELEMENT.search(html), f"<style> element on {name}"
        assert not HANDLER_ATTR.search(html), f"inline event handler on {name}"
        assert not JS_URL.search(html), f"javascript: URL on {name}"


def test_the_owners_match_page_really_has_the_share_panel_and_a_chart_is_really_on_the_log(owner, main_pages):
    """The checks above looked at the pieces that could bring inline style: QR codes and charts."""
    assert 'class="qr"' in raw_text(owner.get(main_pages["match detail"]))
    assert 'class="chart"' in raw_text(owner.get(main_pages["log"]))


def test_htmx_is_told_not_to_inject_its_indicator_style(owner):
    html = raw_text(owner.get("/"))
    config = json.loads(re.search(r"""<meta name="htmx-config" content='([^']*)'>""", html).group(1))
    assert config["includeIndicatorStyles"] is False and config["allowEval"] is False


# ---------------------------------------------------------------- names with HTML are text


@pytest.fixture
def hostile(catalog) -> dict:
    """Two finished battles between players named with HTML, one card named with script.

    Made by a phone through the pages where they are typed (new match, catalog), so every
    page that shows them can be read by that phone.
    """
    phone = Client()
    response = phone.post(reverse("card_new", args=["card-crush"]), {
        "new-name": CARD_SCRIPT, "new-power": 9, "new-speed": 9, "new-affinity": "Fire", "new-rarity": "Common",
        "new-level": 1})
    assert response.status_code == 302, raw_text(response)
    make_card(CARD_ATTR, 1, 1, "Water")
    seat0 = [CARD_SCRIPT, "Storm Caller", "Stone Golem", "Phoenix", "Gale Sprite"]
    seat1 = [CARD_ATTR, "Frost Wisp", "Sky Lancer", "Void Lord", "Thorn Sprout"]
    matches = []
    for _ in range(2):
        match = start_battle(phone, SCRIPT_NAME, ATTR_NAME)
        for seat, names in enumerate((seat0, seat1)):
            match.refresh_from_db()
            services.match_apply_action(match_id=match.pk, expected_seq=match.head,
                                        action={"type": "lock_deck", "seat": seat, "cards": deck(names)})
        matches.append(play_out(match))
    live = start_battle(phone, SCRIPT_NAME, ATTR_NAME)
    invite = make_invite(phone, live, "seat", 1)
    # The finished battles count in a club the phone's account organises, so the ratings pages show them too.
    from django.contrib.auth import get_user_model

    from tracker.models import Club, Membership

    club = Club.objects.create(name=SCRIPT_NAME)
    user = get_user_model().objects.create_user("hostile")
    Membership.objects.create(club=club, user=user, role=Membership.ORGANISER)
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(club=club)
    phone.force_login(user)
    return {"phone": phone, "matches": matches, "live": live, "invite": invite, "club": club,
            "players": [Player.objects.get(name=SCRIPT_NAME), Player.objects.get(name=ATTR_NAME)]}


def assert_shown_as_text(html: str, where: str) -> None:
    for payload in RAW_PAYLOADS:
        assert payload not in html, f"{payload!r} reached {where} unescaped"


def hostile_urls(hostile) -> dict[str, str]:
    match, live = hostile["matches"][0], hostile["live"]
    urls = {
        "home": reverse("home"),
        "match list": reverse("match_list"),
        "match detail": match.get_absolute_url(),
        "live match detail": live.get_absolute_url(),
        "pass screen": reverse("match_pass", args=[live.pk, 0]),
        "entry page": reverse("match_entry", args=[live.pk, 0]),
        "log": reverse("match_log", args=[match.pk]),
        "stats": reverse("stats") + "?game=card-crush",
        "cards": reverse("card_list", args=["card-crush"]),
        "cards search": reverse("card_list", args=["card-crush"]) + "?q=alert",
        "new match": reverse("match_new", args=["card-crush"]) + "?player_0=" + SCRIPT_NAME,
        "join": join_url(hostile["invite"]),
        "leaderboard": reverse("leaderboard", args=[hostile["club"].pk]),
        "club": reverse("club_detail", args=[hostile["club"].pk]),
        "clubs": reverse("club_list"),
        "battle rating": reverse("battle_rating", args=[match.pk]),
    }
    for step in range(match.head + 1):
        urls[f"replay step {step}"] = reverse("match_replay", args=[match.pk]) + f"?step={step}"
    for player in hostile["players"]:
        urls[f"stats of {player.pk}"] = reverse("stats_player", args=[player.pk])
        urls[f"rating of {player.pk}"] = reverse("player_rating", args=[hostile["club"].pk, player.pk])
    return urls


def test_names_with_html_are_escaped_on_every_page(hostile):
    phone = hostile["phone"]
    for where, url in hostile_urls(hostile).items():
        response = (Client() if where == "join" else phone).get(url)
        assert response.status_code == 200, (where, response.status_code)
        html = raw_text(response)
        assert_shown_as_text(html, where)


def test_names_with_html_are_shown_readably_not_dropped(hostile):
    phone = hostile["phone"]
    html = raw_text(phone.get(hostile["matches"][0].get_absolute_url()))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in html
    assert "&lt;script&gt;alert(&#x27;card&#x27;)&lt;/script&gt;" in html  # the card, revealed in round 1


def test_names_with_html_are_escaped_in_the_live_refresh_and_refusals(hostile):
    phone, live = hostile["phone"], hostile["live"]
    assert_shown_as_text(raw_text(phone.get(live.get_absolute_url(), HTTP_HX_REQUEST="true")), "the live refresh")
    refused = phone.post(reverse("match_act", args=[live.pk]), {"seq": 0, "action": "play_round"})
    assert refused.status_code == 422
    assert_shown_as_text(raw_text(refused), "a refusal")


def test_names_with_html_are_escaped_in_the_charts(hostile):
    phone = hostile["phone"]
    for url in (reverse("match_log", args=[hostile["matches"][0].pk]),
                reverse("stats_player", args=[hostile["players"][0].pk])):
        html = raw_text(phone.get(url))
        charts = re.findall(r'<svg class="chart".*?</svg>', html, re.DOTALL)
        assert charts, f"no chart on {url}"
        for svg in charts:
            assert_shown_as_text(svg, f"the chart on {url}")
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg or "&quot;&gt;&lt;img" in svg


def test_the_text_export_is_plain_text_with_the_names_as_typed(hostile):
    match = hostile["matches"][0]
    response = hostile["phone"].get(reverse("match_export_text", args=[match.pk]))
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["X-Content-Type-Options"] == "nosniff"  # never sniffed into HTML
    assert response["Content-Disposition"].startswith("attachment;")
    body = raw_text(response)
    assert SCRIPT_NAME in body and ATTR_NAME in body and CARD_SCRIPT in body  # a text file shows text as is


def test_the_json_export_is_json_with_the_names_as_typed(hostile):
    match = hostile["matches"][0]
    response = hostile["phone"].get(reverse("match_export_json", args=[match.pk]))
    assert response["Content-Type"] == "application/json"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert SCRIPT_NAME in json.dumps(data, ensure_ascii=False) and ATTR_NAME in json.dumps(data, ensure_ascii=False)


def test_the_export_file_name_carries_no_name(hostile):
    match = hostile["matches"][0]
    response = hostile["phone"].get(reverse("match_export_text", args=[match.pk]))
    assert response["Content-Disposition"] == f'attachment; filename="tablekeeper-card-crush-{match.pk}.txt"'


def test_html_in_a_name_round_trips_through_export_and_import(hostile):
    match = hostile["matches"][0]
    phone = hostile["phone"]
    exported = phone.get(reverse("match_export_json", args=[match.pk])).content
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = phone.post(reverse("match_import"), {"file": SimpleUploadedFile("m.json", exported)})
    assert response.status_code == 302, raw_text(response)
    imported = Match.objects.order_by("-pk").first()
    assert [p.name for p in imported.players()] == [SCRIPT_NAME, ATTR_NAME]
    assert_shown_as_text(raw_text(phone.get(imported.get_absolute_url())), "the imported match")


# ---------------------------------------------------------------- oversized names


def test_an_oversized_player_name_is_refused_with_a_message(client, catalog):
    response = client.post(reverse("match_new", args=["card-crush"]), {
        "player_0": "A" * 41, "player_1": "Ben", "config-resolution": "battle-score"})
    assert response.status_code == 422
    assert "Ensure this value has at most 40 characters (it has 41)." in raw_text(response)
    assert not Match.objects.exists() and not Player.objects.exists()


def test_a_huge_player_name_is_refused_without_echoing_it_back_whole(client, catalog):
    response = client.post(reverse("match_new", args=["card-crush"]), {
        "player_0": "A" * 100_000, "player_1": "Ben", "config-resolution": "battle-score"})
    assert response.status_code == 422
    assert not Match.objects.exists()


def test_an_oversized_card_name_is_refused_with_a_message(client, catalog):
    before = Card.objects.count()
    response = client.post(reverse("card_new", args=["card-crush"]), {
        "new-name": "C" * 61, "new-power": 5, "new-speed": 5, "new-affinity": "Fire", "new-rarity": "Common",
        "new-level": 1})
    assert response.status_code == 422
    assert "Ensure this value has at most 60 characters (it has 61)." in raw_text(response)
    assert Card.objects.count() == before


def test_an_oversized_sign_up_name_is_refused(client):
    response = client.post(reverse("sign_up"), {"username": "u" * 151, "password1": PASSWORD, "password2": PASSWORD,
                                                "player_name": "Ana"})
    assert response.status_code == 422
    assert "at most 150 characters" in raw_text(response)


# ---------------------------------------------------------------- CSRF


@pytest.fixture
def csrf_owner(catalog) -> tuple[Client, Match]:
    """A phone that enforces CSRF like a browser, owning a battle with a watch link."""
    phone = Client(enforce_csrf_checks=True)
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={},
                                  owner_device=device_of(phone))
    Invite.objects.create(match=match, kind="watch")
    return phone, match


def sharing_state(match: Match) -> tuple:
    match = Match.objects.get(pk=match.pk)
    return (match.club_id, match.version, list(Invite.objects.values_list("pk", "revoked")),
            list(Access.objects.values_list("pk", "revoked")))


@pytest.mark.parametrize("view", ["invite_new", "invite_revoke"])
def test_owner_posts_without_a_csrf_token_are_refused(csrf_owner, view):
    phone, match = csrf_owner
    invite = Invite.objects.get()
    url = reverse(view, args=[match.pk, invite.pk] if view == "invite_revoke" else [match.pk])
    before = sharing_state(match)
    assert_csrf_refused(phone.post(url, {"kind": "seat", "seat": 1, "shared": "on"}))
    assert sharing_state(match) == before


def test_joining_without_a_csrf_token_is_refused(csrf_owner):
    _phone, match = csrf_owner
    invite = Invite.objects.get()
    before = sharing_state(match)
    assert_csrf_refused(Client(enforce_csrf_checks=True).post(join_url(invite)))
    assert sharing_state(match) == before


def test_joining_with_the_pages_csrf_token_works(csrf_owner):
    from .helpers import csrf_token_from

    invite = Invite.objects.get()
    phone = Client(enforce_csrf_checks=True)
    token = csrf_token_from(phone, join_url(invite))
    assert phone.post(join_url(invite), {"csrfmiddlewaretoken": token}).status_code == 302
    assert Access.objects.count() == 1


def test_signing_in_without_a_csrf_token_is_refused(account):
    phone = Client(enforce_csrf_checks=True)
    assert_csrf_refused(phone.post(reverse("sign_in"), {"username": "ana", "password": PASSWORD}))
    assert "_auth_user_id" not in phone.session


def test_signing_up_without_a_csrf_token_is_refused(db):
    from django.contrib.auth import get_user_model

    assert_csrf_refused(Client(enforce_csrf_checks=True).post(reverse("sign_up"), {
        "username": "x", "password1": PASSWORD, "password2": PASSWORD, "player_name": "X"}))
    assert not get_user_model().objects.exists()


def test_signing_out_without_a_csrf_token_is_refused(account):
    phone = Client(enforce_csrf_checks=True)
    phone.login(username="ana", password=PASSWORD)
    assert_csrf_refused(phone.post(reverse("sign_out")))
    assert "_auth_user_id" in phone.session


def test_changing_the_password_without_a_csrf_token_is_refused(account):
    phone = Client(enforce_csrf_checks=True)
    phone.login(username="ana", password=PASSWORD)
    assert_csrf_refused(phone.post(reverse("password_change"), {
        "old_password": PASSWORD, "new_password1": "zz" + PASSWORD, "new_password2": "zz" + PASSWORD}))
    account.refresh_from_db()
    assert account.check_password(PASSWORD)


def test_cookies_are_http_only_and_lax(client):
    response = client.post(reverse("healthz"))
    device = response.cookies["tk_device"]
    assert device["httponly"] and device["samesite"] == "Lax"


def test_a_phone_that_only_looks_is_given_no_device_cookie(client):
    """Its first form is what gives a phone its device id: a page seen changes nothing that could belong to it."""
    for address in ("/", reverse("healthz"), reverse("match_list")):
        assert "tk_device" not in client.get(address).cookies, address
    assert "tk_device" in client.post(reverse("healthz")).cookies


# ---------------------------------------------------------------- production settings


def production_env(tmp_path: Path) -> dict[str, str]:
    alphabet = string.ascii_letters + string.digits + "!#%&()*+,-./:;<=>?@[]^_{|}~"
    environ = {key: value for key, value in os.environ.items() if key in ("PATH", "HOME", "LANG", "LC_ALL")}
    environ.update({
        "DJANGO_SETTINGS_MODULE": "tracker.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DEBUG": "false",
        "SECRET_KEY": "".join(secrets.choice(alphabet) for _ in range(64)),
        "ALLOWED_HOSTS": "tables.example.org",
        "HTTPS": "true",
    })
    return environ


def run_python(args: list[str], environ: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=180)


def test_deploy_check_is_clean_with_production_settings(tmp_path):
    result = run_python(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_env(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_settings_secure_cookies_and_hsts(tmp_path):
    # The settings module alone, as Django's settings import it (a django.setup() imported every app too).
    code = ("import json; from django.conf import settings as s; print(json.dumps(["
            "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, "
            "s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.DEBUG]))")
    result = run_python(["-c", code], production_env(tmp_path))
    assert result.returncode == 0, result.stderr
    cookies, csrf, redirect, hsts, subdomains, debug = json.loads(result.stdout)
    assert cookies and csrf and redirect and subdomains and not debug
    assert hsts >= 60 * 60 * 24 * 365


def test_the_device_cookie_is_secure_in_production(tmp_path, migrated_database):
    code = ("import django; django.setup(); from django.test import Client; "
            "r = Client().post('/healthz', secure=True, HTTP_HOST='tables.example.org'); "
            "print(r.status_code, bool(r.cookies['tk_device']['secure']))")
    environ = production_env(tmp_path)
    migrated_database(tmp_path / "db.sqlite3")
    result = run_python(["-c", code], environ)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["405", "True"]  # a form sent, refused or not: the cookie


# ---------------------------------------------------------------- the sign-in limit behind a proxy

PROXY = "10.0.0.2"  # what REMOTE_ADDR says when every request comes through the proxy


def fail_sign_ins(client: Client, forwarded_for: list[str]) -> list[int]:
    """One wrong password for "ana" per X-Forwarded-For value (the limit counts per name and address)."""
    return [client.post(reverse("sign_in"), {"username": "ana", "password": "wrong"},
                        HTTP_X_FORWARDED_FOR=header).status_code
            for header in forwarded_for]


def sign_in_via(client: Client, forwarded_for: str) -> int:
    return client.post(reverse("sign_in"), {"username": "ana", "password": PASSWORD},
                       HTTP_X_FORWARDED_FOR=forwarded_for).status_code


def test_without_trusted_proxies_a_forged_forwarded_for_does_not_escape_the_limit(settings, account):
    settings.TRUSTED_PROXY_COUNT = 0
    attacker = Client(REMOTE_ADDR="198.51.100.7")
    assert fail_sign_ins(attacker, [f"203.0.113.{n}" for n in range(5)]) == [422] * 5
    assert sign_in_via(attacker, "203.0.113.99") == 429


def test_behind_one_proxy_the_rightmost_hop_is_the_client(settings, account):
    settings.TRUSTED_PROXY_COUNT = 1
    attacker = Client(REMOTE_ADDR=PROXY)
    # The left entries are the attacker's own and change every time; the proxy's entry does not.
    assert fail_sign_ins(attacker, [f"203.0.113.{n}, 198.51.100.7" for n in range(5)]) == [422] * 5
    assert sign_in_via(attacker, "203.0.113.99, 198.51.100.7") == 429
    neighbour = Client(REMOTE_ADDR=PROXY)  # another player behind the same proxy is not locked out
    assert sign_in_via(neighbour, "198.51.100.8") == 302


@pytest.mark.parametrize("header", ["", "not an address", ",,,", "999.1.1.1", "198.51.100.7:4431",
                                    "198.51.100.7, ", "\x00", "é" * 5000, "1.2.3.4, " * 2000 + "x"])
def test_a_malformed_forwarded_for_falls_back_to_the_proxys_address(settings, account, header):
    settings.TRUSTED_PROXY_COUNT = 1
    attacker = Client(REMOTE_ADDR=PROXY)
    assert fail_sign_ins(attacker, [header] * 5) == [422] * 5  # never a 500
    assert sign_in_via(attacker, "198.51.100.9") == 302  # a well-formed client elsewhere is not locked out...
    headerless = Client(REMOTE_ADDR=PROXY).post(reverse("sign_in"), {"username": "ana", "password": PASSWORD})
    assert headerless.status_code == 429  # ...but the proxy's own address, which the junk counted against, is


@pytest.mark.parametrize("count, header, expected", [
    (0, "198.51.100.7", PROXY),
    (1, None, PROXY),
    (1, "198.51.100.7", "198.51.100.7"),
    (1, "203.0.113.1,198.51.100.7", "198.51.100.7"),
    (2, "203.0.113.1, 198.51.100.7, 10.0.0.9", "198.51.100.7"),
    (2, "198.51.100.7", PROXY),  # fewer entries than proxies: the header did not come through them all
    (1, " 2001:DB8::1 ", "2001:db8::1"),
])
def test_client_address_counts_trusted_hops_from_the_right(settings, rf, count, header, expected):
    from tracker.people.devices import client_address

    settings.TRUSTED_PROXY_COUNT = count
    extra = {} if header is None else {"HTTP_X_FORWARDED_FOR": header}
    assert client_address(rf.get("/", REMOTE_ADDR=PROXY, **extra)) == expected


@pytest.mark.parametrize("value, expected", [(None, 0), ("", 0), ("0", 0), ("2", 2), (" 3 ", 3)])
def test_trusted_proxy_count_reads_a_whole_number(monkeypatch, value, expected):
    from tracker.settings import env_int

    if value is None:
        monkeypatch.delenv("TRUSTED_PROXY_COUNT", raising=False)
    else:
        monkeypatch.setenv("TRUSTED_PROXY_COUNT", value)
    assert env_int("TRUSTED_PROXY_COUNT", 0) == expected


@pytest.mark.parametrize("value", ["-1", "one", "1.5", "²"])
def test_trusted_proxy_count_refuses_anything_else(monkeypatch, value):
    from django.core.exceptions import ImproperlyConfigured

    from tracker.settings import env_int

    monkeypatch.setenv("TRUSTED_PROXY_COUNT", value)
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXY_COUNT"):
        env_int("TRUSTED_PROXY_COUNT", 0)


@pytest.mark.parametrize("digit", ["\u00b2", "\u2460", "\u0663"])  # superscript two, circled one, Arabic-Indic three
def test_a_digit_python_calls_a_digit_in_a_number_parameter_is_no_500(client, digit):
    """str.isdigit() says yes to "²" and int() refuses it: the stats page's club filter answered 500."""
    assert client.get(reverse("stats"), {"club": digit}).status_code == 200
