"""Accounts: sign up with a player name, sign in (rate-limited) and out, change password,
and matches made on a phone before signing in following the account to another phone when
the player keeps them (a checkbox on both forms), or staying with the phone when not."""

import itertools
import re
import time

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model, hashers
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tracker.models import Access, Match, Player
from tracker.people import accounts
from tracker.people.devices import COOKIE
from tracker.web import limits

from .helpers import (
    PASSWORD,
    device_of,
    join,
    make_invite,
    sign_in,
    start_battle,
)
from .helpers import page_text as text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

User = get_user_model()
NEW_PASSWORD = "a different long passphrase 7"


def sign_up(client: Client, username: str, player_name: str, password: str = PASSWORD):
    return client.post(reverse("sign_up"), {"username": username, "password1": password, "password2": password,
                                            "player_name": player_name})


def signed_in_as(client: Client) -> str | None:
    user_id = client.session.get(SESSION_KEY)
    return User.objects.get(pk=user_id).username if user_id else None


# ---------------------------------------------------------------- sign up


def test_sign_up_page_asks_for_a_player_name(client):
    html = text(client.get(reverse("sign_up")))
    assert 'name="player_name"' in html and "Your player name" in html
    assert 'name="password1"' in html
    # The page opens on its first field, the player name: once, not on the user name below it.
    assert html.count("autofocus") == 1 and re.search(r'<input[^>]*name="player_name"[^>]*autofocus', html)


def test_sign_up_creates_the_account_signs_in_and_links_the_player_name(client):
    response = sign_up(client, "ana", "Ana Lee")
    assert response.status_code == 302 and response.url == reverse("home")
    user = User.objects.get(username="ana")
    assert Player.objects.get(name="Ana Lee").user == user
    assert signed_in_as(client) == "ana"
    assert "Welcome, Ana Lee." in text(client.get(response.url))


def test_sign_up_takes_over_an_existing_player_name_nobody_owns(client):
    ana = Player.objects.create(name="Ana")
    sign_up(client, "ana", "  aNA ")
    ana.refresh_from_db()
    assert ana.user.username == "ana"
    assert Player.objects.count() == 1


@pytest.mark.parametrize("name", ["Ana", "ana", "  ANA  "])
def test_sign_up_refuses_a_player_name_of_another_account(client, account, name):
    Player.objects.create(name="Ana", user=account)
    response = sign_up(Client(), "impostor", name)
    assert response.status_code == 422
    assert "That player name belongs to another account." in text(response)
    assert not User.objects.filter(username="impostor").exists()
    assert Player.objects.get(name="Ana").user == account


def test_sign_up_refuses_a_non_ascii_player_name_of_another_account_in_another_case(account):
    Player.objects.create(name="Chloé", user=account)
    response = sign_up(Client(), "impostor", "CHLOÉ")
    assert response.status_code == 422
    assert Player.objects.get(name="Chloé").user == account


def test_sign_up_refuses_an_oversized_player_name(client):
    response = sign_up(client, "ana", "A" * 41)
    assert response.status_code == 422
    assert "Ensure this value has at most 40 characters" in text(response)
    assert not User.objects.exists()


def test_sign_up_refuses_a_weak_or_mismatched_password(client):
    assert sign_up(client, "ana", "Ana", password="123").status_code == 422
    response = client.post(reverse("sign_up"), {"username": "ana", "password1": PASSWORD, "password2": PASSWORD + "x",
                                                 "player_name": "Ana"})
    assert response.status_code == 422
    assert not User.objects.exists() and not Player.objects.exists()


def test_sign_up_refuses_a_taken_username(client, account):
    assert sign_up(client, "ana", "Someone").status_code == 422
    assert not Player.objects.filter(name="Someone").exists()


# ---------------------------------------------------------------- sign in and out


def test_sign_in_then_out(client, account):
    response = sign_in(client, "ana")
    assert response.status_code == 302 and response.url == "/"
    assert signed_in_as(client) == "ana"
    assert "◉ ana" in text(client.get("/"))
    response = client.post(reverse("sign_out"))
    assert response.status_code == 302 and response.url == reverse("home")
    assert response["Clear-Site-Data"] == '"cache"', "Back on a shared tablet shows no page of the last account"
    assert signed_in_as(client) is None
    html = text(client.get(response.url))
    assert "Signed out." in html and ">Sign in</a>" in html


