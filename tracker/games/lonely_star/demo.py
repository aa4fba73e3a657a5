"""Lonely Star demo data: invented units (the real card list is not public) and two finished matches.

Units take ids in the order they are played (1, 2, 3, ...).
"""

from tracker.matches import services

from ...models import Match
from ..common import ANA_BEN, Players, catalog_card, play_steps

# name, HP, AT, LK, RS, reach.
CARDS = [
    {"name": name, "hp": hp, "at": at, "lk": lk, "rs": rs, "reach": reach}
    for name, hp, at, lk, rs, reach in [
        ("Comet Wanderer", 5, 3, 8, 1, 2),
        ("Nebula Warden", 8, 2, 2, 3, 1),
        ("Ember Drifter", 4, 4, 3, 0, 1),
        ("Quiet Moon", 6, 2, 4, 2, 3),
        ("Dust Knight", 7, 3, 2, 2, 1),
        ("Void Spark", 3, 5, 6, 0, 2),
        ("Orbit Keeper", 9, 1, 1, 4, 1),
        ("Lonely Star", 6, 4, 7, 2, 2),
    ]
]


def deck_out(players: Players = ANA_BEN) -> Match:
    """App-rolled and typed-in dice, a status and its end-of-turn Resist; Comet Wanderer's Luck 8
    mills seat 1's last 2 cards, so seat 1 cannot draw at the end of turn 1 and loses by deck-out."""
    match = services.match_create(slug="lonely-star", player_names=list(players), config={"deck": 2, "hand": 3})
    ember, comet, warden = 1, 2, 3
    return play_steps(match, [
        {"type": "play_unit", "seat": 0, "card": catalog_card("lonely-star", "Ember Drifter")},
        {"type": "play_unit", "seat": 0, "card": catalog_card("lonely-star", "Comet Wanderer")},
        {"type": "play_unit", "seat": 1, "card": catalog_card("lonely-star", "Nebula Warden")},
        ({"type": "attack", "seat": 0, "unit": ember, "target": warden}, [4]),  # crit fails: 4 - RS 3 = 1
        {"type": "attack", "seat": 0, "unit": comet, "target": warden},  # Luck 8: sure crit, mills 2
        {"type": "inflict", "seat": 1, "target": comet, "status": "hex", "ignore_resist": True},
        {"type": "inflict", "seat": 0, "target": warden, "status": "burn"},  # the app rolls Resist
        ({"type": "luck_roll", "seat": 0, "unit": ember}, [2]),
        {"type": "d6", "seat": 1},
        {"type": "end_turn", "seat": 0},
        ({"type": "resist_roll", "seat": 0, "unit": comet, "status": "hex"}, [1]),  # clears the Hex
        {"type": "finish_turn", "seat": 0},
    ])


def table_call(players: Players = ANA_BEN) -> Match:
    """Players roll: dice typed in (one left to the app), an accessory, a table status, effect damage,
    every kind of manual adjustment, and seat 0 declared the winner by the table."""
    match = services.match_create(slug="lonely-star", player_names=list(players), config={"who_rolls": "players"})
    moon, knight = 1, 2
    return play_steps(match, [
        {"type": "play_unit", "seat": 0, "card": catalog_card("lonely-star", "Quiet Moon")},
        {"type": "play_unit", "seat": 1, "card": catalog_card("lonely-star", "Dust Knight")},
        {"type": "equip", "seat": 0, "unit": moon, "accessory": "Star Lens"},
        {"type": "define_status", "name": "Freeze", "stat": "at", "override": True},
        ({"type": "inflict", "seat": 0, "target": knight, "status": "freeze"}, [5]),  # Resist 2 fails
        ({"type": "attack", "seat": 0, "unit": moon, "target": knight}, [1]),  # crit: Resist ignored
        {"type": "act", "seat": 0, "unit": moon, "how": "move"},
        ({"type": "damage", "seat": 1, "source": knight, "target": moon, "amount": 3}, [2]),
        {"type": "adjust", "override": True, "what": "counters", "unit": moon, "counter": "damage", "change": -1},
        {"type": "adjust", "override": True, "what": "stat", "unit": knight, "stat": "rs", "change": 1},
        {"type": "adjust", "override": True, "what": "cards", "seat": 1, "source": "deck", "target": "removed",
         "count": 3},
        {"type": "d6", "seat": 0},  # "let the app roll this one"
        {"type": "adjust", "override": True, "what": "leave", "unit": knight, "to": "discard"},
        {"type": "declare_winner", "winner": 0},
    ])


MATCHES = {"deck-out": deck_out, "table-call": table_call}

PLAYED = [
    ("deck-out", ("Ana", "Chloé")),
    ("table-call", ("Dev", "Ben")),
]
"""The matches `manage.py demo` plays, with their players in seat order."""
