"""Shared cast and data for the tracker tests.

Personas: Ana (seat 0) and Ben (seat 1) at a fresh Card Crush battle, with the demo
catalog loaded. Helpers lock decks through the services, the way the pages do, and
take a snapshot of everything a refused request must leave alone.

Phones, for the access, sharing and account tests (each a client of its own, so a device of
its own): owner (signed in as "ana", started the private `battle`), owner2 (the same account
on another phone), player (Ben's seat, joined by link), spectator (a watch link), outsider.
Those modules ask for `fresh_cache` in their pytestmark.
"""


import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from tracker import demo
from tracker.matches import services
from tracker.models import Card, Club, Match, Membership, Player

from .helpers import (
    PASSWORD,
    club_account,
    lock_both,
    make_card,
    play_out,
    seated_phone,
    shared_by_the_class,
    sign_in,
    start_battle,
    watching_phone,
)


@pytest.fixture
def catalog(db) -> dict[str, Card]:
    """The demo Card Crush catalog, by name."""
    demo.load_catalogs()
    return {card.name: card for card in Card.objects.filter(slug="card-crush")}


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


@pytest.fixture(scope="class")
def match_for_the_class(django_db_setup, django_db_blocker) -> int:
    """`match` made once for the tests of a class that share it, each in a savepoint of it (shared_by_the_class):
    its pk. A hundred junk tests each made it anew."""
    with shared_by_the_class(django_db_blocker):
        demo.load_catalogs()
        yield services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}).pk


@pytest.fixture(scope="class")
def locked_for_the_class(django_db_setup, django_db_blocker) -> int:
    """`locked` made once for the tests of a class that share it, as `match_for_the_class`: its pk."""
    with shared_by_the_class(django_db_blocker):
        demo.load_catalogs()
        yield lock_both(services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})).pk


@pytest.fixture
def ana(match) -> Player:
    return Player.objects.get(name="Ana")


@pytest.fixture
def ben(match) -> Player:
    return Player.objects.get(name="Ben")


@pytest.fixture
def locked(match) -> Match:
    """Both decks locked: Ana ANA_DECK, Ben BEN_DECK; round 1 is next."""
    return lock_both(match)


@pytest.fixture
def finished(locked) -> Match:
    return play_out(locked)


@pytest.fixture
def csrf_client() -> Client:
    return Client(enforce_csrf_checks=True)


@pytest.fixture
def mirror_decks(catalog) -> tuple[list[str], list[str]]:
    """Two decks of identical cards (Air 5/5): every round is tied down to the coin flip."""
    decks = ([], [])
    for seat, prefix in enumerate(("Mirror A", "Mirror B")):
        for number in range(1, 6):
            decks[seat].append(make_card(f"{prefix}{number}", 5, 5).name)
    return decks


# ---------------------------------------------------------------- phones: the cast of the access and sharing tests


# ---------------------------------------------------------------- the cast


@pytest.fixture
def fresh_cache(monkeypatch):
    """An empty cache and the limits' clock held still (tracker/web/limits.py counts in
    fixed windows: one ending mid-test would forget its count); modules ask for it in pytestmark."""
    import types

    import django_ratelimit.core

    cache.clear()  # the limits count per address: every test starts with none
    now = django_ratelimit.core.time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", types.SimpleNamespace(time=lambda: now))
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


@pytest.fixture(scope="module")
def cast_for_the_module(django_db_setup, django_db_blocker) -> tuple[dict[str, Client], int]:
    """`cast` and its `battle` made as the fixtures above make them, once for a module whose tests share them, each
    test in a savepoint (as match_for_the_class): the phones and the battle's pk. The module's own fixtures give each
    test phones holding these phones' cookies (helpers.phone_like) and the battle read again. Seven requests made the
    cast for each of a hundred tests: three quarters of test_access.py's time."""
    with shared_by_the_class(django_db_blocker):
        cache.clear()  # the sign-in limit counts per address, as for a test's own (fresh_cache)
        get_user_model().objects.create_user("ana", password=PASSWORD)
        owner = Client()
        assert sign_in(owner, "ana").status_code == 302
        demo.load_catalogs()
        battle = start_battle(owner, "Ana", "Ben")
        owner2 = Client()
        assert sign_in(owner2, "ana").status_code == 302
        yield ({"owner": owner, "owner2": owner2, "player": seated_phone(owner, battle, 1),
                "spectator": watching_phone(owner, battle), "outsider": Client()}, battle.pk)
