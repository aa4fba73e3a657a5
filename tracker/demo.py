"""Demo data: players, a card catalog for every game, and a few finished matches to review.

Used by `python manage.py demo` (which the README's start command runs) and by tests.
Loading twice changes nothing the second time.
"""

from django.db import transaction

from . import services
from .models import Card, Match

PLAYERS = ["Ana", "Ben", "Chloé", "Dev"]

# Invented cards: the games' real card lists are not public.
CATALOGS = {
    "card-crush": [
        # name, power, speed, affinity, rarity, level
        ("Gale Sprite", 4, 9, "Air", "Common", 1), ("Sky Lancer", 7, 6, "Air", "Rare", 1),
        ("Tempest Roc", 9, 7, "Air", "Epic", 2),
        ("Stone Golem", 8, 2, "Earth", "Common", 1), ("Canyon Brute", 6, 4, "Earth", "Rare", 1),
        ("Mountain Titan", 10, 3, "Earth", "Legendary", 1),
        ("Volt Imp", 5, 9, "Lightning", "Common", 1), ("Storm Caller", 7, 8, "Lightning", "Rare", 1),
        ("Thunder Drake", 9, 6, "Lightning", "Epic", 1),
        ("Tide Runner", 6, 8, "Water", "Common", 1), ("Reef Guardian", 7, 4, "Water", "Rare", 1),
        ("Leviathan", 10, 2, "Water", "Legendary", 1),
        ("Ember Fox", 7, 5, "Fire", "Common", 1), ("Flame Knight", 8, 5, "Fire", "Rare", 1),
        ("Phoenix", 9, 8, "Fire", "Legendary", 1),
        ("Frost Wisp", 4, 7, "Ice", "Common", 1), ("Glacier Bear", 8, 3, "Ice", "Rare", 1),
        ("Winter Queen", 9, 6, "Ice", "Epic", 1),
        ("Thorn Sprout", 5, 5, "Nature", "Common", 1), ("Grove Warden", 7, 5, "Nature", "Rare", 2),
        ("Ancient Oak", 9, 1, "Nature", "Epic", 1),
        ("Dawn Acolyte", 5, 6, "Light", "Common", 1), ("Sun Paladin", 8, 6, "Light", "Rare", 1),
        ("Radiant Seraph", 10, 7, "Light", "Legendary", 1),
        ("Shade Rat", 3, 10, "Shadow", "Common", 1), ("Night Stalker", 7, 7, "Shadow", "Rare", 1),
        ("Void Lord", 10, 5, "Shadow", "Legendary", 1),
    ],
}

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


def _card_crush_card(row: tuple) -> tuple[str, dict]:
    name, power, speed, affinity, rarity, level = row
    return name, {"power": power, "speed": speed, "affinity": affinity, "rarity": rarity, "level": level}


CARD_MAKERS = {"card-crush": _card_crush_card}


@transaction.atomic
def load_catalogs() -> int:
    added = 0
    for game, rows in CATALOGS.items():
        for row in rows:
            name, stats = CARD_MAKERS[game](row)
            _card, created = Card.objects.get_or_create(game=game, name=name, defaults={"stats": stats})
            added += created
    return added


def _deck(names: list[str]) -> list[dict]:
    cards = {c.name: c for c in Card.objects.filter(game="card-crush", name__in=names)}
    return [cards[name].as_rules_card() for name in names]


def play_battle(players: tuple[str, str], resolution: str, decks: list[list[str]], undo_once: bool = False) -> Match:
    """Play a whole battle through the services, as the pages would."""
    match = services.match_create(game="card-crush", player_names=list(players), config={"resolution": resolution})
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


def load() -> str:
    added = load_catalogs()
    played = 0
    if not Match.objects.exists():
        for index, (players, resolution, deck_a, deck_b) in enumerate(BATTLES):
            play_battle(players, resolution, [deck_a, deck_b], undo_once=index == 0)
            played += 1
        for name in PLAYERS:
            services.player_named(name)
    return f"{added} demo cards added, {played} demo matches played."
