"""Helpers of the tracker tests: the cast's decks, locking and playing a battle through the services,
phones joining by link, snapshots a refused request must leave alone, junk inputs, and battles of
the competition pages played to the end. Fixtures are in conftest.py and build on these."""

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager
from copy import deepcopy
from datetime import datetime

from django.contrib.auth import get_user_model
from django.core import signing
from django.core.signals import request_finished
from django.db import close_old_connections, transaction
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse

from tracker.matches import services
from tracker.matches.views import ENTRY_SALT
from tracker.models import Access, Action, Card, Checkpoint, Club, Confirmation, Invite, Match, Membership
from tracker.people.devices import COOKIE

# Seat 0's deck in the rulebook's example: Ember Fox (Fire 7/5) meets Tide Runner (Water 6/8) in round 1.
ANA_DECK = ["Ember Fox", "Storm Caller", "Stone Golem", "Phoenix", "Gale Sprite"]


BEN_DECK = ["Tide Runner", "Frost Wisp", "Sky Lancer", "Void Lord", "Thorn Sprout"]


# Another deck for seat 0: no card in common with ANA_DECK, nor with BEN_DECK.
ANA_OTHER_DECK = ["Leviathan", "Sun Paladin", "Night Stalker", "Winter Queen", "Volt Imp"]


PLAY = {"type": "play_round"}


