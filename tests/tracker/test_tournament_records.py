"""A tournament's record holds: an ended one's winner stays as declared, and a battle that counts nowhere decides
nothing in it (found by an adversarial run)."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tracker.competition import tournaments
from tracker.matches import services
from tracker.models import Club, Confirmation, Match, Membership, Pairing, Player, Tournament

from .helpers import LOSING_DECK, WINNING_DECK, entry_data, entry_url, finish, page_text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def account(name: str, club: Club, role: str = Membership.MEMBER) -> Client:
    """A phone signed in as a new account playing as `name`, a member of `club`."""
    user = get_user_model().objects.create_user(name.lower())
    Player.objects.update_or_create(name=name, defaults={"user": user})
    Membership.objects.create(club=club, user=user, role=role)
    phone = Client()
    phone.force_login(user)
    return phone


def table(cup: Tournament) -> list[tuple[str, int]]:
    return [(row.entrant.player.name, row.standing.rank) for row in tournaments.standings(cup)]


def banner(phone: Client, cup: Tournament) -> str:
    found = re.search(r'class="banner"[^>]*>(.*?)</p>', page_text(phone.get(cup.get_absolute_url())), re.S)
    return found.group(1) if found else ""


def test_an_ended_tournaments_winner_stays_whatever_battle_of_the_club_counts_later(organiser, club, catalog):
    """Ties are broken by rating as it was at the end: a member confirming an older club battle afterwards
    replayed the ratings, and the ended tournament's winner changed with nobody reopening it."""
    eve = account("Eve", club)
    organiser.post(reverse("tournament_list", args=[club.pk]), {"name": "Cup", "entrants": "Ana\nBen\nCid\nDee"})
    cup = Tournament.objects.get(name="Cup")
    assert organiser.post(reverse("tournament_pair", args=[cup.pk]), {"round": 0}).status_code == 302
    for pairing in Pairing.objects.filter(tournament=cup, round=1):
        finish(pairing.match, winner_seat=0)
    # The second-placed winner beat Eve in an open club battle before the end; Eve has not confirmed it yet.
    second = tournaments.standings(cup)[1].entrant.player
    old = finish(services.match_create(slug="card-crush", player_names=[second.name, "Eve"], config={}, club=club),
                 winner_seat=0, when=timezone.now() - timedelta(minutes=5))
    Confirmation.objects.filter(match=old, seat=1).delete()
    Match.objects.filter(pk=old.pk).update(unconfirmed=True)
    assert organiser.post(reverse("tournament_finish", args=[cup.pk]), {"round": 1}).status_code == 302
    cup.refresh_from_db()
    before, said = table(cup), banner(organiser, cup)
    assert eve.post(reverse("battle_confirm", args=[old.pk]), {"seat": 1}).status_code == 302
    assert not Match.objects.get(pk=old.pk).unconfirmed  # it counts in the ratings from now on...
    cup.refresh_from_db()
    assert table(cup) == before and banner(organiser, cup) == said  # ...and the ended tournament stands


def test_a_battle_left_by_the_organiser_who_paired_it_decides_nothing_until_taken_over(catalog):
    club = Club.objects.create(name="Friday Club")
    olga, omar = account("Olga", club, Membership.ORGANISER), account("Omar", club, Membership.ORGANISER)
    phones = {"Ana": account("Ana", club), "Ben": account("Ben", club)}
    olga.post(reverse("tournament_list", args=[club.pk]), {"name": "Cup", "entrants": "Ana\nBen"})
    cup = Tournament.objects.get(name="Cup")
    assert olga.post(reverse("tournament_pair", args=[cup.pk]), {"round": 0}).status_code == 302
    battle = Pairing.objects.get(tournament=cup).match
    olga.post(reverse("club_leave", args=[club.pk]))  # its owner leaves: the open battle counts nowhere
    for phone in phones.values():
        assert phone.get(battle.get_absolute_url()).status_code == 200  # each takes their seat
    first, second = (player.name for player in battle.players())
    assert phones[first].post(entry_url(battle, 0), entry_data(battle, 0, WINNING_DECK)).status_code == 302
    assert phones[second].post(entry_url(battle, 1), entry_data(battle, 1, LOSING_DECK)).status_code == 302
    battle.refresh_from_db()
    while battle.finished is None:
        phones[first].post(reverse("match_act", args=[battle.pk]), {"seq": battle.head, "action": "play_round"})
        battle.refresh_from_db()
    assert battle.orphaned is not None and not Match.objects.counted().filter(pk=battle.pk).exists()
    assert [row.standing.points for row in tournaments.standings(cup)] == [0, 0]
    assert tournaments.unfinished(cup, 1), "the round waits for an organiser to take the battle over"
    assert omar.post(reverse("match_take_over", args=[battle.pk])).status_code == 302
    assert sorted(row.standing.points for row in tournaments.standings(cup)) == [0, 1]
