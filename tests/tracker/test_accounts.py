"""Accounts: sign up with a player name, sign in (rate-limited) and out, change password,
and matches made on a phone before signing in following the account to another phone."""

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.test import Client
from django.urls import reverse

from tracker.models import Access, Match, Player

from .test_access import (  # noqa: F401  (fixtures)
    PASSWORD,
    account,
    device_of,
    fresh_cache,
    join,
    make_invite,
    sign_in,
    start_battle,
    text,
)

pytestmark = pytest.mark.django_db

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
    assert signed_in_as(client) is None
    html = text(client.get(response.url))
    assert "Signed out." in html and ">Sign in</a>" in html


def test_sign_out_needs_a_post(client, account):
    sign_in(client, "ana")
    assert client.get(reverse("sign_out")).status_code == 405
    assert signed_in_as(client) == "ana"


def test_a_wrong_password_is_refused_with_a_message(client, account):
    response = sign_in(client, "ana", "wrong")
    assert response.status_code == 422
    assert "Please enter a correct username and password." in text(response)
    assert signed_in_as(client) is None


def test_five_wrong_passwords_lock_the_account_out_even_with_the_right_one(client, account):
    for _ in range(5):
        assert sign_in(client, "ana", "wrong").status_code == 422
    response = sign_in(client, "ana")
    assert response.status_code == 429
    assert "Too many failed attempts. Wait 15 minutes and try again." in text(response)
    assert signed_in_as(client) is None


def test_four_wrong_passwords_still_let_the_right_one_in(client, account):
    for _ in range(4):
        sign_in(client, "ana", "wrong")
    assert sign_in(client, "ana").status_code == 302


def test_the_lockout_follows_the_account_to_another_address(client, account):
    for _ in range(5):
        sign_in(client, "ana", "wrong")
    elsewhere = Client(REMOTE_ADDR="203.0.113.9")
    assert sign_in(elsewhere, "ANA").status_code == 429  # the user name in any case
    assert signed_in_as(elsewhere) is None


def test_the_lockout_follows_the_address_to_other_accounts(client, account):
    for number in range(5):
        sign_in(client, f"guess{number}", "wrong")
    assert sign_in(client, "ana").status_code == 429


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
    assert 'value="/x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in raw


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


# ---------------------------------------------------------------- the device's matches follow the account


@pytest.fixture
def anonymous_match(catalog):
    """A phone that has not signed in starts a battle: the phone owns it."""
    phone = Client()
    match = start_battle(phone, "Ana", "Ben")
    assert match.owner is None and match.owner_device == device_of(phone)
    return phone, match


def test_signing_in_hands_the_phones_matches_to_the_account(account, anonymous_match):
    phone, match = anonymous_match
    sign_in(phone, "ana")
    match.refresh_from_db()
    assert match.owner == account


def test_a_second_phone_signed_in_to_the_account_sees_the_earlier_matches(account, anonymous_match):
    phone, match = anonymous_match
    sign_in(phone, "ana")
    laptop = Client()
    assert laptop.get(match.get_absolute_url()).status_code == 404  # before signing in: nothing
    sign_in(laptop, "ana")
    assert laptop.get(match.get_absolute_url()).status_code == 200
    assert f'href="{match.get_absolute_url()}"' in text(laptop.get(reverse("match_list")))
    assert "Other phones: join, watch, share" in text(laptop.get(match.get_absolute_url()))  # as the owner


def test_signing_up_also_keeps_the_phones_matches(anonymous_match):
    phone, match = anonymous_match
    sign_up(phone, "ana", "Ana")
    match.refresh_from_db()
    assert match.owner.username == "ana"


def test_matches_of_another_phone_are_not_handed_over(account, anonymous_match, catalog):
    _phone, match = anonymous_match
    sign_in(Client(), "ana")
    match.refresh_from_db()
    assert match.owner is None


def test_a_seat_joined_before_signing_in_follows_the_account(account, anonymous_match):
    owner_phone, match = anonymous_match
    ben_phone = Client()
    join(ben_phone, make_invite(owner_phone, match, "seat", 1))
    sign_in(ben_phone, "ana")
    assert Access.objects.get(match=match).user == account
    tablet = Client()
    sign_in(tablet, "ana")
    html = text(tablet.get(match.get_absolute_url()))
    assert "◉ You play as Ben on this phone." in html


def test_a_match_made_while_signed_in_belongs_to_the_account(account, catalog):
    phone = Client()
    sign_in(phone, "ana")
    match = start_battle(phone)
    assert match.owner == account


def test_after_signing_out_the_second_phone_loses_the_match(account, anonymous_match):
    phone, match = anonymous_match
    sign_in(phone, "ana")
    laptop = Client()
    sign_in(laptop, "ana")
    laptop.post(reverse("sign_out"))
    assert laptop.get(match.get_absolute_url()).status_code == 404
    assert Match.objects.filter(pk=match.pk).exists()


# ---------------------------------------------------------------- the lockout across app processes

PROCESS_SCRIPT = """
import sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
if sys.argv[1] == "fail-five-times":
    call_command("migrate", verbosity=0)
    get_user_model().objects.create_user("ana", password=sys.argv[2])
    phone = Client()
    print(*[phone.post("/accounts/sign-in/", {"username": "ana", "password": "wrong"}).status_code for _ in range(5)])
else:
    print(Client().post("/accounts/sign-in/", {"username": "ana", "password": sys.argv[2]}).status_code)
"""


def test_the_lockout_holds_in_another_app_process(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    environ = {key: value for key, value in os.environ.items() if key in ("PATH", "HOME", "LANG", "LC_ALL")}
    environ.update({"DJANGO_SETTINGS_MODULE": "tracker.settings", "DEBUG": "true", "ALLOWED_HOSTS": "testserver",
                    "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})

    def run(*args: str) -> str:
        result = subprocess.run([sys.executable, "-c", PROCESS_SCRIPT, *args], cwd=root, env=environ,
                                capture_output=True, text=True, timeout=180)
        assert result.returncode == 0, result.stderr
        return result.stdout.split()

    assert run("fail-five-times", PASSWORD) == ["422"] * 5
    assert run("sign-in", PASSWORD) == ["429"]  # another worker of the same installation
