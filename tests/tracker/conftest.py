"""Shared cast and data for the tracker tests.

Personas: Ana (seat 0) and Ben (seat 1) at a fresh Card Crush battle, with the demo
catalog loaded. Helpers lock decks through the services, the way the pages do, and
take a snapshot of everything a refused request must leave alone.

Phones, for the access, sharing and account tests (each a client of its own, so a device of
its own): owner (signed in as "ana", started the private `battle`), owner2 (the same account
on another phone), player (Ben's seat, joined by link), spectator (a watch link), outsider.
Those modules ask for `fresh_cache` in their pytestmark.
"""

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse

from tracker import demo
from tracker.matches import services
from tracker.matches.views import ENTRY_SALT
from tracker.models import Access, Action, Card, Checkpoint, Club, Invite, Match, Membership, Player
from tracker.people.devices import COOKIE

# Seat 0's deck in the rulebook's example: Ember Fox (Fire 7/5) meets Tide Runner (Water 6/8) in round 1.
ANA_DECK = ["Ember Fox", "Storm Caller", "Stone Golem", "Phoenix", "Gale Sprite"]
BEN_DECK = ["Tide Runner", "Frost Wisp", "Sky Lancer", "Void Lord", "Thorn Sprout"]
# Another deck for seat 0: no card in common with ANA_DECK, nor with BEN_DECK.
ANA_OTHER_DECK = ["Leviathan", "Sun Paladin", "Night Stalker", "Winter Queen", "Volt Imp"]

PLAY = {"type": "play_round"}


@pytest.fixture
def catalog(db) -> dict[str, Card]:
    """The demo Card Crush catalog, by name."""
    demo.load_catalogs()
    return {card.name: card for card in Card.objects.filter(slug="card-crush")}


def club_account(username: str, club: Club | None = None, role: str = Membership.MEMBER) -> Client:
    """A client signed in as a new account, a member of `club` in `role` if given."""
    user = get_user_model().objects.create_user(username=username, password="pw-" + username * 3)
    if club is not None:
        Membership.objects.create(club=club, user=user, role=role)
    client = Client()
    client.force_login(user)
    client.user = user
    return client


@pytest.fixture
def club(db) -> Club:
    """A club with nobody in it yet: the fixtures below seat an organiser and a member."""
    return Club.objects.create(name="Friday Club")


@pytest.fixture
def organiser(club) -> Client:
    """Signed in as the club's organiser."""
    return club_account("orga", club, Membership.ORGANISER)


@pytest.fixture
def member(club) -> Client:
    """Signed in as a plain member of the club."""
    return club_account("mem", club)


@pytest.fixture
def stranger(db) -> Client:
    """Signed in, in another club of their own."""
    other = Club.objects.create(name="Other Club")
    return club_account("far", other, Membership.ORGANISER)


@pytest.fixture
def match(catalog) -> Match:
    """A fresh battle: Ana in seat 0, Ben in seat 1, nothing locked yet."""
    return services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})


@pytest.fixture
def ana(match) -> Player:
    return Player.objects.get(name="Ana")


@pytest.fixture
def ben(match) -> Player:
    return Player.objects.get(name="Ben")


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


@pytest.fixture
def locked(match) -> Match:
    """Both decks locked: Ana ANA_DECK, Ben BEN_DECK; round 1 is next."""
    return lock_both(match)


@pytest.fixture
def finished(locked) -> Match:
    return play_out(locked)


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


@pytest.fixture
def csrf_client() -> Client:
    return Client(enforce_csrf_checks=True)


def make_card(name: str, power: int, speed: int, affinity: str = "Air") -> Card:
    return Card.objects.create(
        slug="card-crush", name=name,
        stats={"power": power, "speed": speed, "affinity": affinity, "rarity": "Common", "level": 1},
    )


@pytest.fixture
def mirror_decks(catalog) -> tuple[list[str], list[str]]:
    """Two decks of identical cards (Air 5/5): every round is tied down to the coin flip."""
    decks = ([], [])
    for seat, prefix in enumerate(("Mirror A", "Mirror B")):
        for number in range(1, 6):
            decks[seat].append(make_card(f"{prefix}{number}", 5, 5).name)
    return decks


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
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    ["1", "junk"],
]
JUNK_IDS = [
    "empty", "spaces", "huge", "negative", "huge-negative", "huge-number", "decimal", "exponent", "nan",
    "unicode", "nul", "html", "sql", "list",
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


# ---------------------------------------------------------------- phones: the cast of the access and sharing tests


def page_text(response) -> str:
    """The page as a reader sees it: entities (&#x27; for an apostrophe) decoded."""
    return html.unescape(text(response))


def device_of(client: Client) -> str:
    """The device id behind a client's signed `tk_device` cookie (visiting once to get one)."""
    if COOKIE not in client.cookies:
        client.get(reverse("healthz"))
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


# ---------------------------------------------------------------- the cast


@pytest.fixture
def fresh_cache(settings):
    """Fast sign-ins and an empty cache (the sign-in limit counts per address); modules ask for it in pytestmark."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # sign-ins fast, not safe
    cache.clear()  # the sign-in rate limit counts per address: every test starts with none
    yield
    cache.clear()


@pytest.fixture
def account(db):
    return get_user_model().objects.create_user("ana", password=PASSWORD)


@pytest.fixture
def owner(account) -> Client:
    phone = Client()
    assert sign_in(phone, "ana").status_code == 302
    return phone


@pytest.fixture
def battle(owner, catalog) -> Match:
    """A private battle started on the owner's phone: Ana (seat 0) vs Ben (seat 1), nothing locked."""
    return start_battle(owner, "Ana", "Ben")


@pytest.fixture
def owner2(account, battle) -> Client:
    phone = Client()
    assert sign_in(phone, "ana").status_code == 302
    return phone


@pytest.fixture
def player(owner, battle) -> Client:
    """Ben's own phone, seated through a join link."""
    return seated_phone(owner, battle, 1)


@pytest.fixture
def spectator(owner, battle) -> Client:
    return watching_phone(owner, battle)


@pytest.fixture
def outsider(battle) -> Client:
    return Client()


@pytest.fixture
def cast(owner, owner2, player, spectator, outsider) -> dict[str, Client]:
    return {"owner": owner, "owner2": owner2, "player": player, "spectator": spectator, "outsider": outsider}
