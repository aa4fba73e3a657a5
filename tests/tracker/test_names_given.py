"""A name in a club's records is given to an account by an organiser, never taken by signing up with it.

Round 11 of the adversarial tests: Erin, a regular the organiser enters by name, had no account. Dev signed up a
second account as Erin (outside the club), and from then on every battle Dev set up against "Erin" took that
account's lock-in as Erin's own word: Dev farmed Erin's rating down with no organiser involved. An organiser who
played in her own tournament did the same with a rival's name. So a name others put in a club's battles,
tournaments or collections is not taken by a sign-up; an organiser who knows the person gives it
(tracker/people/clubs.give_name), and the club page says who did and when.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tracker.competition import confirmations, tournaments
from tracker.matches import services
from tracker.models import CollectionCard, Membership, Player

from .helpers import PASSWORD, club_account
from .helpers import page_text as text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def sign_up(name: str, username: str = "newbie") -> tuple[Client, object]:
    phone = Client()
    response = phone.post(reverse("sign_up"), {"username": username, "password1": PASSWORD,
                                               "password2": PASSWORD, "player_name": name})
    return phone, response


def give(phone: Client, club, user, name: str):
    membership = club.memberships.get(user=user)
    return phone.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": "name", "name": name})


@pytest.fixture
def erin_in_battles(club, catalog):
    """Erin, with no account, seated in a battle of the club."""
    return services.match_create(slug="card-crush", player_names=["Ben", "Erin"], config={}, club=club)


@pytest.mark.parametrize("record", ["battle", "entrant", "collection"])
def test_a_name_in_a_club_s_records_is_not_taken_by_signing_up(club, catalog, record):
    if record == "battle":
        services.match_create(slug="card-crush", player_names=["Ben", "Erin"], config={}, club=club)
    elif record == "entrant":
        tournaments.tournament_create(name="Spring Cup", player_names=["Erin", "Ben"], club=club)
    else:
        CollectionCard.objects.create(player=services.player_named("Erin"), club=club, card=catalog["Ember Fox"])
    phone, response = sign_up("ERIN")  # in any letter case
    page = text(response)
    assert response.status_code == 422 and "Erin already plays in a club's battles" in page
    assert 'value="newbie"' in page, "the refusal keeps what was typed"
    assert Player.objects.get(name="Erin").user is None
    assert not Player.objects.filter(user__isnull=False).exists()


def test_a_name_only_in_private_matches_or_new_is_taken_by_signing_up(catalog):
    services.match_create(slug="card-crush", player_names=["Ben", "Erin"], config={})
    assert sign_up("Erin")[1].status_code == 302
    assert Player.objects.get(name="Erin").user.username == "newbie"
    assert sign_up("Fay", "fay")[1].status_code == 302


def test_an_organiser_gives_the_name_and_it_speaks_for_battles_set_up_after(club, organiser, erin_in_battles):
    before = erin_in_battles
    phone, response = sign_up("Erin Ward")
    assert response.status_code == 302
    erins = Player.objects.get(name="Erin Ward").user
    Membership.objects.create(club=club, user=erins)
    page = text(organiser.get(club.get_absolute_url()))
    assert page.count("Give them a name from the club's records") == 1, "only to the new account, in no record"
    assert '<option value="Erin">' in page
    response = give(organiser, club, erins, "erin")
    assert response.status_code == 302
    erin = Player.objects.get(name="Erin")
    assert erin.user == erins and erin.given_by == organiser.user and erin.given_at is not None
    assert not Player.objects.filter(name="Erin Ward").exists(), "the new account's own name, in no record, goes"
    page = text(organiser.get(club.get_absolute_url()))
    assert "Erin" in page and "name given" in page and "by orga" in page
    after = services.match_create(slug="card-crush", player_names=["Ben", "Erin"], config={}, club=club)
    assert confirmations.seat_of(before, erins) is None, "set up before the name was given"
    assert confirmations.seat_of(after, erins) == 1


def test_giving_a_name_is_refused_where_it_would_take_a_side(club, organiser, member, catalog, erin_in_battles):
    """To oneself, by an organiser playing in a running tournament of the club, a name outside the club's records
    or already an account's, to a member whose own name has records: refused, nothing changed, the name typed
    kept in its field."""
    fresh = club_account("fresh", club)
    Player.objects.create(name="Dev", user=member.user)
    services.match_create(slug="card-crush", player_names=["Dev", "Zed"], config={})  # the member's own record
    services.match_create(slug="card-crush", player_names=["Ben", "Quinn"], config={})  # no club record
    Player.objects.create(name="Kai", user=club_account("kai").user)
    services.match_create(slug="card-crush", player_names=["Ben", "Kai"], config={}, club=club)
    other = type(club).objects.create(name="Other Club")
    services.match_create(slug="card-crush", player_names=["Ben", "Uma"], config={}, club=other)
    response = give(organiser, club, organiser.user, "Erin")  # no form for it on the page
    assert response.status_code == 302 and "Another organiser gives you a name" in text(organiser.get(response.url))
    cases = [
        (organiser, fresh.user, "Quinn", "Nobody called Quinn is in the club's"),
        (organiser, fresh.user, "Uma", "Nobody called Uma is in the club's"),
        (organiser, fresh.user, "Dev", "Nobody called Dev"),  # the member's, in no record of the club
        (organiser, fresh.user, "Kai", "Kai is already the name of another account"),
        (organiser, member.user, "Erin", "already plays as Dev in matches"),
    ]
    for phone, user, name, why in cases:
        response = give(phone, club, user, name)
        page = text(response)
        assert response.status_code == 409 and why in page, (name, page[:300])
        assert f'value="{name}" autofocus aria-invalid="true"' in page
    assert give(member, club, fresh.user, "Erin").status_code == 403
    tournaments.tournament_create(name="Spring Cup", player_names=["Orga", "Ben"], club=club)
    Player.objects.filter(name="Orga").update(user=organiser.user)
    response = give(organiser, club, fresh.user, "Erin")
    assert response.status_code == 409 and "another organiser gives names meanwhile" in text(response)
    assert Player.objects.get(name="Erin").user is None
