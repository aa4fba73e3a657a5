"""A store's shared tablet: one phone (one device cookie), several accounts signing in and out of it.

Adversarial round 27: Dev set up a club battle Ana against Ben on his phone. Ana signed in on the store's
tablet, opened it (which seats her there by her account) and locked in her deck; she signed out. Ben signed
in on the same tablet and opened the battle: a phone has one place a match, and taking his seat deleted hers.
Her seat was nobody's phone's any more, so Dev's phone played it again: it undid her hidden lock-in alone
(on its own phone, her say would have made it a request she answers) and offered "Lock in Ana's deck here".
A place taken while signed in is the account's alone; whoever uses the tablet next gets none beside it.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tracker.matches import services
from tracker.models import Access, Invite, Match, Membership, Player, Proposal

from .helpers import WINNING_DECK, club_account, device_of, lock

pytestmark = pytest.mark.django_db

HELD = "Another account joined this match from this phone"


@pytest.fixture
def people(club, catalog) -> dict[str, Client]:
    found = {}
    for name in ("ana", "ben", "dev"):
        found[name] = club_account(name, club)
        Player.objects.create(name=name.title(), user=found[name].user)
    return found


def sign_in(tablet: Client, account: Client) -> Client:
    tablet.force_login(account.user)
    return tablet


def test_the_next_account_on_the_tablet_leaves_her_seat_in_the_battle_hers(club, people):
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, club=club,
                                  owner=people["dev"].user)
    tablet = sign_in(Client(), people["ana"])
    assert tablet.get(match.get_absolute_url()).status_code == 200
    assert Access.objects.filter(match=match, user=people["ana"].user, seat=0, revoked__isnull=True).exists()
    match = lock(match, 0, WINNING_DECK)
    tablet.post(reverse("sign_out"))

    page = sign_in(tablet, people["ben"]).get(match.get_absolute_url())
    assert Access.objects.filter(match=match, user=people["ana"].user, seat=0, revoked__isnull=True).exists()
    assert not Access.objects.filter(match=match, user=people["ben"].user).exists()
    assert page.status_code == 200 and HELD in page.content.decode()  # why he plays no seat on this tablet

    # Dev's phone plays Ben's seat alone: taking back Ana's lock-in still asks her phone.
    people["dev"].post(reverse("match_goto", args=[match.pk]), {"step": 0, "seq": match.head})
    assert Match.objects.get(pk=match.pk).head == 1
    assert Proposal.objects.filter(match=match, status=Proposal.PENDING, needs=0).exists()


def test_nor_does_a_join_link_used_by_the_next_account(club, people):
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, owner=people["dev"].user)
    tablet = sign_in(Client(), people["ana"])
    seat = Invite.objects.create(match=match, kind=Invite.SEAT, seat=0)
    watch = Invite.objects.create(match=match, kind=Invite.WATCH)
    tablet.post(reverse("join", args=[seat.token]))
    assert Access.objects.filter(match=match, user=people["ana"].user, seat=0).exists()
    tablet.post(reverse("sign_out"))

    page = sign_in(tablet, people["ben"]).post(reverse("join", args=[watch.token]))
    assert page.status_code == 409 and HELD in page.content.decode()
    assert Access.objects.filter(match=match, user=people["ana"].user, seat=0, revoked__isnull=True).exists()
    assert Membership.objects.filter(user=people["ben"].user).exists()  # a member still, seeing the club's matches


def test_a_phone_new_to_the_site_seated_by_opening_the_battle_keeps_that_place(club, people):
    """The seat is taken on a page only opened (no form sent): the phone is given the device id its place holds."""
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, club=club,
                                  owner=people["dev"].user)
    tablet = sign_in(Client(), people["ana"])  # a session, and no device cookie yet
    page = tablet.get(match.get_absolute_url())
    assert page.status_code == 200 and "tk_device" in page.cookies
    assert Access.objects.get(match=match, user=people["ana"].user).device == device_of(tablet)
    assert "tk_device" not in tablet.get(match.get_absolute_url()).cookies
