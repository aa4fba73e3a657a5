"""Join and watch links: taking a seat, taken seats, expired and revoked links, QR codes, sharing.

Cast as in test_access: the owner's phone started "Ana vs Ben" (private); other phones are
separate test clients that open the links the owner makes.
"""

import re
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tracker.models import Access, Invite, Match
from tracker.people import access

from .helpers import (
    device_of,
    join,
    join_url,
    make_invite,
    state_of,
)
from .helpers import page_text as text
from .helpers import text as raw_text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def poll(client: Client, match: Match, version: int):
    return client.get(reverse("match_poll", args=[match.pk]), {"v": version})


def revoke(owner: Client, invite: Invite):
    return owner.post(reverse("invite_revoke", args=[invite.match_id, invite.pk]))


# ---------------------------------------------------------------- taking a seat


def test_join_page_names_the_seat_and_the_match(owner, battle):
    invite = make_invite(owner, battle, "seat", 1)
    response = Client().get(join_url(invite))
    assert response.status_code == 200
    html = text(response)
    assert f"Join Card Crush #{battle.pk}" in html
    assert "Ana vs Ben" in html
    assert "Play as Ben on this phone" in html
    assert not Access.objects.exists()  # looking at the link changes nothing


def test_join_link_seats_the_device_as_that_player(owner, battle):
    invite = make_invite(owner, battle, "seat", 1)
    phone = Client()
    response = join(phone, invite)
    assert response.url == battle.get_absolute_url()
    seat = Access.objects.get()
    assert (seat.match, seat.device, seat.role, seat.seat, seat.invite) == (
        battle, device_of(phone), "player", 1, invite)
    page = text(phone.get(response.url))
    assert page.count("You play as Ben on this phone.") == 2  # told once, as a message...
    assert "◉ You play as Ben on this phone." in page  # ...and shown for as long as it holds the seat
    assert "Lock in your deck</a>" in page


def test_watch_link_lets_the_device_watch(owner, battle):
    invite = make_invite(owner, battle, "watch")
    phone = Client()
    assert "Watch on this phone" in text(phone.get(join_url(invite)))
    join(phone, invite)
    assert Access.objects.get().role == "spectator"
    page = text(phone.get(battle.get_absolute_url()))
    assert "You are watching this match." in page
    assert "◎ You are watching; this page follows the match by itself." in page


def test_one_watch_link_serves_any_number_of_phones(owner, battle):
    invite = make_invite(owner, battle, "watch")
    phones = [Client() for _ in range(3)]
    for phone in phones:
        join(phone, invite)
        assert phone.get(battle.get_absolute_url()).status_code == 200
    assert Access.objects.filter(role="spectator").count() == 3
    assert "3 phones joined" in text(owner.get(battle.get_absolute_url()))


def test_a_seat_already_taken_is_refused_with_409_and_nothing_changes(owner, battle):
    invite = make_invite(owner, battle, "seat", 1)
    join(Client(), invite)
    second = Client()
    before = state_of(battle)
    for response in (second.get(join_url(invite)), second.post(join_url(invite))):
        assert response.status_code == 409
        assert "Ben's seat is already taken by another phone." in text(response)
    assert state_of(battle) == before
    assert second.get(battle.get_absolute_url()).status_code == 404


def test_a_second_link_for_a_taken_seat_is_refused_too(owner, battle):
    join(Client(), make_invite(owner, battle, "seat", 1))
    second_link = make_invite(owner, battle, "seat", 1)
    response = Client().post(join_url(second_link))
    assert response.status_code == 409
    assert Access.objects.count() == 1


def test_two_phones_racing_for_one_seat_one_gets_409(owner, battle, monkeypatch):
    """Both passed the "is it free?" check; the database's one-phone-per-seat rule decides."""
    invite = make_invite(owner, battle, "seat", 1)
    join(Client(), invite)
    monkeypatch.setattr(access, "viewer_claims", lambda match: frozenset())  # the check ran before the first commit
    response = Client().post(join_url(invite))
    assert response.status_code == 409
    assert "That seat was taken a moment ago." in text(response)
    assert Access.objects.count() == 1