def test_sign_out_needs_a_post(client, account):
    sign_in(client, "ana")
    response = client.get(reverse("sign_out"))
    assert response.status_code == 302 and response.url != reverse("sign_out")  # the nearest page above it
    assert signed_in_as(client) == "ana"


def test_a_wrong_password_is_refused_with_a_message(client, account):
    response = sign_in(client, "ana", "wrong")
    assert response.status_code == 422
    assert "Please enter a correct username and password." in text(response)
    assert signed_in_as(client) is None
    # Refused for itself, not a field: the page opens on why (the form's own errors take the focus, no field does).
    assert re.search(r'<div class="notice notice-error"\s+role="alert" tabindex="-1" autofocus>', text(response))
    assert not re.search(r"<input[^>]*\bautofocus", text(response))


def test_five_wrong_passwords_lock_the_name_out_from_this_address_even_with_the_right_one(client, account):
    for _ in range(5):
        assert sign_in(client, "ana", "wrong").status_code == 422
    response = sign_in(client, "ana")
    assert response.status_code == 429
    assert "Too many failed attempts for this name from here." in text(response)
    assert re.search(r"Try again in \d+ (minute|second)s?\.", text(response))  # the quarter hour's rest
    assert 0 < int(response["Retry-After"]) <= 15 * 60
    assert signed_in_as(client) is None


def test_four_wrong_passwords_still_let_the_right_one_in(client, account):
    for _ in range(4):
        sign_in(client, "ana", "wrong")
    assert sign_in(client, "ana").status_code == 302


def test_failures_from_one_address_never_lock_the_name_out_from_another(client, account):
    """A prankster who knows the organiser's name cannot lock them out of their own phone."""
    for _ in range(8):
        sign_in(client, "ana", "wrong")
    elsewhere = Client(REMOTE_ADDR="203.0.113.9")
    assert sign_in(elsewhere, "ana").status_code == 302
    assert signed_in_as(elsewhere) == "ana"


@pytest.mark.parametrize("spelling", [" ana", "ana ", "ANA", "ａｎａ", "ＡＮＡ", "\u3000ana"])
def test_the_limit_counts_the_user_name_as_the_form_reads_it(client, account, spelling):
    """Spaces around it, Unicode width and case: five failures spelt five ways lock every spelling from here."""
    for wrong in [" ana", "ANA", "ａｎａ", "ana\t", "Ａｎａ"]:
        assert sign_in(client, wrong, "wrong").status_code == 422
    assert sign_in(client, spelling).status_code == 429
    assert sign_in(client, "ana").status_code == 429
    assert signed_in_as(client) is None


def test_a_wide_spelling_of_the_name_signs_in_as_the_form_reads_it(client, account):
    assert sign_in(client, " ａｎａ ").status_code == 302  # Django's sign-in form folds width and spaces too
    assert signed_in_as(client) == "ana"


@pytest.mark.parametrize("name", ["an\x00a", "\x00", "ana\x00"])
def test_a_nul_in_the_user_name_is_refused_with_a_message(client, account, name):
    response = sign_in(client, name)
    assert response.status_code == 422
    assert "Null characters are not allowed." in text(response)
    assert signed_in_as(client) is None


def test_a_nul_in_a_new_accounts_names_is_refused_with_a_message(client):
    response = sign_up(client, "zo\x00e", "Zo\x00e")
    assert response.status_code == 422
    assert "Null characters are not allowed." in text(response)
    assert not User.objects.exists() and not Player.objects.exists()


def test_failures_for_other_names_never_lock_an_address_out(client, account):
    """At a store every phone shares one address: one person's failures block nobody else's name."""
    for number in range(12):
        sign_in(client, f"guess{number}", "wrong")
    assert sign_in(client, "ana").status_code == 302


@pytest.fixture
def checks(monkeypatch) -> list[str]:
    """The passwords Django hashes to check them (about 0.4 CPU seconds each in production), in order."""
    checked: list[str] = []
    make_password = hashers.make_password
    check_password = hashers.check_password

    def counting_make(password, *args, **kwargs):
        checked.append(password)
        return make_password(password, *args, **kwargs)

    def counting_check(password, *args, **kwargs):
        checked.append(password)
        return check_password(password, *args, **kwargs)

    monkeypatch.setattr("django.contrib.auth.base_user.make_password", counting_make)
    monkeypatch.setattr("django.contrib.auth.base_user.check_password", counting_check)
    return checked


