"""Demo data: players, a card catalog for every game, finished matches of every game to review,
and one club (its members' accounts, its rated Card Crush battles and a finished tournament).

Used by `python manage.py demo` (which the README's start command runs) and by tests.
A game gets its demo matches only while it has no match at all, so loading twice changes
nothing the second time, and a database from before a game had demo matches gets that
game's without its other games' being played again.
"""

import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

import rules

from . import demo_matches, services
from .competition import tournaments
from .games import ADAPTERS
from .models import Card, Club, Match, Membership, Tournament

PLAYERS = ["Ana", "Ben", "Chloé", "Dev"]

# Finished battles: (players, resolution, deck of each seat, step to undo to before replaying).
BATTLES = [
    (("Ana", "Ben"), "battle-score",
     ["Ember Fox", "Storm Caller", "Stone Golem", "Phoenix", "Gale Sprite"],
     ["Tide Runner", "Frost Wisp", "Sky Lancer", "Void Lord", "Thorn Sprout"]),
    (("Chloé", "Dev"), "battle-score",
     ["Sun Paladin", "Night Stalker", "Glacier Bear", "Tempest Roc", "Reef Guardian"],
     ["Flame Knight", "Volt Imp", "Canyon Brute", "Winter Queen", "Ancient Oak"]),
    (("Ben", "Chloé"), "power-only",
     ["Mountain Titan", "Leviathan", "Radiant Seraph", "Void Lord", "Phoenix"],
     ["Thunder Drake", "Winter Queen", "Tempest Roc", "Sun Paladin", "Grove Warden"]),
]

# The other games' demo matches: (game, script in demo_matches.MATCHES, players in seat order).
MATCHES = [
    ("logos", "knock-out", ("Chloé", "Dev")),
    ("logos", "resignation", ("Ben", "Ana")),
    ("lonely-star", "deck-out", ("Ana", "Chloé")),
    ("lonely-star", "table-call", ("Dev", "Ben")),
    ("cardmaster", "knock-out", ("Ben", "Dev")),
    ("cardmaster", "coin-for-possession", ("Chloé", "Ana")),
    ("evons", "by-passes", ("Ana", "Dev")),
    ("evons", "table-ends", ("Chloé", "Ben")),
]


@transaction.atomic
def load_catalogs() -> int:
    """Every game's demo cards (each adapter's DEMO_CARDS); returns how many were new."""
    added = 0
    for slug, pages in ADAPTERS.items():
        for card in pages.DEMO_CARDS:
            card = rules.GAMES[slug].validate_card(card)
            _card, created = Card.objects.get_or_create(
                slug=slug, name=card["name"], defaults={"stats": pages.card_stats(card)}
            )
            added += created
    return added


def _deck(names: list[str]) -> list[dict]:
    cards = {c.name: c for c in Card.objects.filter(slug="card-crush", name__in=names)}
    return [cards[name].as_rules_card() for name in names]


def play_battle(players: tuple[str, str], resolution: str, decks: list[list[str]], undo_once: bool = False,
                club: Club | None = None, owner=None) -> Match:
    """Play a whole battle through the services, as the pages would."""
    match = services.match_create(slug="card-crush", player_names=list(players), config={"resolution": resolution},
                                  club=club, owner=owner)
    for seat, names in enumerate(decks):
        services.match_apply_action(
            match_id=match.pk, action={"type": "lock_deck", "seat": seat, "cards": _deck(names)}, expected_seq=seat
        )
    match.refresh_from_db()
    while match.finished is None:
        services.match_apply_action(match_id=match.pk, action={"type": "play_round"}, expected_seq=match.head)
        match.refresh_from_db()
        if undo_once and match.head == 3:
            # Show a reviewable undo in the demo: take round 1 back, then play it again.
            services.match_goto(match_id=match.pk, step=2, expected_seq=3)
            services.match_apply_action(match_id=match.pk, action={"type": "play_round"}, expected_seq=2)
            undo_once = False
            match.refresh_from_db()
    return match


CLUB = "Thursday Card Night"
ACCOUNTS = {"ana": "Ana", "ben": "Ben", "chloe": "Chloé", "dev": "Dev"}  # user name -> player; ana organises
TOURNAMENT = "Demo Swiss"
# The tournament's battles: each round's decks by seat, in table order.
TOURNAMENT_DECKS = [
    ["Ember Fox", "Storm Caller", "Stone Golem", "Phoenix", "Gale Sprite"],
    ["Tide Runner", "Frost Wisp", "Sky Lancer", "Void Lord", "Thorn Sprout"],
]


def demo_password() -> str | None:
    """The demo accounts' password: DEMO_PASSWORD, or a known one on a development server only."""
    return os.environ.get("DEMO_PASSWORD") or ("tablekeeper-demo" if settings.DEBUG else None)


def load_club() -> tuple[Club, object]:
    """The demo club: four accounts (Ana organises), showing its leaderboard and tournaments to everyone."""
    users = {}
    for username, name in ACCOUNTS.items():
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            user.set_password(demo_password()) if demo_password() else user.set_unusable_password()
            user.save()
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
    tournament = tournaments.tournament_create(name=TOURNAMENT, player_names=list(ACCOUNTS.values()), club=club)
    for number in (0, 1):
        for pairing in tournaments.round_pair(tournament_id=tournament.pk, expected_round=number, organiser=organiser):
            if pairing.match is None:
                continue
            for seat, names in enumerate(TOURNAMENT_DECKS):
                services.match_apply_action(match_id=pairing.match_id, expected_seq=seat,
                                            action={"type": "lock_deck", "seat": seat, "cards": _deck(names)})
            match = Match.objects.get(pk=pairing.match_id)
            while match.finished is None:
                services.match_apply_action(match_id=match.pk, action={"type": "play_round"}, expected_seq=match.head)
                match.refresh_from_db()
    return tournaments.tournament_finish(tournament_id=tournament.pk, expected_round=2)


@transaction.atomic
def load() -> str:
    added = load_catalogs()
    for name in PLAYERS:
        services.player_named(name)
    # Which games to play is decided before playing any, so that one game's matches never
    # hold back another's.
    empty = {slug for slug in rules.GAMES if not Match.objects.filter(slug=slug).exists()}
    played = 0
    club, organiser = load_club()
    if "card-crush" in empty:
        # The club's rated battles: its members see them, and its public leaderboard counts them.
        for index, (players, resolution, deck_a, deck_b) in enumerate(BATTLES):
            play_battle(players, resolution, [deck_a, deck_b], undo_once=index == 0, club=club, owner=organiser)
            played += 1
        played += play_tournament(club, organiser).pairings.exclude(match=None).count()
    for slug, script, players in MATCHES:
        if slug in empty:
            demo_matches.MATCHES[slug][script](players)
            played += 1
    return f"{added} demo cards added, {played} demo matches played."