def test_the_database_allows_only_one_phone_per_seat(owner, battle):
    Access.objects.create(match=battle, device="a", role="player", seat=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Access.objects.create(match=battle, device="b", role="player", seat=1)


def test_owner_opening_their_own_link_is_sent_to_the_match(owner, battle):
    invite = make_invite(owner, battle, "seat", 1)
    for response in (owner.get(join_url(invite)), owner.post(join_url(invite))):
        assert response.status_code == 302
        assert response.url == battle.get_absolute_url()
    assert "This phone is already part of the match." in text(owner.get(battle.get_absolute_url()))
    assert not Access.objects.exists()


def test_a_seated_phone_opening_another_link_keeps_its_seat(owner, battle):
    phone = Client()
    join(phone, make_invite(owner, battle, "seat", 1))
    for link in (make_invite(owner, battle, "seat", 0), make_invite(owner, battle, "watch")):
        response = phone.post(join_url(link))
        assert response.status_code == 302
    assert list(Access.objects.values_list("role", "seat")) == [("player", 1)]


def test_a_spectator_can_take_a_seat_with_a_seat_link(owner, battle):
    phone = Client()
    join(phone, make_invite(owner, battle, "watch"))
    seat_link = make_invite(owner, battle, "seat", 0)
    assert "Play as Ana on this phone" in text(phone.get(join_url(seat_link)))
    join(phone, seat_link)
    assert list(Access.objects.values_list("device", "role", "seat")) == [(device_of(phone), "player", 0)]
    assert "◉ You play as Ana on this phone." in text(phone.get(battle.get_absolute_url()))
    assert phone.get(reverse("match_entry", args=[battle.pk, 0])).status_code == 200


def test_a_stranger_to_a_private_match_can_take_a_seat_by_its_link(owner, battle):
    phone = Client()
    join(phone, make_invite(owner, battle, "seat", 1))
    assert Access.objects.get().seat == 1


# ---------------------------------------------------------------- links that no longer work


def test_an_unknown_link_is_404_with_a_clear_message(battle):
    for token in ("nope", "x" * 200, "%00", "a%00b", "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"):
        response = Client().get(f"/join/{token}/")
        assert response.status_code == 404
        assert "This link is not valid. Ask for a new one." in text(response)
        assert "<img src=x" not in raw_text(response)
    assert Client().post(reverse("join", args=["nope"])).status_code == 404
    assert not Access.objects.exists()


def test_an_expired_link_is_410_and_seats_nobody(owner, battle):
    invite = make_invite(owner, battle, "seat", 1)
    Invite.objects.filter(pk=invite.pk).update(expires=timezone.now() - timedelta(minutes=1))
    phone = Client()
    before = state_of(battle)
    for response in (phone.get(join_url(invite)), phone.post(join_url(invite))):
        assert response.status_code == 410
        assert "This link has expired. Ask for a new one." in text(response)
        assert "Play as Ben" not in text(response)
    assert state_of(battle) == before
    assert phone.get(battle.get_absolute_url()).status_code == 404


def test_an_expired_link_leaves_the_owners_panel(owner, battle):
    invite = make_invite(owner, battle, "watch")
    assert invite.token in text(owner.get(battle.get_absolute_url()))
    Invite.objects.filter(pk=invite.pk).update(expires=timezone.now() - timedelta(minutes=1))
    assert invite.token not in text(owner.get(battle.get_absolute_url()))


def test_links_last_a_week(owner, battle):
    invite = make_invite(owner, battle, "watch")
    assert timedelta(days=6, hours=23) < invite.expires - timezone.now() <= timedelta(days=7)


def test_a_revoked_link_is_410_and_seats_nobody(owner, battle):
    invite = make_invite(owner, battle, "seat", 1)
    assert revoke(owner, invite).status_code == 302
    phone = Client()
    before = state_of(battle)
    for response in (phone.get(join_url(invite)), phone.post(join_url(invite))):
        assert response.status_code == 410
        assert "This link was revoked by the match's owner. Ask for a new one." in text(response)
    assert state_of(battle) == before


def test_revoking_a_seat_link_ends_the_access_it_granted(owner, battle):
    invite = make_invite(owner, battle, "seat", 1)
    phone = Client()
    join(phone, invite)
    assert phone.get(battle.get_absolute_url()).status_code == 200
    response = revoke(owner, invite)
    assert response.url == battle.get_absolute_url() + "#share"
    assert "Link revoked; phones that joined with it lost their access." in text(owner.get(response.url))
    for url in (battle.get_absolute_url(), reverse("match_poll", args=[battle.pk]),
                reverse("match_log", args=[battle.pk]), reverse("match_entry", args=[battle.pk, 1])):
        assert phone.get(url).status_code == 403, url  # told why it lost access, not a bare "not found"
    assert "was revoked" in text(phone.get(battle.get_absolute_url()))
    assert Access.objects.get().revoked is not None


def test_revoking_a_watch_link_ends_every_spectators_access(owner, battle):
    invite = make_invite(owner, battle, "watch")
    phones = [Client(), Client()]
    for phone in phones:
        join(phone, invite)
    revoke(owner, invite)
    assert [phone.get(battle.get_absolute_url()).status_code for phone in phones] == [403, 403]  # told why


def test_revoking_one_link_leaves_the_others(owner, battle):
    seat_link, watch_link = make_invite(owner, battle, "seat", 1), make_invite(owner, battle, "watch")
    player, spectator = Client(), Client()
    join(player, seat_link)
    join(spectator, watch_link)
    revoke(owner, watch_link)
    assert player.get(battle.get_absolute_url()).status_code == 200
    assert spectator.get(battle.get_absolute_url()).status_code == 403  # told why


def test_revoking_twice_says_so_and_changes_nothing(owner, battle):
    invite = make_invite(owner, battle, "watch")
    revoke(owner, invite)
    invite.refresh_from_db()
    before = state_of(battle)
    response = revoke(owner, invite)
    assert response.status_code == 302
    assert "That link was already revoked." in text(owner.get(response.url))
    assert state_of(battle) == before


def test_revoking_a_link_of_another_match_is_refused(owner, battle, catalog):
    from .helpers import start_battle

    other = start_battle(owner, "Cleo", "Dan")
    invite = make_invite(owner, other, "watch")
    owner.post(reverse("invite_revoke", args=[battle.pk, invite.pk]))
    invite.refresh_from_db()
    assert invite.revoked is None


def test_after_revoking_the_seat_can_be_given_to_another_phone(owner, battle):
    first_link = make_invite(owner, battle, "seat", 1)
    first, second = Client(), Client()
    join(first, first_link)
    revoke(owner, first_link)
    join(second, make_invite(owner, battle, "seat", 1))
    assert second.get(reverse("match_entry", args=[battle.pk, 1])).status_code == 200
    assert first.get(battle.get_absolute_url()).status_code == 403  # told why


def test_after_revoking_the_same_phone_can_rejoin_with_a_new_link(owner, battle):
    phone = Client()
    first_link = make_invite(owner, battle, "seat", 1)
    join(phone, first_link)
    revoke(owner, first_link)
    join(phone, make_invite(owner, battle, "seat", 1))
    assert phone.get(battle.get_absolute_url()).status_code == 200
    assert Access.objects.filter(revoked__isnull=True).count() == 1


# ---------------------------------------------------------------- making links


@pytest.mark.parametrize("data", [{"kind": "seat", "seat": "2"}, {"kind": "seat", "seat": "-1"},
                                  {"kind": "seat", "seat": "x"}, {"kind": "seat"}, {"kind": "bogus"}, {},
                                  {"kind": "seat", "seat": "9" * 40}])
def test_a_link_for_no_seat_of_the_match_is_refused_with_a_message(owner, battle, data):
    response = owner.post(reverse("invite_new", args=[battle.pk]), data)
    assert response.status_code == 302
    page = text(owner.get(response.url))
    assert "Choose a seat of this match." in page or "Choose a join link or a watch link." in page
    assert not Invite.objects.exists()


def test_invite_refuses_get(owner, battle):
    response = owner.get(reverse("invite_new", args=[battle.pk]))
    assert response.status_code == 302 and response["Location"] == battle.get_absolute_url()
    assert not Invite.objects.exists()


def test_the_panel_stops_offering_a_link_for_a_seat_already_invited(owner, battle):
    page = text(owner.get(battle.get_absolute_url()))
    assert "+ Join link for Ana" in page and "+ Join link for Ben" in page
    make_invite(owner, battle, "seat", 1)
    page = text(owner.get(battle.get_absolute_url()))
    assert "+ Join link for Ana" in page and "+ Join link for Ben" not in page
    assert "Join as Ben" in page


def test_the_panel_says_who_else_can_see_the_match(owner, battle):
    assert "Private: only you and the phones you invite can see it." in text(owner.get(battle.get_absolute_url()))


# ---------------------------------------------------------------- QR codes


QR = re.compile(r'<svg[^>]*class="qr"')


def test_the_owners_page_shows_a_qr_code_per_link(owner, battle):
    seat_link, watch_link = make_invite(owner, battle, "seat", 1), make_invite(owner, battle, "watch")
    page = text(owner.get(battle.get_absolute_url()))
    assert len(QR.findall(page)) == 2
    assert "QR code for this link" in page
    for invite in (seat_link, watch_link):
        assert f'value="http://testserver{join_url(invite)}"' in page  # the full link, to send or copy
    assert "style=" not in page.split('class="share"', 1)[1]  # no inline style under the CSP


def test_the_qr_code_carries_the_join_link():
    from tracker.people.sharing import qr_svg

    svg = qr_svg("http://testserver/join/abc/")
    assert svg.startswith("<svg") and 'class="qr"' in svg
    assert "<script" not in svg and "style" not in svg


def test_past_its_open_links_a_match_refuses_another_and_its_page_stays_small(owner, battle):
    """Each link is drawn with its QR code on every visit: hundreds made the owner's page 800 KB."""
    from tracker.people.sharing import LINKS_MOST

    links = [make_invite(owner, battle, "watch") for _ in range(LINKS_MOST)]
    full = len(owner.get(battle.get_absolute_url()).content)
    for data in ({"kind": "watch"}, {"kind": "seat", "seat": 1}):
        refused = owner.post(reverse("invite_new", args=[battle.pk]), data)
        assert refused.status_code == 302
        page = text(owner.get(refused.url))
        assert f"This match already has {LINKS_MOST} open links, the most it may" in page
        assert "Nothing was changed." in page
    assert Invite.objects.count() == LINKS_MOST
    page = owner.get(battle.get_absolute_url())
    assert len(QR.findall(text(page))) == LINKS_MOST and len(page.content) <= full + 2000
    assert "revoke one to make another" in text(page) and "+ Watch link" not in text(page)
    revoke(owner, links[0])
    make_invite(owner, battle, "seat", 1)  # a revoked link makes room


def test_no_qr_code_once_the_link_is_revoked(owner, battle):
    revoke(owner, make_invite(owner, battle, "watch"))
    assert not QR.search(text(owner.get(battle.get_absolute_url())))


@pytest.mark.parametrize("who", ["player", "spectator", "club-member"])
def test_nobody_but_the_owner_sees_qr_codes_or_link_tokens(owner, battle, who):
    seat_link, watch_link = make_invite(owner, battle, "seat", 1), make_invite(owner, battle, "watch")
    phone = Client()
    if who == "player":
        join(phone, seat_link)
    elif who == "spectator":
        join(phone, watch_link)
    else:
        from django.contrib.auth import get_user_model

        from tracker.models import Club, Match, Membership

        club = Club.objects.create(name="Games Night")
        user = get_user_model().objects.create_user("mo")
        Membership.objects.create(club=club, user=user, role=Membership.ORGANISER)
        Match.objects.filter(pk=battle.pk).update(club=club)
        phone.force_login(user)
    page = text(phone.get(battle.get_absolute_url()))
    assert not QR.search(page)
    assert seat_link.token not in page and watch_link.token not in page
    assert "Other phones: join or watch" not in page


# ---------------------------------------------------------------- live views notice who joined


def test_joining_bumps_the_version_so_live_views_refresh(owner, battle):
    battle.refresh_from_db()
    version = battle.version
    assert poll(owner, battle, version).status_code == 204
    join(Client(), make_invite(owner, battle, "seat", 1))
    response = poll(owner, battle, version)
    assert response.status_code == 200
    assert response.json()["version"] == version + 1
    assert "Ben locks in on their own phone." in text(owner.get(battle.get_absolute_url()))


def test_revoking_bumps_the_version_so_live_views_refresh(owner, battle):
    invite = make_invite(owner, battle, "seat", 1)
    join(Client(), invite)
    battle.refresh_from_db()
    version = battle.version
    revoke(owner, invite)
    assert poll(owner, battle, version).json()["version"] == version + 1


def test_a_refused_join_does_not_bump_the_version(owner, battle):
    invite = make_invite(owner, battle, "seat", 1)
    join(Client(), invite)
    battle.refresh_from_db()
    Client().post(join_url(invite))
    assert poll(owner, battle, battle.version).status_code == 204


# ---------------------------------------------------------------- signed-in phones


def test_a_signed_in_watcher_who_takes_a_seat_on_another_phone_plays_there(owner, battle, db):
    from django.contrib.auth import get_user_model

    from .helpers import PASSWORD, sign_in

    get_user_model().objects.create_user("ben", password=PASSWORD)
    sofa, table = Client(), Client()
    for phone in (sofa, table):
        assert sign_in(phone, "ben").status_code == 302
    join(sofa, make_invite(owner, battle, "watch"))  # Ben first watches from the sofa...
    join(table, make_invite(owner, battle, "seat", 1))  # ...then takes his seat on the phone at the table
    table.get(battle.get_absolute_url())  # (the flash message "You play as Ben on this phone." is shown once)
    page = text(table.get(battle.get_absolute_url()))
    assert "◉ You play as Ben on this phone." in page and "You are watching" not in page
    assert table.get(reverse("match_entry", args=[battle.pk, 1])).status_code == 200


def test_the_owner_can_still_revoke_a_phone_after_its_link_expired(owner, battle):
    invite = make_invite(owner, battle, "seat", 1)
    phone = Client()
    join(phone, invite)
    Invite.objects.filter(pk=invite.pk).update(expires=timezone.now() - timedelta(minutes=1))
    assert phone.get(battle.get_absolute_url()).status_code == 200  # the seat outlives the link, as it should
    page = text(owner.get(battle.get_absolute_url()))
    assert reverse("invite_revoke", args=[battle.pk, invite.pk]) in page