@pytest.fixture
def three_an_hour(monkeypatch):
    """An address may have three wrong passwords checked an hour."""
    monkeypatch.setattr(limits, "ADDRESS_FAILURES", 3)
    monkeypatch.setattr(limits, "ADDRESS_RATE", (3, 60 * 60))


def test_wrong_passwords_for_name_after_name_from_one_address_stop_before_hashing(client, account, checks,
                                                                                  three_an_hour):
    """Each name once, so no (name, address) pair ever fills: the address's budget stops it, and no name is locked."""
    for _ in range(5):  # a form without a name or a password checks nothing and counts nowhere
        assert client.post(reverse("sign_in"), {"username": "nobody", "password": ""}).status_code == 422
    assert checks == []
    for number in range(3):
        assert sign_in(client, f"nobody{number}x", "wrong").status_code == 422
    assert len(checks) == 3
    refused = sign_in(client, "nobody3x", "wrong")
    assert refused.status_code == 429 and len(checks) == 3  # refused before hashing
    assert "Too many wrong passwords from this network in the last hour." in text(refused)
    assert 0 < int(refused["Retry-After"]) <= 60 * 60
    assert sign_in(client, "ana").status_code == 429  # every name, from this address
    assert sign_in(Client(REMOTE_ADDR="198.51.100.7"), "ana").status_code == 302  # the name from anywhere else


def test_a_phone_that_signed_in_before_is_not_held_by_its_networks_spent_budget(client, account, three_an_hour):
    """One phone on a store's Wi-Fi spends the network's budget of wrong passwords. Ana's own phone, which signed
    in to her account before, still signs in; a new phone there waits, its typed name kept."""
    anas_phone = Client()
    assert sign_in(anas_phone, "ana").status_code == 302
    anas_phone.post(reverse("sign_out"))
    for number in range(3):
        assert sign_in(client, f"nobody{number}x", "wrong").status_code == 422
    refused = sign_in(client, "ana")
    assert refused.status_code == 429 and 'name="username" value="ana"' in text(refused)
    assert re.search(r'<input[^>]*name="password"[^>]*autofocus', text(refused)), "the focus on the password"
    assert sign_in(anas_phone, "ana").status_code == 302
    assert sign_in(anas_phone, "nobody9x", "wrong").status_code == 429, "only for the name it signed in to"


def test_guessing_the_old_password_is_limited_as_signing_in_is(client, account, checks):
    """A stolen session may not guess the password without end: five wrong ones lock the (name, address) pair."""
    client.force_login(account)
    wrong = {"old_password": "guess", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    for _ in range(limits.PAIR_FAILURES):
        assert client.post(reverse("password_change"), wrong).status_code == 422
    checks.clear()
    refused = client.post(reverse("password_change"), {**wrong, "old_password": PASSWORD})
    assert refused.status_code == 429 and checks == []
    assert "Too many failed attempts for this name from here." in text(refused)
    account.refresh_from_db()
    assert account.check_password(PASSWORD)
    assert sign_in(client, "ana").status_code == 429  # the same pair as signing in
    assert sign_in(Client(REMOTE_ADDR="198.51.100.7"), "ana").status_code == 302


def test_wrong_old_passwords_spend_the_addresss_budget_too(client, account, three_an_hour):
    client.force_login(account)
    for number in range(3):
        assert client.post(reverse("password_change"), {"old_password": f"guess{number}", "new_password1": NEW_PASSWORD,
                                                         "new_password2": NEW_PASSWORD}).status_code == 422
    assert sign_in(Client(), "someone", "else").status_code == 429


def test_a_name_failing_from_many_addresses_is_slowed_not_locked(account):
    """Failures across addresses pace the addresses that failed; the player's own phone, which has not
    failed, signs in at once with the right password."""
    attackers = [Client(REMOTE_ADDR=f"203.0.113.{number}") for number in range(1, 6)]
    for attacker in attackers:
        for _ in range(2):
            assert sign_in(attacker, "ana", "wrong").status_code == 422
    # 10 failures in the hour: an address that failed waits its turn, with "try again in" seconds ...
    assert sign_in(attackers[0], "ana", "wrong").status_code == 422  # the 11th: this address waits now
    paced = sign_in(attackers[0], "ana")
    assert paced.status_code == 429
    assert re.search(r"Try again in \d+ seconds?\.", text(paced))
    assert int(paced["Retry-After"]) <= 15
    # ... and the player's own phone is not slowed at all.
    own = Client(REMOTE_ADDR="198.51.100.7")
    assert sign_in(own, "ana").status_code == 302


def test_the_pace_grows_with_the_failures_and_stays_short():
    from tracker.web.limits import pace

    assert [pace(n) for n in (0, 9, 10, 19, 20, 30, 40, 1000)] == [0, 0, 15, 15, 30, 60, 120, 120]


def test_sign_in_page_is_never_locked_for_reading(client, account):
    for _ in range(6):
        sign_in(client, "ana", "wrong")
    assert client.get(reverse("sign_in")).status_code == 200


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "http://evil.example",
                                    "/\\evil.example", "javascript:alert(1)"])
