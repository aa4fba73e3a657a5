"""Demo data: players, a card catalog for every game, and finished matches of every game to review.

Used by `python manage.py demo` (which the README's start command runs) and by tests.
A game gets its demo matches only while it has no match at all, so loading twice changes
nothing the second time, and a database from before a game had demo matches gets that
game's without its other games' being played again.
"""

from django.db import transaction

import rules

from . import demo_matches, services
from .games import ADAPTERS
from .models import Card, Match

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


def play_battle(players: tuple[str, str], resolution: str, decks: list[list[str]], undo_once: bool = False) -> Match:
    """Play a whole battle through the services, as the pages would."""
    match = services.match_create(slug="card-crush", player_names=list(players), config={"resolution": resolution})
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


@transaction.atomic
def load() -> str:
    added = load_catalogs()
    for name in PLAYERS:
        services.player_named(name)
    # Which games to play is decided before playing any, so that one game's matches never
    # hold back another's.
    empty = {slug for slug in rules.GAMES if not Match.objects.filter(slug=slug).exists()}
    played = 0
    if "card-crush" in empty:
        for index, (players, resolution, deck_a, deck_b) in enumerate(BATTLES):
            play_battle(players, resolution, [deck_a, deck_b], undo_once=index == 0)
            played += 1
    for slug, script, players in MATCHES:
        if slug in empty:
            demo_matches.MATCHES[slug][script](players)
            played += 1
    return f"{added} demo cards added, {played} demo matches played."
