"""Who sits where (and who runs a club), changed at the same moment as a join, a move or another change (found over real HTTP by sending both at once).

A revoke and a join, or a revoke and the seat's lock-in, are judged on what stands once the other has
committed (sharing.lock: the match's row on PostgreSQL, the whole database on SQLite), never on what stood
before it. The other request is sent from another thread, as another phone's would be, at the moment the view
has just decided: before the fix it landed between the decision and the write.
"""


import pytest
from django.test import Client
from django.urls import reverse

from tracker.models import Access, Invite, Match, Membership, Proposal
from tracker.people import clubs, consent
from tracker.people import views as people_views

from .helpers import BEN_DECK, club_account, entry_data, entry_url, join_url, make_invite
from .races import meanwhile, other_phones_done, settled  # noqa: F401 (an autouse fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_cache")]


def test_a_link_revoked_while_a_phone_joins_by_it_seats_nobody(owner, battle, monkeypatch):
    """A seat held on a revoked link would be beyond every button: the share panel lists no link for it."""
    invite = make_invite(owner, battle, "seat", 1)
    checked = people_views._link_problem
    sent = []

    def revoked_meanwhile(found):
        if not sent:
            sent.append(True)
            meanwhile(lambda: owner.post(reverse("invite_revoke", args=[battle.pk, invite.pk])))
        return checked(found)

    monkeypatch.setattr(people_views, "_link_problem", revoked_meanwhile)
    phone = Client()
    phone.post(join_url(invite))
    settled()
    assert Invite.objects.get(pk=invite.pk).revoked is not None
    assert not Access.objects.filter(match=battle, revoked__isnull=True).exists(), "a seat held on a revoked link"
    assert phone.get(battle.get_absolute_url()).status_code in (403, 404)
    assert owner.get(reverse("match_entry", args=[battle.pk, 1])).status_code == 200, "the owner enters for Ben"


def test_a_seat_that_locks_in_as_its_link_is_revoked_is_never_both_counted_and_dropped(owner, player, battle,
                                                                                      monkeypatch):
    """Ben's lock-in counts and his seat is asked for (he has a say), or his seat goes and his lock-in is refused
    as stale: never his deck counted and his seat dropped unasked, which left the owner's phone holding both
    seats to take his hidden deck back alone."""
    invite = Access.objects.get(match=battle, seat=1).invite
    decided = consent.has_say

    def locked_in_meanwhile(match, found):
        say = decided(match, found)
        meanwhile(lambda: player.post(entry_url(battle, 1), entry_data(battle, 1, BEN_DECK)))
        return say

    monkeypatch.setattr(consent, "has_say", locked_in_meanwhile)
    owner.post(reverse("invite_revoke", args=[battle.pk, invite.pk]))
    settled()
    counted = Match.objects.get(pk=battle.pk).head == 1
    dropped = Access.objects.get(invite=invite).revoked is not None
    assert not (counted and dropped), "Ben's lock-in counted, and his seat was taken back without asking"
    assert counted == Proposal.objects.filter(kind=Proposal.RELEASE).exists()
    if counted:  # and the owner cannot take it back alone either
        owner.post(reverse("match_goto", args=[battle.pk]), {"step": 0, "seq": 1})
        assert Match.objects.get(pk=battle.pk).head == 1


def test_two_organisers_making_each_other_members_at_once_leave_the_club_one(club, monkeypatch):
    """Each counted the other organiser still there, then wrote: the club was left with no organiser."""
    ana, ben = club_account("ana", club, Membership.ORGANISER), club_account("ben", club, Membership.ORGANISER)
    ana_in, ben_in = (Membership.objects.get(user=phone.user) for phone in (ana, ben))
    counted, sent = clubs.organisers_left, []

    def bens_tap_meanwhile(in_club, without):
        left = counted(in_club, without)
        if not sent:
            sent.append(True)
            meanwhile(lambda: ben.post(reverse("club_member", args=[club.pk, ana_in.pk]), {"do": "member"}))
        return left

    monkeypatch.setattr(clubs, "organisers_left", bens_tap_meanwhile)
    ana.post(reverse("club_member", args=[club.pk, ben_in.pk]), {"do": "member"})
    settled()
    assert Membership.objects.filter(club=club, role=Membership.ORGANISER).count() == 1


@pytest.mark.parametrize("other", ["void", "rated"])
def test_a_battle_marked_unrated_while_another_organiser_changes_it_moves_its_version_twice(club, catalog, other,
                                                                                            monkeypatch):
    """Each read the match, then saved it with the version it read plus one: eight taps at once moved it by two to
    four, so a page following the match could keep showing a rated or void state the version no longer told of.
    Each change is one update of the version as it stands, of the result as it was read."""
    from tracker.matches import services

    from .helpers import finish

    battle = finish(services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, club=club), 0)
    olga, ref = club_account("olga", club, Membership.ORGANISER), club_account("ref", club, Membership.ORGANISER)
    before = Match.objects.get(pk=battle.pk).version
    as_read, sent = Match.row_as_read, []

    def others_tap_meanwhile(match):
        if not sent:
            sent.append(True)
            if other == "void":
                meanwhile(lambda: ref.post(reverse("match_void", args=[battle.pk]), {"reason": "marked cards"}))
            else:
                meanwhile(lambda: ref.post(reverse("battle_rating", args=[battle.pk]), {"rated": "1"}))
        return as_read(match)

    monkeypatch.setattr(Match, "row_as_read", others_tap_meanwhile)
    olga.post(reverse("battle_rating", args=[battle.pk]), {"rated": "0"})
    settled()
    after = Match.objects.get(pk=battle.pk)
    assert after.version == before + 2, (before, after.version)
    assert not after.rated or other == "rated"


@pytest.mark.parametrize("end", ["unname", "leave"])
def test_a_name_taken_back_while_its_member_opens_the_battle_seats_nobody(monkeypatch, end):
    """Round 14: a member opening a battle under a given name was judged before the name was taken back (or they
    left) at the same moment, and kept the seat the take-back had found no trace of."""
    from tracker.matches import services
    from tracker.models import Club
    from tracker.people import sharing

    club = Club.objects.create(name="Friday Club")
    organiser = club_account("orga", club, Membership.ORGANISER)
    erin = club_account("erin", club)
    services.match_create(slug="card-crush", player_names=["Ben", "Erin"], config={}, club=club)  # Erin's records
    membership = club.memberships.get(user=erin.user)
    organiser.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": "name", "name": "Erin"})
    match = services.match_create(slug="card-crush", player_names=["Ben", "Erin"], config={}, club=club)
    decided = sharing.seat_of
    sent = []

    def ended_meanwhile(match_, user):
        seat = decided(match_, user)
        if not sent:
            sent.append(1)
            if end == "unname":
                meanwhile(lambda: Client.post(organiser, reverse("club_member", args=[club.pk, membership.pk]),
                                              {"do": "unname"}))
            else:
                meanwhile(lambda: Client.post(erin, reverse("club_leave", args=[club.pk])))
        return seat

    monkeypatch.setattr(sharing, "seat_of", ended_meanwhile)
    erin.get(match.get_absolute_url())
    settled()
    assert sent
    assert not Access.objects.filter(match=match, user=erin.user, revoked__isnull=True).exists()