def test_sign_in_refuses_to_redirect_off_site(client, account, target):
    response = client.post(reverse("sign_in"), {"username": "ana", "password": PASSWORD, "next": target})
    assert response.status_code == 302
    assert response.url == "/"


def test_sign_in_follows_a_local_next(client, account):
    response = client.post(reverse("sign_in") + "?next=/matches/", {"username": "ana", "password": PASSWORD})
    assert response.url == "/matches/"


def test_sign_in_form_keeps_next_escaped(client):
    raw = client.get(reverse("sign_in"), {"next": '/x"><script>alert(1)</script>'}).content.decode()
    assert "<script>alert(1)" not in raw
    assert 'value="/x%22%3E%3Cscript%3Ealert(1)%3C/script%3E"' in raw  # as a URI (tracker/web/next_page.py)


# ---------------------------------------------------------------- password change


def test_password_change_needs_signing_in(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("sign_in") + "?next=")


def test_password_change_keeps_the_phone_signed_in_and_the_new_password_works(client, account):
    sign_in(client, "ana")
    response = client.post(reverse("password_change"), {"old_password": PASSWORD, "new_password1": NEW_PASSWORD,
                                                         "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert "Password changed." in text(client.get(response.url))
    assert signed_in_as(client) == "ana"
    assert sign_in(Client(), "ana", PASSWORD).status_code == 422
    assert sign_in(Client(), "ana", NEW_PASSWORD).status_code == 302


def test_password_change_refuses_a_wrong_old_password(client, account):
    sign_in(client, "ana")
    response = client.post(reverse("password_change"), {"old_password": "nope", "new_password1": NEW_PASSWORD,
                                                         "new_password2": NEW_PASSWORD})
    assert response.status_code == 422
    account.refresh_from_db()
    assert account.check_password(PASSWORD)


def test_password_change_signs_out_the_other_phones(client, account):
    other = Client()
    sign_in(other, "ana")
    sign_in(client, "ana")
    client.post(reverse("password_change"), {"old_password": PASSWORD, "new_password1": NEW_PASSWORD,
                                             "new_password2": NEW_PASSWORD})
    assert signed_in_as(client) == "ana"
    other.get("/")
    assert signed_in_as(other) is None


# ---------------------------------------------------------------- keeping the phone's matches in the account

KEEP = "keep_matches"


def sign_in_keeping(client: Client, username: str, keep: bool = True, **extra):
    """Sign in with the "keep this phone's matches" box ticked, or not (an unticked box is not sent)."""
    data = {"username": username, "password": PASSWORD, **extra}
    if keep:
        data[KEEP] = "on"
    return client.post(reverse("sign_in"), data)


def sign_up_keeping(client: Client, username: str, player_name: str, keep: bool = True):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, "player_name": player_name}
    if keep:
        data[KEEP] = "on"
    return client.post(reverse("sign_up"), data)


def keep_box(html: str) -> str | None:
    """The keep checkbox's <input> tag, or None when the page does not offer one."""
    found = re.search(r'<input[^>]*name="keep_matches"[^>]*>', html)
    return found.group(0) if found else None


@pytest.fixture
def anonymous_match(catalog):
    """A phone that has not signed in starts a battle: the phone owns it."""
    phone = Client()
    match = start_battle(phone, "Ana", "Ben")
    assert match.owner is None and match.owner_device == device_of(phone)
    return phone, match


@pytest.fixture
def busy_phone(catalog):
    """A phone, never signed in, that started two battles and took a seat in a third (someone else's)."""
    phone, host = Client(), Client()
    made = [start_battle(phone, "Ana", "Ben"), start_battle(phone, "Ana", "Cy")]
    joined = start_battle(host, "Dee", "Ana")
    join(phone, make_invite(host, joined, "seat", 1))
    return phone, made, joined


@pytest.mark.parametrize("page", ["sign_in", "sign_up"])
def test_the_forms_offer_to_keep_the_phones_matches_ticked_and_counted(busy_phone, page):
    phone, _made, _joined = busy_phone
    html = text(phone.get(reverse(page)))
    box = keep_box(html)
    assert box is not None and 'type="checkbox"' in box and "checked" in box
    label = re.search(r'<label for="id_keep_matches">.*?</label>', html, re.S).group(0)
    assert "Keep the 3 matches played on this phone" in label and 'id="id_keep_matches"' in label
    assert "Unticked: left with this phone only." in html


def test_one_match_is_counted_in_the_singular(anonymous_match):
    phone, _match = anonymous_match
    assert "Keep the 1 match played on this phone" in text(phone.get(reverse("sign_in")))


@pytest.mark.parametrize("page", ["sign_in", "sign_up"])
def test_no_checkbox_when_the_phone_has_nothing_to_keep(account, anonymous_match, page):
    _phone, _match = anonymous_match  # another phone's match is not this one's to keep
    fresh = Client()
    assert keep_box(text(fresh.get(reverse(page)))) is None
    made_signed_in = Client()
    sign_in(made_signed_in, "ana")
    start_battle(made_signed_in)  # already the account's
    made_signed_in.post(reverse("sign_out"))
    assert keep_box(text(made_signed_in.get(reverse(page)))) is None


def test_no_checkbox_once_everything_is_kept(account, anonymous_match):
    phone, _match = anonymous_match
    sign_in_keeping(phone, "ana")
    phone.post(reverse("sign_out"))
    assert keep_box(text(phone.get(reverse("sign_in")))) is None


def test_signing_in_with_the_box_ticked_keeps_every_match_and_seat_in_the_account(account, busy_phone):
    phone, made, joined = busy_phone
    response = sign_in_keeping(phone, "ana")
    assert response.status_code == 302
    assert "3 matches from this phone are now in your account." in text(phone.get("/"))
    assert {match.owner for match in Match.objects.filter(pk__in=[m.pk for m in made])} == {account}
    assert Access.objects.get(match=joined).user == account
    laptop = Client()
    sign_in(laptop, "ana")
    for match in made:
        page = text(laptop.get(match.get_absolute_url()))
        assert "Other phones: join or watch" in page  # as the owner
    assert "◉ You play as Ana on this phone." in text(laptop.get(joined.get_absolute_url()))


def test_signing_in_with_the_box_unticked_leaves_the_matches_with_the_phone(account, busy_phone):
    phone, made, joined = busy_phone
    assert sign_in_keeping(phone, "ana", keep=False).status_code == 302
    assert "The matches played here before stay with this phone only." in text(phone.get("/"))
    for match in made:
        match.refresh_from_db()
        assert match.owner is None and match.owner_device == device_of(phone)
        assert phone.get(match.get_absolute_url()).status_code == 200  # signed in, this phone still has them
    assert Access.objects.get(match=joined).user is None
    laptop = Client()
    sign_in(laptop, "ana")
    assert all(laptop.get(match.get_absolute_url()).status_code == 404 for match in [*made, joined])
    phone.post(reverse("sign_out"))
    assert all(phone.get(match.get_absolute_url()).status_code == 200 for match in [*made, joined])
    # Asked again at the next sign-in.
    assert "Keep the 3 matches played on this phone" in text(phone.get(reverse("sign_in")))


def test_a_failed_sign_in_remembers_the_unticked_box(account, anonymous_match):
    phone, match = anonymous_match
    response = phone.post(reverse("sign_in"), {"username": "ana", "password": "wrong"})
    assert response.status_code == 422
    assert "checked" not in keep_box(text(response))
    match.refresh_from_db()
    assert match.owner is None


def test_signing_up_with_the_box_ticked_keeps_the_phones_matches(anonymous_match):
    phone, match = anonymous_match
    assert sign_up_keeping(phone, "ana", "Ana").status_code == 302
    assert "Welcome, Ana. 1 match from this phone is now in your account." in text(phone.get("/"))
    match.refresh_from_db()
    assert match.owner.username == "ana"


def test_signing_up_with_the_box_unticked_leaves_them_with_the_phone(anonymous_match):
    phone, match = anonymous_match
    assert sign_up_keeping(phone, "ana", "Ana", keep=False).status_code == 302
    match.refresh_from_db()
    assert match.owner is None and match.owner_device == device_of(phone)
    assert User.objects.get(username="ana")  # the account itself was made
    assert phone.get(match.get_absolute_url()).status_code == 200


def test_a_forged_form_cannot_claim_another_phones_matches(account, anonymous_match):
    _phone, match = anonymous_match
    thief = Client()
    own = start_battle(thief)  # so the thief's form really has the box, and ticking it keeps something
    response = sign_in_keeping(thief, "ana", device=match.owner_device, owner_device=match.owner_device,
                               tk_device=match.owner_device, match=match.pk, matches=match.pk)
    assert response.status_code == 302
    own.refresh_from_db()
    match.refresh_from_db()
    assert own.owner == account and match.owner is None
    laptop = Client()
    sign_in(laptop, "ana")
    assert laptop.get(match.get_absolute_url()).status_code == 404


def test_a_forged_device_cookie_cannot_claim_another_phones_matches(account, anonymous_match):
    _phone, match = anonymous_match
    thief = Client()
    thief.cookies[COOKIE] = match.owner_device  # the bare id, without the signature
    assert keep_box(text(thief.get(reverse("sign_in")))) is None
    sign_in_keeping(thief, "ana")
    match.refresh_from_db()
    assert match.owner is None


def test_a_phones_device_cookie_is_checked_once_and_a_forged_one_never_passes(monkeypatch):
    """Every request of a phone carries the same signed device cookie: its signature is checked once, and a
    forged value is no device however often it comes."""
    from django.core import signing

    checked = []
    unsign = signing.TimestampSigner.unsign
    monkeypatch.setattr(signing.TimestampSigner, "unsign", lambda signer, *args, **kwargs: (
        checked.append(args[0]), unsign(signer, *args, **kwargs))[1])
    phone = Client()
    phone.post(reverse("healthz"))  # a form sent: the phone's device cookie
    signed = phone.cookies[COOKIE].value
    for _ in range(3):
        assert COOKIE not in phone.post(reverse("healthz")).cookies  # the phone's own device: no new one
    forged, value = Client(), signed[:-1] + ("A" if signed[-1] != "A" else "B")
    forged.cookies[COOKIE] = value
    assert COOKIE in forged.post(reverse("healthz")).cookies  # no device: a new one
    once = len(checked)
    forged.cookies[COOKIE] = value
    assert COOKIE in forged.post(reverse("healthz")).cookies
    assert checked.count(signed) == 1 and value in checked and len(checked) == once


def test_matches_of_another_phone_are_not_handed_over(account, anonymous_match, catalog):
    _phone, match = anonymous_match
    sign_in_keeping(Client(), "ana")
    match.refresh_from_db()
    assert match.owner is None


def test_a_match_made_while_signed_in_belongs_to_the_account(account, catalog):
    phone = Client()
    sign_in(phone, "ana")
    match = start_battle(phone)
    assert match.owner == account


def test_after_signing_out_the_second_phone_loses_the_match(account, anonymous_match):
    phone, match = anonymous_match
    sign_in_keeping(phone, "ana")
    laptop = Client()
    sign_in(laptop, "ana")
    laptop.post(reverse("sign_out"))
    assert laptop.get(match.get_absolute_url()).status_code == 404
    assert Match.objects.filter(pk=match.pk).exists()


# ---------------------------------------------------------------- the limit across app processes

# Each process hashes passwords as the tests do (tests/conftest.py: fast_password_hashing): the limit is what is
# tested, and seven sign-ins with the real hasher cost 7 s of CPU.
PROCESS_SCRIPT = """
import sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]).enable()
if sys.argv[1] == "fail-five-times":
    get_user_model().objects.create_user(sys.argv[3], password=sys.argv[2])
    phone = Client()
    print(*[phone.post("/accounts/sign-in/", {"username": sys.argv[3], "password": "wrong"}).status_code
            for _ in range(5)])
else:
    print(Client().post("/accounts/sign-in/", {"username": sys.argv[3], "password": sys.argv[2]}).status_code)
"""


def a_name_with_time_left(seconds: int = 120) -> str:
    """A user name whose sign-in failures, from the test client's address, are counted in a window with at
    least `seconds` left: django-ratelimit's windows end at a moment of each quarter hour that depends on
    what is counted, and one ending between the two processes would start the count again."""
    from django_ratelimit.core import _get_window  # how django-ratelimit places a counter's window

    for number in itertools.count():
        name = f"ana{number}" if number else "ana"
        pair = f"{accounts.name_key(name)}|127.0.0.1"  # limits._pair for the test client's REMOTE_ADDR
        if _get_window(pair, limits.PAIR_RATE[1]) - time.time() > seconds:
            return name
    raise AssertionError("unreachable")


def test_the_limit_holds_in_another_app_process(tmp_path, migrated_database):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    migrated_database(tmp_path / "db.sqlite3")  # both processes' database, migrated
    environ = {key: value for key, value in os.environ.items() if key in ("PATH", "HOME", "LANG", "LC_ALL")}
    environ.update({"DJANGO_SETTINGS_MODULE": "tracker.settings", "DEBUG": "true", "ALLOWED_HOSTS": "testserver",
                    "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})

    def run(*args: str) -> str:
        result = subprocess.run([sys.executable, "-c", PROCESS_SCRIPT, *args], cwd=root, env=environ,
                                capture_output=True, text=True, timeout=180)
        assert result.returncode == 0, result.stderr
        return result.stdout.split()

    name = a_name_with_time_left()
    assert run("fail-five-times", PASSWORD, name) == ["422"] * 5
    assert run("sign-in", PASSWORD, name) == ["429"]  # another worker of the same installation


def test_kept_matches_leave_the_phone_when_it_signs_out(account, busy_phone):
    """A store's shared tablet: once the matches are in the account, signing out leaves it none of them."""
    phone, made, _joined = busy_phone
    sign_in_keeping(phone, "ana")
    phone.post(reverse("sign_out"))
    for match in made:
        match.refresh_from_db()
        assert match.owner == account and match.owner_device == ""
        assert phone.get(match.get_absolute_url()).status_code == 404


def test_a_match_started_while_signed_in_is_not_the_phones_after_sign_out(account, catalog):
    tablet = Client()
    sign_in(tablet, "ana")
    data = {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score"}
    assert tablet.post(reverse("match_new", args=["card-crush"]), data).status_code == 302
    match = Match.objects.get()
    assert match.owner == account and match.owner_device == ""
    tablet.post(reverse("sign_out"))
    assert tablet.get(match.get_absolute_url()).status_code == 404
    entry = tablet.post(reverse("match_entry", args=[match.pk, 0]), {"seq": 0})
    assert entry.status_code == 404

def test_every_password_checked_counts_the_right_one_too(client, account, checks, monkeypatch):
    """Ten sign-ins with the right password, or ten password changes with the right old one and mismatched new
    ones, cost four CPU seconds and counted nowhere: every password checked is counted against the phone's hour."""
    monkeypatch.setitem(limits.COSTLY, "password-check", limits.Limit(limits.COSTLY["password-check"].what, 3))
    for _ in range(3):
        assert sign_in(client, "ana").status_code == 302
        client.post(reverse("sign_out"))
    checks.clear()
    refused = sign_in(client, "ana")
    assert refused.status_code == 429 and checks == [] and "Too many password checks" in text(refused)
    cache.clear()  # the hour is over
    other = Client(REMOTE_ADDR="198.51.100.7")
    other.force_login(account)
    mismatched = {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": "something else"}
    for _ in range(3):
        assert other.post(reverse("password_change"), mismatched).status_code == 422
    checks.clear()
    assert other.post(reverse("password_change"), mismatched).status_code == 429 and checks == []
