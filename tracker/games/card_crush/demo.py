"""Card Crush demo data: invented cards (the real card list is not public) and three finished battles."""

from tracker.matches import services

from ...models import Card, Match
from ..common import ANA_BEN, Players

# 3 cards per affinity.
CARDS = [
    {"name": name, "power": power, "speed": speed, "affinity": affinity, "rarity": rarity, "level": level}
    for name, power, speed, affinity, rarity, level in [
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
    ]
]

# The demo battles by script name: how rounds are decided, and each seat's deck in round order.
BATTLES = {
    "undone-round": ("battle-score", [["Ember Fox", "Storm Caller", "Stone Golem", "Phoenix", "Gale Sprite"],
                                      ["Tide Runner", "Frost Wisp", "Sky Lancer", "Void Lord", "Thorn Sprout"]]),
    "rulebook": ("battle-score", [["Sun Paladin", "Night Stalker", "Glacier Bear", "Tempest Roc", "Reef Guardian"],
                                  ["Flame Knight", "Volt Imp", "Canyon Brute", "Winter Queen", "Ancient Oak"]]),
    "power-only": ("power-only", [["Mountain Titan", "Leviathan", "Radiant Seraph", "Void Lord", "Phoenix"],
                                  ["Thunder Drake", "Winter Queen", "Tempest Roc", "Sun Paladin", "Grove Warden"]]),
}


def deck(names: list[str]) -> list[dict]:
    """Catalog cards by name, in that order, as the engine takes them."""
    cards = {c.name: c for c in Card.objects.filter(slug="card-crush", name__in=names)}
    return [cards[name].as_rules_card() for name in names]


def play_battle(players: Players, resolution: str, decks: list[list[str]], undo_once: bool = False) -> Match:
    """Play a whole battle through the services, as the pages would; `undo_once` takes round 1 back once."""
    match = services.match_create(slug="card-crush", player_names=list(players), config={"resolution": resolution})
    for seat, names in enumerate(decks):
        services.match_apply_action(
            match_id=match.pk, action={"type": "lock_deck", "seat": seat, "cards": deck(names)}, expected_seq=seat
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


def undone_round(players: Players = ANA_BEN) -> Match:
    """Battle Score; round 1 is undone and played again, so the log shows an abandoned step."""
    return play_battle(players, *BATTLES["undone-round"], undo_once=True)


def rulebook(players: Players = ANA_BEN) -> Match:
    """Battle Score (the rulebook's way), played straight through."""
    return play_battle(players, *BATTLES["rulebook"])


def power_only(players: Players = ANA_BEN) -> Match:
    """The option of the older rule pages: rounds decided by Power alone."""
    return play_battle(players, *BATTLES["power-only"])


MATCHES = {"undone-round": undone_round, "rulebook": rulebook, "power-only": power_only}

PLAYED = [
    ("undone-round", ("Ana", "Ben")),
    ("rulebook", ("Chloé", "Dev")),
    ("power-only", ("Ben", "Chloé")),
]
"""The matches `manage.py demo` plays, with their players in seat order."""
