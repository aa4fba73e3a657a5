"""A member's seat in a club battle, taken by opening it, is not taken back behind their back by the other side.

Adversarial round 24: an organiser played a member on two phones (he took his seat by opening the battle, and
both locked in), saw his deck, and removed him from the club. Removing a member ends the seats he took as one
(sharing.unseat_member), so her phone held both seats again: hot-seat, where she asked as herself and "agreed" as
him on the pass-the-phone screen, took her revealed deck back and locked in a counter-deck, the log saying he
agreed. Taking back a name she had given him did the same. A seat whose phone has a say is taken back only with
its agreement or by a referee, as a link is (views.invite_revoke): so is a member's, removed or unnamed.

Round 25: the battle was his, set up on his phone, and she played it on hers. Removing him left it to no one
(clubs.leave): it counted nowhere, his phone was shut out, and no other organiser was there to take it over. Nor
that, once it has begun: the phone that runs a battle has the same say as a seat.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tracker.matches import live, services
from tracker.models import Access, Match, Membership, Player, Proposal

from .helpers import BEN_DECK, WINNING_DECK, club_account, lock

pytestmark = pytest.mark.django_db


def battle(club, olga: Client, ben: Client, ben_plays_as: str = "Ben") -> Match:
    """Olga (an organiser) against Ben in the club on her phone; Ben took his seat by opening it on his own
    phone, both locked in: his deck is revealed."""
    match = services.match_create(slug="card-crush", player_names=["Olga", ben_plays_as], config={}, club=club,
                                  owner=olga.user)
    assert ben.get(match.get_absolute_url()).status_code == 200
    assert Access.objects.filter(match=match, user=ben.user, seat=1, revoked__isnull=True).exists()
    lock(match, 1, BEN_DECK)
    return lock(match, 0, WINNING_DECK)


def seated(match: Match, ben: Client) -> bool:
    return Access.objects.filter(match=match, user=ben.user, seat=1, revoked__isnull=True).exists()


def takes_back_alone(olga: Client, match: Match) -> bool:
    """Olga goes back past the reveal; on a phone holding both seats she asks as herself and agrees as Ben."""
    olga.post(reverse("match_goto", args=[match.pk]), {"step": 1, "seq": match.head, "asker": 0, "answer": "agree"})
    return Match.objects.get(pk=match.pk).head == 1


@pytest.fixture
def olga(club, catalog) -> Client:
    olga = club_account("olga", club, Membership.ORGANISER)
    Player.objects.create(name="Olga", user=olga.user)
    return olga


@pytest.fixture
def ben(club) -> Client:
    ben = club_account("ben", club)
    Player.objects.create(name="Ben", user=ben.user)
    return ben


def test_an_organiser_who_plays_does_not_remove_the_other_side_to_hold_his_seat(club, olga, ben):
    match = battle(club, olga, ben)
    membership = Membership.objects.get(club=club, user=ben.user)
    response = olga.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": "remove", "was": "member"},
                         follow=True)
    assert "would hand their seat to your side" in response.content.decode()
    assert Membership.objects.filter(pk=membership.pk).exists() and seated(match, ben)
    assert not takes_back_alone(olga, match)


def test_nor_takes_back_the_name_that_seated_him(club, olga, ben):
    referee = club_account("ref", club, Membership.ORGANISER)
    membership = Membership.objects.get(club=club, user=ben.user)
    services.match_create(slug="card-crush", player_names=["Olga", "Benno"], config={}, club=club,
                          owner=olga.user)  # Benno, a regular without an account, in the club's records
    referee.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": "name", "name": "Benno"})
    assert Membership.objects.get(pk=membership.pk).plays_as.name == "Benno"
    match = battle(club, olga, ben, ben_plays_as="Benno")
    olga.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": "unname"})
    assert Membership.objects.get(pk=membership.pk).plays_as is not None and seated(match, ben)
    assert not takes_back_alone(olga, match)


def asks_ben(olga: Client, match: Match) -> Proposal:
    """Olga asks Ben to go back past his revealed deck."""
    olga.post(reverse("match_goto", args=[match.pk]), {"step": 1, "seq": match.head})
    return Proposal.objects.get(match=match, status=Proposal.PENDING, needs=1)


def test_a_referee_still_removes_him(club, olga, ben):
    match = battle(club, olga, ben)
    asked = asks_ben(olga, match)
    referee = club_account("ref", club, Membership.ORGANISER)
    membership = Membership.objects.get(club=club, user=ben.user)
    referee.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": "remove", "was": "member"})
    assert not Membership.objects.filter(pk=membership.pk).exists() and not seated(match, ben)
    # His seat is the phone's that set the battle up now: Olga's request to him lapsed, not left to her own phone.
    assert Proposal.objects.get(pk=asked.pk).status == Proposal.RESEATED


def test_a_seat_with_no_say_yet_ends_with_the_membership(club, olga, ben):
    match = services.match_create(slug="card-crush", player_names=["Olga", "Ben"], config={}, club=club,
                                  owner=olga.user)
    ben.get(match.get_absolute_url())  # seated, but nothing played since
    membership = Membership.objects.get(club=club, user=ben.user)
    olga.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": "remove", "was": "member"})
    assert not Membership.objects.filter(pk=membership.pk).exists() and not seated(match, ben)


def his_battle(club, olga: Client, ben: Client, runner: Client | None = None) -> Match:
    """Ben's battle against Olga, set up on Ben's phone (or `runner`'s); Olga took her seat by opening it on her
    own phone, both locked in: his deck is revealed."""
    runner = runner or ben
    match = services.match_create(slug="card-crush", player_names=["Olga", "Ben"], config={}, club=club,
                                  owner=runner.user)
    assert olga.get(match.get_absolute_url()).status_code == 200
    assert Access.objects.filter(match=match, user=olga.user, seat=0, revoked__isnull=True).exists()
    lock(match, 1, BEN_DECK)
    return lock(match, 0, WINNING_DECK)


@pytest.mark.parametrize("runner", ["ben", "chloe"])
def test_nor_removes_the_member_who_runs_the_battle_she_plays(club, olga, ben, runner):
    chloe = club_account("chloe", club)
    match = his_battle(club, olga, ben, chloe if runner == "chloe" else None)
    membership = Membership.objects.get(club=club, user=match.owner)
    response = olga.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": "remove", "was": "member"},
                         follow=True)
    assert "would leave it to no one" in response.content.decode()
    assert Membership.objects.filter(pk=membership.pk).exists()
    match.refresh_from_db()
    assert match.owner_id == membership.user_id and match.orphaned is None


def test_a_referee_still_removes_the_member_who_runs_it(club, olga, ben):
    match = his_battle(club, olga, ben)
    referee = club_account("ref", club, Membership.ORGANISER)
    membership = Membership.objects.get(club=club, user=ben.user)
    asked = asks_ben(olga, match)
    referee.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": "remove", "was": "member"})
    assert not Membership.objects.filter(pk=membership.pk).exists()
    assert Match.objects.get(pk=match.pk).orphaned is not None
    # The phone that ran his seat is nobody's now: Olga's request to him lapsed, and the news says so.
    assert Proposal.objects.get(pk=asked.pk).status == Proposal.RESEATED
    told = live.read_change(match.pk).said["en"]
    assert told.endswith("Olga's request lapsed, as a seat changed hands: go back to step 1, taking back a revealed entry.")
    # Asked again of the seat nobody runs, it lapses as the referee takes the battle over and runs that seat.
    again = asks_ben(olga, match)
    assert referee.post(reverse("match_take_over", args=[match.pk])).status_code == 302
    assert Proposal.objects.get(pk=again.pk).status == Proposal.RESEATED


def test_a_battle_not_begun_is_left_with_the_membership(club, olga, ben):
    match = services.match_create(slug="card-crush", player_names=["Olga", "Ben"], config={}, club=club,
                                  owner=ben.user)
    olga.get(match.get_absolute_url())  # seated, but nothing played
    membership = Membership.objects.get(club=club, user=ben.user)
    olga.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": "remove", "was": "member"})
    assert not Membership.objects.filter(pk=membership.pk).exists()
    assert Match.objects.get(pk=match.pk).orphaned is not None
