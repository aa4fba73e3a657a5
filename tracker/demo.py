"""Demo data: players, a card catalog for every game, and finished matches of every game to review.

Used by `python manage.py demo` (which the README's start command runs) and by tests. Each
game's demo cards and scripted matches live with its pages (tracker/games/<game>/demo.py);
this module only decides who plays which script. A game gets its demo matches only while it
has no match at all, so loading twice changes nothing the second time, and a database from
before a game had demo matches gets that game's without its other games' being played again.
"""

from django.db import transaction

import rules

from . import services
from .games import ADAPTERS, pages_for
from .models import Card, Match

PLAYERS = ["Ana", "Ben", "Chloé", "Dev"]

# Which scripts the demo plays, in order: (game, script in its pages' demo_matches, players in seat order).
MATCHES = [
    ("card-crush", "undone-round", ("Ana", "Ben")),
    ("card-crush", "rulebook", ("Chloé", "Dev")),
    ("card-crush", "power-only", ("Ben", "Chloé")),
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
    """Every game's demo cards (each GamePages.demo_cards); returns how many were new."""
    added = 0
    for slug, pages in ADAPTERS.items():
        for card in pages.demo_cards:
            card = rules.GAMES[slug].validate_card(card)
            _card, created = Card.objects.get_or_create(
                slug=slug, name=card["name"], defaults={"stats": pages.card_stats(card)}
            )
            added += created
    return added


@transaction.atomic
def load() -> str:
    added = load_catalogs()
    for name in PLAYERS:
        services.player_named(name)
    # Which games to play is decided before playing any, so that one game's matches never
    # hold back another's.
    empty = {slug for slug in rules.GAMES if not Match.objects.filter(slug=slug).exists()}
    played = 0
    for slug, script, players in MATCHES:
        if slug in empty:
            pages_for(slug).demo_matches[script](players)
            played += 1
    return f"{added} demo cards added, {played} demo matches played."
