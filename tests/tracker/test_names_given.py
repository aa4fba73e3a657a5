"""A name in a club's records is given to a member by an organiser of that club, never taken by signing up with it.

Round 11 of the adversarial tests: Erin, a regular the organiser enters by name, had no account. Dev signed up a
second account as Erin (outside the club), and from then on every battle Dev set up against "Erin" took that
account's lock-in as Erin's own word: Dev farmed Erin's rating down with no organiser involved. So a name others
put in a club's battles, tournaments or collections is not taken by a sign-up; an organiser gives it to a member
(tracker/people/clubs.give_name). Round 12 then gave Erin's name in a club of his own, where he organised, and it
counted in Erin's club: a given name is the member's in the club that gave it, nowhere else (models.players_of).
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tracker.competition import collection, confirmations, tournaments
from tracker.matches import services
from tracker.models import Club, CollectionCard, Membership, Player, players_of

from .helpers import PASSWORD, club_account
from .helpers import page_text as text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def sign_up(name: str, username: str = "newbie") -> tuple[Client, object]:
    phone = Client()
    response = phone.post(reverse("sign_up"), {"username": username, "password1": PASSWORD,
                                               "password2": PASSWORD, "player_name": name})
    return phone, response


def give(phone: Client, club, user, name: str, do: str = "name"):
    membership = club.memberships.get(user=user)
    return phone.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": do, "name": name})


def battle(club, *names: str):
    return services.match_create(slug="card-crush", player_names=list(names), config={}, club=club)


@pytest.fixture
def erin_in_battles(club, catalog):
    """Erin, with no account, seated in a battle of the club."""
    return battle(club, "Ben", "Erin")


@pytest.mark.parametrize("record", ["battle", "entrant", "collection"])
def test_a_name_in_a_club_s_records_is_not_taken_by_signing_up(club, catalog, record):
    if record == "battle":
        battle(club, "Ben", "Erin")
    elif record == "entrant":
        tournaments.tournament_create(name="Spring Cup", player_names=["Erin", "Ben"], club=club)
    else:
        CollectionCard.objects.create(player=services.player_named("Erin"), club=club, card=catalog["Ember Fox"])
    phone, response = sign_up("ERIN")  # in any letter case
    page = text(response)
    assert response.status_code == 422 and "Erin already plays in a club's battles" in page
    assert 'value="newbie"' in page, "the refusal keeps what was typed"
    fields = re.findall(r"<input [^>]*>", page)
    focused = [field for field in fields if " autofocus" in field]
    assert len(focused) == 1 and 'name="player_name"' in focused[0], "the page opens on the refused name"
    assert fields.index(focused[0]) < min(i for i, field in enumerate(fields) if 'type="password"' in field)
    assert Player.objects.get(name="Erin").user is None
    assert not Player.objects.filter(user__isnull=False).exists()


def test_a_name_only_in_private_matches_or_new_is_taken_by_signing_up(catalog):
    services.match_create(slug="card-crush", player_names=["Ben", "Erin"], config={})
    assert sign_up("Erin")[1].status_code == 302
    assert Player.objects.get(name="Erin").user.username == "newbie"
    assert sign_up("Fay", "fay")[1].status_code == 302


def test_an_organiser_gives_the_name_in_her_club_for_battles_set_up_after(club, organiser, erin_in_battles):
    before = erin_in_battles
    phone, response = sign_up("Erin Ward")
    assert response.status_code == 302
    erins = Player.objects.get(name="Erin Ward").user
    Membership.objects.create(club=club, user=erins)
    page = text(organiser.get(club.get_absolute_url()))
    assert page.count("Give them a name from the club's records") == 1, "not to herself"
    assert '<option value="Erin">' in page
    response = give(organiser, club, erins, "erin")
    assert response.status_code == 302
    erin = Player.objects.get(name="Erin")
    membership = club.memberships.get(user=erins)
    assert (membership.plays_as, membership.given_by) == (erin, organiser.user) and membership.given_at
    assert erin.user is None and Player.objects.get(name="Erin Ward").user == erins, "both names stay as they were"
    page = text(organiser.get(club.get_absolute_url()))
    assert "plays as Erin here: name given" in page and "by orga" in page
    assert '<option value="Erin">' not in page and "Take back Erin" in page
    after = battle(club, "Ben", "Erin")
    assert confirmations.seat_of(before, erins) is None, "set up before the name was given"
    assert confirmations.seat_of(after, erins) == 1
    assert after.sided_with(erins) and not before.sided_with(club_account("someone").user)


def test_a_name_given_in_a_club_of_one_s_own_speaks_nowhere_else(club, organiser, erin_in_battles, catalog):
    """Round 12: Ben started a club, put Erin in a battle there and gave her name to his second account. In Erin's
    club that account is not Erin: it neither confirms nor takes her seat nor keeps her collection there."""
    ben = club_account("ben")
    dens = Club.objects.create(name="Ben's Den")
    Membership.objects.create(club=dens, user=ben.user, role=Membership.ORGANISER)
    alt = club_account("benalt", dens)
    battle(dens, "Ben", "Erin")
    assert give(ben, dens, alt.user, "Erin").status_code == 302
    rigged = battle(club, "Ben", "Erin")
    Membership.objects.create(club=club, user=alt.user)
    assert confirmations.seat_of(rigged, alt.user) is None
    assert confirmations.seat_of(battle(dens, "Ben", "Erin"), alt.user) == 1, "in Ben's own club it is his to say"
    assert not rigged.sided_with(alt.user)
    erin = Player.objects.get(name="Erin")
    CollectionCard.objects.create(player=erin, club=club, card=catalog["Ember Fox"])
    assert collection.change_refusal(alt.user, erin, club), "not Erin's account in her club"
    assert not collection.change_refusal(alt.user, erin, dens)
    assert erin.pk not in players_of(alt.user, club.pk) and erin.pk in players_of(alt.user, dens.pk)
    # Erin's own club gives her name to her, unhindered by Ben's club.
    real = club_account("erin", club)
    assert give(organiser, club, real.user, "Erin").status_code == 302
    assert confirmations.seat_of(battle(club, "Ben", "Erin"), real.user) == 1


def test_a_name_is_taken_back_and_goes_with_the_membership(club, organiser, erin_in_battles):
    fresh = club_account("fresh", club)
    give(organiser, club, fresh.user, "Erin")
    assert give(organiser, club, fresh.user, "", do="unname").status_code == 302
    assert club.memberships.get(user=fresh.user).plays_as is None
    assert confirmations.seat_of(battle(club, "Ben", "Erin"), fresh.user) is None
    give(organiser, club, fresh.user, "Erin")
    fresh.post(reverse("club_leave", args=[club.pk]))
    assert players_of(fresh.user, club.pk).keys() == set(Player.objects.filter(user=fresh.user).values_list(
        "pk", flat=True))


def test_giving_a_name_is_refused_where_it_would_take_a_side(club, organiser, member, catalog, erin_in_battles):
    """To oneself, by an organiser playing in a running tournament of the club, a name outside the club's records
    or an account's own, a name given to another member, a second name: refused, nothing changed, the name
    typed kept in its field."""
    fresh = club_account("fresh", club)
    Player.objects.create(name="Kai", user=club_account("kai").user)
    battle(club, "Ben", "Kai")
    battle(None, "Ben", "Quinn")  # no club record
    other = Club.objects.create(name="Other Club")
    battle(other, "Ben", "Uma")
    battle(club, "Ben", "Noor")
    give(organiser, club, member.user, "Noor")
    response = give(organiser, club, organiser.user, "Erin")  # no form for it on the page
    assert response.status_code == 302 and "Another organiser gives you a name" in text(organiser.get(response.url))
    cases = [
        (fresh.user, "Quinn", "Nobody called Quinn is in the club's"),
        (fresh.user, "Uma", "Nobody called Uma is in the club's"),
        (fresh.user, "Kai", "Kai is already the name of an account"),
        (fresh.user, "Noor", "Noor is already given to another member"),
        (member.user, "Erin", "already plays as Noor in the club"),
    ]
    for user, name, why in cases:
        response = give(organiser, club, user, name)
        page = text(response)
        assert response.status_code == 409 and why in page, (name, page[:300])
        assert f'value="{name}" autofocus aria-invalid="true"' in page
    assert give(member, club, fresh.user, "Erin").status_code == 403
    tournaments.tournament_create(name="Spring Cup", player_names=["Orga", "Ben"], club=club)
    Player.objects.filter(name="Orga").update(user=organiser.user)
    response = give(organiser, club, fresh.user, "Erin")
    assert response.status_code == 409 and "gives and takes back no names: another organiser does" in text(response)
    assert give(organiser, club, member.user, "", do="unname").status_code == 302
    assert club.memberships.get(user=member.user).plays_as.name == "Noor", "nor takes one back"
    assert not club.memberships.filter(user=fresh.user, plays_as__isnull=False).exists()


def test_taking_a_name_back_or_leaving_ends_the_seats_it_gave(club, organiser, erin_in_battles):
    """Round 13: the seat a member took by opening a battle that names them stayed theirs after the name was taken
    back or they left, and a tournament battle counted their lock-in."""
    for end in ("unname", "leave"):
        fresh = club_account(f"fresh-{end}", club)
        give(organiser, club, fresh.user, "Erin")
        under_way = battle(club, "Ben", "Erin")
        assert "You play as Erin" in text(fresh.get(under_way.get_absolute_url()))
        seated = under_way.accesses.get(user=fresh.user)
        assert seated.seat == 1 and seated.revoked is None
        if end == "unname":
            give(organiser, club, fresh.user, "", do="unname")
        else:
            fresh.post(reverse("club_leave", args=[club.pk]))
        seated.refresh_from_db()
        assert seated.revoked is not None, end
        assert "You play as Erin" not in text(fresh.get(under_way.get_absolute_url()))
        under_way.refresh_from_db()
        assert not under_way.accesses.filter(revoked__isnull=True, role="player").exists()


def test_a_name_speaks_neither_where_its_giver_is_a_side_nor_twice_in_one_battle(club, organiser, member,
                                                                                 erin_in_battles):
    """Round 13: an organiser gave a regular's name to a second account of hers and played against it: its lock-in
    confirmed the regular's loss. And a member given a second name played himself: his lock-in confirmed both."""
    Player.objects.create(name="Orga", user=organiser.user)
    alt = club_account("alt", club)
    give(organiser, club, alt.user, "Erin")
    assert confirmations.seat_of(battle(club, "Orga", "Erin"), alt.user) is None, "the giver plays in it"
    assert confirmations.seat_of(battle(club, "Ben", "Erin"), alt.user) == 1
    give(organiser, club, alt.user, "", do="unname")
    Player.objects.create(name="Dev", user=member.user)
    give(organiser, club, member.user, "Erin")
    assert confirmations.seat_of(battle(club, "Ben", "Erin"), member.user) == 1
    assert confirmations.seat_of(battle(club, "Erin", "Dev"), member.user) is None, "both its players"


