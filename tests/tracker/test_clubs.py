"""Clubs: starting one, joining by an invite link, organisers and members, what each may do.

Personas: the club's organiser, a member, a stranger (another club's organiser), a phone with
no account, and a signed-in account in no club.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tracker.models import Club, ClubInvite, Match, Membership, Player

from .helpers import club_account, text

pytestmark = pytest.mark.django_db


def club_state(club: Club) -> tuple:
    club.refresh_from_db()
    return (club.name, club.public_leaderboard, club.public_tournaments,
            sorted(club.memberships.values_list("user__username", "role")),
            sorted(club.invites.values_list("pk", "revoked")))


def test_an_account_starts_a_club_and_organises_it(db):
    ana = club_account("ana")
    response = ana.post(reverse("club_new"), {"name": "  Thursday   Night  "})
    club = Club.objects.get()
    assert response.status_code == 302 and response.url == club.get_absolute_url()
    assert club.name == "Thursday Night"
    assert club.memberships.get().role == Membership.ORGANISER
    page = text(ana.get(club.get_absolute_url()))
    assert "You organise this club." in page and "New invite link" in page


def test_a_phone_without_an_account_cannot_start_a_club(db):
    response = Client().post(reverse("club_new"), {"name": "Ghost Club"})
    assert response.status_code == 302 and "/accounts/sign-in/" in response.url
    assert not Club.objects.exists()


def test_a_club_needs_a_name(db):
    ana = club_account("ana")
    for name in ("", " ", "x" * 61):
        assert ana.post(reverse("club_new"), {"name": name}).status_code == 422
    assert not Club.objects.exists()


def test_joining_by_the_link_and_its_qr_code(club, organiser):
    organiser.post(reverse("club_invite_new", args=[club.pk]))
    invite = ClubInvite.objects.get()
    page = text(organiser.get(club.get_absolute_url()))
    assert f"/clubs/join/{invite.token}/" in page and 'class="qr"' in page
    newcomer = club_account("newcomer")
    url = reverse("club_join", args=[invite.token])
    assert "Join Friday Club" in text(newcomer.get(url))
    assert club.memberships.filter(user=newcomer.user).count() == 0, "opening the link joins nobody"
    assert newcomer.post(url).status_code == 302
    assert newcomer.post(url).status_code == 302, "a double tap joins once"
    assert club.memberships.filter(user=newcomer.user, role=Membership.MEMBER).count() == 1


def test_past_its_open_links_a_club_refuses_another_and_its_page_stays_small(club, organiser):
    from tracker.people.clubs import LINKS_MOST

    for _ in range(LINKS_MOST):
        assert organiser.post(reverse("club_invite_new", args=[club.pk])).status_code == 302
    full = len(organiser.get(club.get_absolute_url()).content)
    refused = organiser.post(reverse("club_invite_new", args=[club.pk]))
    page = text(organiser.get(refused.url))
    assert f"The club already has {LINKS_MOST} open invite links, the most it may" in page
    assert ClubInvite.objects.count() == LINKS_MOST
    page = organiser.get(club.get_absolute_url())
    assert page.content.count(b'class="qr"') == LINKS_MOST and len(page.content) <= full + 2000
    assert "+ New invite link" not in text(page)
    organiser.post(reverse("club_invite_revoke", args=[club.pk, ClubInvite.objects.first().pk]))
    assert organiser.post(reverse("club_invite_new", args=[club.pk])).status_code == 302
    assert ClubInvite.objects.filter(revoked__isnull=True).count() == LINKS_MOST


def test_a_phone_without_an_account_is_asked_to_sign_in_first(club, organiser):
    organiser.post(reverse("club_invite_new", args=[club.pk]))
    url = reverse("club_join", args=[ClubInvite.objects.get().token])
    phone = Client()
    page = text(phone.get(url))
    assert "Sign in to join" in page and "Sign up to join" in page and f"next={url}" in page.replace("%2F", "/")
    assert phone.post(url).status_code == 200
    assert club.memberships.count() == 1


@pytest.mark.parametrize("problem", ["revoked", "expired", "unknown", "malformed"])
def test_a_dead_link_says_why_and_joins_nobody(club, organiser, problem):
    organiser.post(reverse("club_invite_new", args=[club.pk]))
    invite = ClubInvite.objects.get()
    if problem == "revoked":
        organiser.post(reverse("club_invite_revoke", args=[club.pk, invite.pk]))
    elif problem == "expired":
        ClubInvite.objects.filter(pk=invite.pk).update(expires=timezone.now())
    token = {"unknown": "nope", "malformed": "a%00b"}.get(problem, invite.token)
    newcomer = club_account("newcomer")
    response = newcomer.post(f"/clubs/join/{token}/")
    assert response.status_code in (404, 410)
    assert {"revoked": "revoked", "expired": "expired"}.get(problem, "not valid") in text(response)
    assert club.memberships.count() == 1


def test_revoking_a_link_keeps_the_members_who_joined_with_it(club, organiser):
    organiser.post(reverse("club_invite_new", args=[club.pk]))
    invite = ClubInvite.objects.get()
    newcomer = club_account("newcomer")
    newcomer.post(reverse("club_join", args=[invite.token]))
    organiser.post(reverse("club_invite_revoke", args=[club.pk, invite.pk]))
    assert club.memberships.filter(user=newcomer.user).exists()


@pytest.mark.parametrize("write", ["invite", "revoke", "settings", "promote", "remove"])
def test_only_organisers_manage_the_club(club, organiser, member, stranger, write):
    organiser.post(reverse("club_invite_new", args=[club.pk]))
    invite = ClubInvite.objects.get()
    target = club.memberships.get(user=member.user)
    url, data = {
        "invite": (reverse("club_invite_new", args=[club.pk]), {}),
        "revoke": (reverse("club_invite_revoke", args=[club.pk, invite.pk]), {}),
        "settings": (reverse("club_settings", args=[club.pk]), {"public_leaderboard": "on"}),
        "promote": (reverse("club_member", args=[club.pk, target.pk]), {"do": "organiser"}),
        "remove": (reverse("club_member", args=[club.pk, target.pk]), {"do": "remove"}),
    }[write]
    before = club_state(club)
    assert member.post(url, data).status_code == 403
    assert stranger.post(url, data).status_code == 404
    assert Client().post(url, data).status_code == 404
    assert club_state(club) == before
    assert organiser.post(url, data).status_code == 302
    assert club_state(club) != before


def test_a_club_keeps_an_organiser(club, organiser, member):
    mine = club.memberships.get(user=organiser.user)
    organiser.post(reverse("club_leave", args=[club.pk]))
    organiser.post(reverse("club_member", args=[club.pk, mine.pk]), {"do": "member"})
    assert club.memberships.get(pk=mine.pk).role == Membership.ORGANISER
    assert "keeps at least one organiser" in text(organiser.get(club.get_absolute_url()))
    member.post(reverse("club_leave", args=[club.pk]))
    assert not club.memberships.filter(user=member.user).exists()


def test_leaving_is_a_second_step_that_says_what_it_ends(club, organiser, member):
    """A play-test found "Leave the club" touching "Save" and leaving in one tap: it is folded away now, and the fold
    says what leaving does to open matches, seats in open battles and a given name before its button."""
    for phone in (organiser, member):
        page = text(phone.get(club.get_absolute_url()))
        fold = re.search(r'<details class="second-step" id="leave">(.*?)</details>', page, re.S)
        assert fold and reverse("club_leave", args=[club.pk]) in fold.group(1)
        said = " ".join(fold.group(1).split())
        assert "count nowhere until an organiser takes them over" in said and "open battles" in said
        assert "A name the club gave you" in said
        assert page.count(reverse("club_leave", args=[club.pk])) == 1


def test_a_private_club_is_not_there_for_strangers(club, organiser, stranger):
    for phone in (stranger, Client()):
        assert phone.get(club.get_absolute_url()).status_code == 404
        assert "Friday Club" not in text(phone.get(reverse("club_list")))


def test_a_club_that_shows_its_results_names_itself_but_not_its_members(club, organiser, member):
    club.public_leaderboard = True
    club.save()
    page = text(Client().get(club.get_absolute_url()))
    assert "Friday Club" in page and ">mem<" not in page and "Invite links" not in page


def test_a_member_starts_a_match_in_the_club_and_members_see_it(club, organiser, member, stranger, catalog):
    data = {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score", "club": club.pk}
    assert member.post(reverse("match_new", args=["card-crush"]), data).status_code == 302
    match = Match.objects.get()
    assert match.club == club and match.owner == member.user and match.owner_device == ""
    assert organiser.get(match.get_absolute_url()).status_code == 200
    assert stranger.get(match.get_absolute_url()).status_code == 404


def test_the_new_match_page_says_who_sees_a_match_with_and_without_the_club(club, member, catalog):
    page = text(member.get(reverse("match_new", args=["card-crush"])))
    select = page.split('name="club"', 1)[1].split("</select>", 1)[0]
    assert "No club (private)" in select and "Friday Club" in select
    assert 'aria-describedby="id_club_help"' in page.split('name="club"', 1)[0].rsplit("<select", 1)[1] + select
    help_text = page.split('id="id_club_help">', 1)[1].split("</p>", 1)[0]
    assert "only you and the phones you invite see the match" in help_text
    assert "members can watch it" in help_text


def test_a_match_cannot_be_put_in_someone_elses_club(club, organiser, stranger, catalog):
    data = {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score", "club": club.pk}
    response = stranger.post(reverse("match_new", args=["card-crush"]), data)
    assert response.status_code == 422
    assert not Match.objects.exists()


def test_the_competition_pages_are_reached_from_the_main_menu(db):
    home = text(Client().get(reverse("home")))
    assert f'href="{reverse("club_list")}"' in home
    clubs = text(Client().get(reverse("club_list")))
    for name in ("ratings_index", "tournaments_index", "collection_index"):
        assert f'href="{reverse(name)}"' in clubs, name


def test_a_settings_form_drawn_before_another_organisers_change_leaves_that_change_alone(club, organiser, member):
    """Ana opens the club page; Ben, another organiser, makes the tournaments public; Ana then ticks the
    leaderboard on her page as drawn. Both are public: her page still showed the tournaments' box empty,
    and sending it used to make them private again without a word."""
    club.memberships.filter(user=member.user).update(role=Membership.ORGANISER)
    page = text(organiser.get(club.get_absolute_url()))
    drawn = dict(re.findall(r'<input type="hidden" name="(drawn_\w+)" value="([01])">', page))
    assert drawn == {"drawn_public_leaderboard": "0", "drawn_public_tournaments": "0"}
    url = reverse("club_settings", args=[club.pk])
    member.post(url, {"public_tournaments": "on", **drawn})
    organiser.post(url, {"public_leaderboard": "on", **drawn})
    club.refresh_from_db()
    assert club.public_leaderboard and club.public_tournaments
    organiser.post(url, {"public_leaderboard": "on", "drawn_public_leaderboard": "1", "drawn_public_tournaments": "1"})
    club.refresh_from_db()
    assert club.public_leaderboard and not club.public_tournaments, "a box she emptied herself is saved"


def test_a_remove_drawn_before_another_organiser_promoted_the_member_changes_nothing(club, organiser, member):
    """Ana's page shows Mem as a member; Dev makes Mem an organiser; Ana's "Remove", sent from her page as drawn,
    took out the club's new organiser."""
    dev = club_account("dev", club, Membership.ORGANISER)
    page = text(organiser.get(club.get_absolute_url()))
    target = club.memberships.get(user=member.user)
    assert 'name="was" value="member"' in page
    url = reverse("club_member", args=[club.pk, target.pk])
    dev.post(url, {"do": "organiser", "was": "member"})
    Player.objects.create(name="Chloé", user=member.user)
    response = organiser.post(url, {"do": "remove", "was": "member"}, follow=True)
    assert "Chloé&#x27;s role changed since this page was drawn" in text(response), "named as the list names her"
    assert club.memberships.get(pk=target.pk).role == Membership.ORGANISER
    page = text(organiser.get(club.get_absolute_url()))
    assert re.search(r"since [^<]*, by dev", page), "who made her an organiser, and when, on the club page"
    organiser.post(url, {"do": "remove", "was": "organiser"})
    assert not club.memberships.filter(pk=target.pk).exists()


