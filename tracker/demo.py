"""Demo data: players, a card catalog for every game, finished matches of every game to review,
and one club (its members' accounts, its rated Card Crush battles and a finished tournament).

Used by `python manage.py demo` (which the README's start command runs) and by tests. Each
game's demo cards and scripted matches live with its pages (tracker/games/<game>/demo.py);
with which of them the demo plays and who sits where (PLAYED); this module plays them. It loads
from every package (games, matches, competition), so it sits at the top of tracker/ beside urls.py. A game gets its demo matches only while it
has no match at all, so loading twice changes nothing the second time, and a database from
before a game had demo matches gets that game's without its other games' being played again.
"""

import os
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

import rules
from tracker.competition import confirmations, tournaments
from tracker.games import ADAPTERS, pages_for
from tracker.games.base import Players
from tracker.games.card_crush.demo import BATTLES, deck
from tracker.matches import services
from tracker.models import Card, Club, Confirmation, Match, Membership, Player, Tournament

PLAYERS = ["Ana", "Ben", "Chloé", "Dev"]

def matches() -> list[tuple[str, str, Players]]:
    """Which scripts the demo plays, in order: (game, script in its pages' demo_matches, players in seat
    order), as each game in the registry declares them (demo_played)."""
    return [(slug, script, players) for slug in rules.GAMES for script, players in pages_for(slug).demo_played]


@transaction.atomic
def load_catalogs() -> int:
    """Every game's demo cards (each GamePages.demo_cards) that the catalog does not have yet; returns how many
    were new. One query a game for the names already there and one insert for the rest: the tests load
    these catalogs hundreds of times, and a get_or_create a card was four queries each."""
    added = 0
    for slug, pages in ADAPTERS.items():
        cards = {card["name"]: card for card in map(rules.GAMES[slug].validate_card, pages.demo_cards)}
        there = set(Card.objects.filter(slug=slug, name__in=cards).values_list("name", flat=True))
        added += len(Card.objects.bulk_create(
            Card(slug=slug, name=name, stats=pages.card_stats(card)) for name, card in cards.items() if name not in there))
    return added


CLUB = "Thursday Card Night"
ACCOUNTS = {"ana": "Ana", "ben": "Ben", "chloe": "Chloé", "dev": "Dev"}  # user name -> player; ana organises
TOURNAMENT = "Demo Swiss"


def demo_password() -> str | None:
    """The demo accounts' password: DEMO_PASSWORD, or a known one on a development server only."""
    return os.environ.get("DEMO_PASSWORD") or ("tablekeeper-demo" if settings.DEBUG else None)


def load_club() -> tuple[Club, Any]:
    """The demo club: four accounts (Ana organises), showing its leaderboard and tournaments to everyone."""
    users = {}
    for username, name in ACCOUNTS.items():
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            password = demo_password()
            user.set_password(password) if password else user.set_unusable_password()
            user.save()
        # An account that plays already keeps its player as the club named it since (Ben renamed Benjamin): loading
        # again made a new "Ben" and gave it the account, which plays as one player only (an IntegrityError at serve).
        if not Player.objects.filter(user=user).exists():
            player = services.player_named(name)
            if player.user_id is None:
                player.user = user
                player.save(update_fields=["user"])
        users[username] = user
    club, _created = Club.objects.get_or_create(name=CLUB, defaults={"public_leaderboard": True,
                                                                      "public_tournaments": True})
    for username, user in users.items():
        Membership.objects.get_or_create(club=club, user=user, defaults={
            "role": Membership.ORGANISER if username == "ana" else Membership.MEMBER})
    return club, users["ana"]


def play_tournament(club: Club, organiser) -> Tournament:
    """A finished two-round Swiss tournament of the club, every battle played through the services."""
    _resolution, decks = BATTLES["undone-round"]
    tournament = tournaments.tournament_create(name=TOURNAMENT, player_names=list(ACCOUNTS.values()), club=club)
    for number in (0, 1):
        for pairing in tournaments.round_pair(tournament_id=tournament.pk, expected_round=number, organiser=organiser):
            match = pairing.match
            if match is None:  # a bye
                continue
            for seat, names in enumerate(decks):
                services.match_apply_action(match_id=match.pk, expected_seq=seat,
                                            action={"type": "lock_deck", "seat": seat, "cards": deck(names)})
            match.refresh_from_db()
            while match.finished is None:
                services.match_apply_action(match_id=match.pk, action={"type": "play_round"}, expected_seq=match.head)
                match.refresh_from_db()
            if match.unconfirmed:  # paired by Ana, who plays in it: both players say the battle was theirs
                for seat, player in enumerate(match.players()):
                    confirmations.confirm(match_id=match.pk, seat=seat, account=player.user, referee=False)
    return tournaments.tournament_finish(tournament_id=tournament.pk, expected_round=2)


@transaction.atomic
def load() -> str:
    added = load_catalogs()
    club, organiser = load_club()  # the demo players, as the accounts' players (named as the club left them)
    # Which games to play is decided before playing any, so that one game's matches never
    # hold back another's.
    empty = {slug for slug in rules.GAMES if not Match.objects.filter(slug=slug).exists()}
    played = 0
    for slug, script, players in matches():
        if slug in empty:
            match = pages_for(slug).demo_matches[script](players)
            played += 1
            if pages_for(slug).competes:
                # The club's rated battles: its members see them, and its public leaderboard counts them.
                Match.objects.filter(pk=match.pk).update(club=club, owner=organiser)
                for seat in range(len(players)):  # played by script: Ana, who organises, confirms for them
                    Confirmation.objects.get_or_create(match=match, seat=seat, defaults={
                        "by": organiser, "kind": Confirmation.ORGANISER})
    if any(pages_for(slug).competes for slug in empty):  # the tournament is of Card Crush, the one that competes
        played += play_tournament(club, organiser).pairings.exclude(match=None).count()
    return f"{added} demo cards added, {played} demo matches played."