@contextmanager
def shared_by_the_class(django_db_blocker) -> Iterator[None]:
    """A transaction for rows the tests of a class share, made once by a class-scoped fixture where a function
    fixture made them again for each of a hundred parametrized tests. Each test runs in a savepoint of it
    (pytest-django's own transaction, nested), rolled back after the test, so each meets the rows as made; this
    one is rolled back after the class's last test (as test_write_sweep.py's module table)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


def phone_like(phone: Client) -> Client:
    """A phone of its own holding `phone`'s cookies (its device, session and CSRF token) and account (`user`), for a
    test given phones made once for its module: what the test does to it (signing out, a language) stays its own."""
    copy = Client()
    copy.cookies = deepcopy(phone.cookies)
    if hasattr(phone, "user"):
        copy.user = phone.user
    return copy


def club_account(username: str, club: Club | None = None, role: str = Membership.MEMBER) -> Client:
    """A client signed in as a new account, a member of `club` in `role` if given."""
    user = get_user_model().objects.create_user(username=username, password="pw-" + username * 3)
    if club is not None:
        Membership.objects.create(club=club, user=user, role=role)
    client = Client()
    client.force_login(user)
    client.user = user
    return client


def deck(names: list[str]) -> list[dict]:
    cards = {card.name: card for card in Card.objects.filter(slug="card-crush", name__in=names)}
    return [cards[name].as_rules_card() for name in names]


def lock(match: Match, seat: int, names: list[str]) -> Match:
    """Lock a deck for a seat through the services (as the entry page does); the match, refreshed."""
    match.refresh_from_db()
    services.match_apply_action(
        match_id=match.pk, action={"type": "lock_deck", "seat": seat, "cards": deck(names)}, expected_seq=match.head
    )
    match.refresh_from_db()
    return match


def lock_both(match: Match, seat0: list[str] = ANA_DECK, seat1: list[str] = BEN_DECK) -> Match:
    lock(match, 0, seat0)
    return lock(match, 1, seat1)


def play(match: Match, rounds: int = 1) -> Match:
    """Reveal the next round(s) through the services."""
    for _ in range(rounds):
        match.refresh_from_db()
        services.match_apply_action(match_id=match.pk, action=PLAY, expected_seq=match.head)
    match.refresh_from_db()
    return match


def play_out(match: Match) -> Match:
    match.refresh_from_db()
    while match.finished is None:
        play(match)
    return match


def assert_every_match_replays() -> None:
    """snapshot == fold(log) for every stored match, caches included.

    Each match's state, its every checkpoint and the counters on its row agree with re-running
    its log from the seed (services.replay_problems), and every step of the current line that
    is a multiple of CHECKPOINT_EVERY has its checkpoint (so undo there never starts far back).
    """
    for match in Match.objects.all():
        assert services.replay_problems(match) == [], f"{match}: {services.replay_problems(match)}"
        kept = sorted(Checkpoint.objects.filter(match=match).values_list("seq", flat=True))
        every = services.CHECKPOINT_EVERY
        assert kept == list(range(every, match.line_length + 1, every)), f"{match}: checkpoints at {kept}"


def snapshot(match: Match) -> tuple:
    """Everything a refused request must leave as it was."""
    match = Match.objects.get(pk=match.pk)
    actions = list(Action.objects.filter(match=match).order_by("number").values_list("number", "seq", "abandoned"))
    return (match.head, match.state, match.finished, match.winner_id, match.score, actions)


def entry_token(match: Match, seat: int) -> str:
    return signing.dumps({"match": match.pk, "seat": seat}, salt=ENTRY_SALT)


def entry_data(match: Match, seat: int, names: list[str], **extra) -> dict:
    """A lock-in form as the entry page sends it."""
    match.refresh_from_db()
    data = {"seq": match.head, "entry_token": entry_token(match, seat)}
    data.update({f"card_{position}": name for position, name in enumerate(names, start=1)})
    data.update(extra)
    return data


def entry_url(match: Match, seat: int) -> str:
    return reverse("match_entry", args=[match.pk, seat])


def token_from_page(html: str) -> str:
    found = re.search(r'name="entry_token" value="([^"]+)"', html)
    assert found, "the entry page has no entry_token field"
    return found.group(1)


def text(response) -> str:
    return response.content.decode()


def make_card(name: str, power: int, speed: int, affinity: str = "Air") -> Card:
    return Card.objects.create(
        slug="card-crush", name=name,
        stats={"power": power, "speed": speed, "affinity": affinity, "rarity": "Common", "level": 1},
    )


# Values no form should choke on: every POST endpoint answers them with a 4xx and changes nothing.
JUNK = [
    "",
    "   ",
    "x" * 100_000,
    "-1",
    "-99999999999999999999",
    "9" * 40,
    "1.5",
    "1e3",
    "NaN",
    "🂡 ünïcødé ✓",
    "\x00",
    "/\r\nSet-Cookie: x=1",  # a CR and LF: no header may carry them (a `next` put one into Location: a 500)
    "/\x0b",  # a vertical tab: the server dropped the connection rather than send it in a header
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    ["1", "junk"],
    "\u00b2",  # a superscript two: str.isdigit() says yes, int() refuses it (three answers were 500s)
    "9" * 5000,  # str.isdecimal() says yes, int() refuses past 4,300 digits (two answers were 500s)
    "\ufdfa" * 30,  # 30 characters typed, 540 once in Unicode's compatibility form (PostgreSQL's varchar: 500s)
    "\u200b",  # drawn as nothing: a name of it was a match with a seat missing, whose page was a 500
]


JUNK_IDS = [
    "empty", "spaces", "huge", "negative", "huge-negative", "huge-number", "decimal", "exponent", "nan",
    "unicode", "nul", "crlf", "vertical-tab", "html", "sql", "list", "superscript-digit", "past-int-digits",
    "grows-in-nfkc", "invisible",
]


def assert_csrf_refused(response) -> None:
    assert response.status_code == 403
    html = text(response)
    assert "That form could not be accepted" in html
    assert "Nothing was changed." in html


def csrf_token_from(client: Client, url: str) -> str:
    """The CSRF token a page gives its forms (and sets as a cookie), as a browser would get it."""
    html = text(client.get(url))
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found, f"no CSRF token on {url}"
    return found.group(1)


PASSWORD = "correct horse battery staple 42"


def page_text(response) -> str:
    """The page as a reader sees it: entities (&#x27; for an apostrophe) decoded."""
    return html.unescape(text(response))


def device_of(client: Client) -> str:
    """The device id behind a client's signed `tk_device` cookie (sending a form once to get one: devices.py)."""
    if COOKIE not in client.cookies:
        client.post(reverse("healthz"))
    request = HttpRequest()
    request.COOKIES = {COOKIE: client.cookies[COOKIE].value}
    return request.get_signed_cookie(COOKIE, salt=COOKIE)


def sign_in(client: Client, username: str, password: str = PASSWORD):
    return client.post(reverse("sign_in"), {"username": username, "password": password})


def start_battle(client: Client, *names: str) -> Match:
    """Start a Card Crush battle from this phone, as the new-match page does."""
    before = set(Match.objects.values_list("pk", flat=True))
    data = {f"player_{seat}": name for seat, name in enumerate(names or ("Ana", "Ben"))}
    data["config-resolution"] = "battle-score"
    response = client.post(reverse("match_new", args=["card-crush"]), data)
    assert response.status_code == 302, page_text(response)
    return Match.objects.exclude(pk__in=before).get()


def make_invite(owner: Client, match: Match, kind: str = "seat", seat: int | None = None) -> Invite:
    """The owner makes a join link (kind=seat) or a watch link; the new Invite."""
    before = set(Invite.objects.values_list("pk", flat=True))
    data = {"kind": kind} if seat is None else {"kind": kind, "seat": seat}
    response = owner.post(reverse("invite_new", args=[match.pk]), data)
    assert response.status_code == 302, page_text(response)
    return Invite.objects.exclude(pk__in=before).get()


def join_url(invite: Invite) -> str:
    return reverse("join", args=[invite.token])


def join(client: Client, invite: Invite):
    response = client.post(join_url(invite))
    assert response.status_code == 302, page_text(response)
    return response


def seated_phone(owner: Client, match: Match, seat: int) -> Client:
    phone = Client()
    join(phone, make_invite(owner, match, "seat", seat))
    return phone


def watching_phone(owner: Client, match: Match) -> Client:
    phone = Client()
    join(phone, make_invite(owner, match, "watch"))
    return phone


def state_of(match: Match) -> tuple:
    """Everything a refused request must leave alone, sharing included."""
    fresh = Match.objects.get(pk=match.pk)
    invites = list(Invite.objects.filter(match=match).order_by("pk").values_list("pk", "revoked"))
    accesses = list(Access.objects.filter(match=match).order_by("pk").values_list("pk", "device", "seat", "revoked"))
    return snapshot(match), fresh.club_id, fresh.version, invites, accesses


# In the demo catalog the first deck beats the second 3-1 (see tests/browser/test_card_crush_battle.py).
WINNING_DECK = ["Ember Fox", "Phoenix", "Mountain Titan", "Void Lord", "Gale Sprite"]


LOSING_DECK = ["Tide Runner", "Flame Knight", "Stone Golem", "Shade Rat", "Sky Lancer"]


def battle_won(winner: str, loser: str, when: datetime | None = None, rated: bool = True, club=None) -> Match:
    """A finished open-play battle `winner` won in `club`, first finished at `when` (now by default)."""
    match = services.match_create(slug="card-crush", player_names=[winner, loser], config={}, club=club)
    return finish(match, winner_seat=0, when=when, rated=rated)


def finish(match: Match, winner_seat: int, when: datetime | None = None, rated: bool = True) -> Match:
    """Lock decks so `winner_seat` wins, play it out, and date it. Its players confirmed it (a club battle
    counts only then: tests/tracker/test_rating_confirmation.py tests the confirming itself)."""
    decks = (WINNING_DECK, LOSING_DECK) if winner_seat == 0 else (LOSING_DECK, WINNING_DECK)
    match = play_out(lock_both(match, *decks))
    for seat in range(len(match.players())):
        Confirmation.objects.get_or_create(match=match, seat=seat, defaults={"kind": Confirmation.AFTER})
    updates = {"rated": rated, "unconfirmed": False}
    if when is not None:
        updates["finished"] = updates["first_finished"] = when
    Match.objects.filter(pk=match.pk).update(**updates)
    match.refresh_from_db()
    return match


def pushed_part(phone: Client, at: str, shown: str = "") -> tuple[str, str]:
    """The part a match's stream pushes to this phone with a change while it shows page `at` (the match page or
    its log), and the kept parts it then shows: tracker/matches/live.py's draw_part, asked with the phone's own
    cookies and host as its stream would ask it.

    As Django's test client does around each request, the request's end leaves the connections alone: draw_part
    closes its response, which sends request_finished, and close_old_connections then closed the test's connection
    in the middle of its transaction (autocommit off). An in-memory SQLite ignores that; on PostgreSQL the
    connection went back to its pool, rolled back, and the test's next query failed ("Cannot open a new
    connection in an atomic block"). The stream's reads, outside any transaction, close theirs anyway (live._db)."""
    from types import SimpleNamespace

    from tracker.matches import live

    cookies = {name: morsel.value for name, morsel in phone.cookies.items()}
    meta = {"HTTP_COOKIE": "; ".join(f"{name}={value}" for name, value in cookies.items()), "HTTP_HOST": "testserver",
            "SERVER_NAME": "testserver", "SERVER_PORT": "80", "REMOTE_ADDR": "127.0.0.1"}
    request_finished.disconnect(close_old_connections)
    try:
        drawn = live.draw_part(SimpleNamespace(META=meta, COOKIES=cookies, scheme="http"), at, shown)
    finally:
        request_finished.connect(close_old_connections)
    assert drawn is not None, f"no part drawn for {at}: the phone would fetch it"
    return drawn