def test_a_removed_member_does_not_join_again_by_a_link_made_before_the_removal(club, organiser):
    """Round 35: a member an organiser removed tapped the link he had joined by, still open, and was a member again at
    once, undoing the organisers' decision alone. A link made after the removal is the organisers' new word."""
    organiser.post(reverse("club_invite_new", args=[club.pk]))
    old = reverse("club_join", args=[ClubInvite.objects.get().token])
    eve = club_account("eve")
    assert eve.post(old).status_code == 302
    removed = club.memberships.get(user=eve.user)
    assert organiser.post(reverse("club_member", args=[club.pk, removed.pk]), {"do": "remove", "was": "member"}
                          ).status_code == 302
    refused = eve.post(old)
    assert refused.status_code == 403 and "removed you from Friday Club" in text(refused)
    assert not club.memberships.filter(user=eve.user).exists()
    assert "removed you from Friday Club" in text(eve.get(old)), "the link's page says so before the tap"
    newcomer = club_account("newcomer")
    assert newcomer.post(old).status_code == 302, "the link still joins everyone else"
    organiser.post(reverse("club_invite_new", args=[club.pk]))
    new = reverse("club_join", args=[ClubInvite.objects.latest("pk").token])
    assert eve.post(new).status_code == 302 and club.memberships.filter(user=eve.user).exists()