def test_an_organiser_who_is_two_entrants_drops_either_of_hers_and_no_rival(club, organiser, catalog):
    Player.objects.create(name="Orga", user=organiser.user)
    cup = tournaments.tournament_create(name="Spring Cup", player_names=["Orga", "Erin", "Ben", "Kim"], club=club)
    other = club_account("other", club, Membership.ORGANISER)
    assert give(other, club, organiser.user, "Erin").status_code == 302
    entrants = {e.player.name: e.pk for e in cup.entrants.select_related("player")}
    drop = reverse("tournament_drop", args=[cup.pk])
    refused = organiser.post(drop, {"round": 0, "entrant": entrants["Ben"]})
    assert refused.status_code == 403 and "another organiser of the club drops Ben" in text(refused)
    for hers in ("Erin", "Orga"):
        assert organiser.post(drop, {"round": 0, "entrant": entrants[hers]}).status_code == 302, hers
        assert cup.entrants.get(pk=entrants[hers]).dropped_after is not None


def test_the_battle_page_says_whose_gift_a_confirming_name_is(club, organiser, catalog):
    """Round 14: an organiser's second account, made an organiser, gave a rival's name to a third account of hers;
    its lock-in read as the rival's own, and a tournament battle its pairing had not confirmed showed no line of
    how it was. The battle page says a member plays as that name and who gave it, tournament battles too."""
    from tracker.models import Confirmation

    cup = tournaments.tournament_create(name="Edge Cup", player_names=["Quinn", "Ben"], club=club)
    alt = club_account("alt", club)
    assert give(organiser, club, alt.user, "Quinn").status_code == 302
    pairing = tournaments.round_pair(tournament_id=cup.pk, expected_round=0)[0]
    seat = next(s for s, p in enumerate(pairing.match.players()) if p.name == "Quinn")
    Confirmation.objects.create(match=pairing.match, seat=seat, kind=Confirmation.SEATED, by=alt.user)
    page = text(organiser.get(reverse("battle_rating", args=[pairing.match.pk])))
    assert "a member plays as this name, given by orga" in page
    assert "✓ Confirmed by its players" in page, "a tournament battle its players confirmed says how"
