"""LOGOS demo data: invented datacards (the real card list is not public) and two finished duels."""

from tracker.matches import services

from ...models import Match
from ..common import ANA_BEN, Players, play_steps


def _demo(name, cls, attack, defense, speed, combo="grey grey grey", left=None, right=None):
    effect = lambda e: None if e is None else ({"name": e} if isinstance(e, str) else e)  # noqa: E731
    return {"name": name, "class": cls, "attack": attack, "defense": defense, "speed": speed,
            "combo": combo.split(), "left_effect": effect(left), "right_effect": effect(right)}


# Invented demo cards (the real LOGOS card list is not public), except the first: the rulebook's own
# example datacard, INFORMATION 5,000 / 20,000 / 70, healing its owner, needing INFORMATION two and
# three rounds ago. Its name is ours; the rulebook gives none.
CARDS = [
    _demo("Rulebook Datacard", "INFORMATION", 5_000, 20_000, 70, "grey blue blue", right="regeneration"),
    _demo("Iron Golem", "MATTER", 40_000, 30_000, 20, right="berserk"),
    _demo("Granite Fist", "MATTER", 35_000, 10_000, 60),
    _demo("Rust Swarm", "MATTER", 25_000, 5_000, 75, left="destroy-combo"),
    _demo("Titan Core", "MATTER", 60_000, 20_000, 30, "red red grey", right="add-card-slot"),
    _demo("Lightning Lance", "ENERGY", 45_000, 10_000, 80, left="swap-values"),
    _demo("Solar Flare", "ENERGY", 30_000, 15_000, 65, right="maximize"),
    _demo("Static Field", "ENERGY", 15_000, 35_000, 40, left="minimize"),
    _demo("Overload", "ENERGY", 55_000, 5_000, 90, "green grey grey", left="remove-card-slot"),
    _demo("Archive Warden", "INFORMATION", 10_000, 30_000, 55, right="neutralize"),
    _demo("Mirror Code", "INFORMATION", 20_000, 20_000, 60, left="mimmick"),
    _demo("Data Leak", "INFORMATION", 25_000, 10_000, 85, left="destroy-backup"),
    _demo("Recolor Virus", "INFORMATION", 20_000, 15_000, 50,
          left={"name": "color-change", "from": "red", "to": "white"}),
    _demo("Blank Shield", "Neutral", 0, 40_000, 30, right="neutralize"),
    _demo("Shuffle Drone", "Neutral", 5_000, 25_000, 45, left="shuffle-hand"),
    _demo("Echo Shell", "Neutral", 10_000, 30_000, 105, right="double-combo"),
    _demo("Quicksilver", "ENERGY", 35_000, 15_000, 120),
    _demo("Seraph", "Life", 60_000, 20_000, 150),
    _demo("World Tree", "Life", 50_000, 50_000, 20, "green green green", right="regeneration"),
]


def knock_out(players: Players = ANA_BEN) -> Match:
    """A duel from 30,000 HP: a backup stored and called, a defenceless round, a knock-out."""
    match = services.match_create(slug="logos", player_names=list(players), config={"starting_hp": 30_000})
    card = {c["name"]: c for c in CARDS}.get
    return play_steps(match, [
        {"type": "commit", "seat": 0, "round": 1, "card": card("Granite Fist"), "backup": card("Seraph")},
        {"type": "commit", "seat": 1, "round": 1, "card": card("Solar Flare"), "backup": None},
        {"type": "fight"},
        {"type": "defenceless", "seat": 0, "round": 2},
        {"type": "commit", "seat": 1, "round": 2, "card": card("Static Field"), "backup": None},
        {"type": "fight"},
        {"type": "commit", "seat": 0, "round": 3, "card": card("Iron Golem"), "backup": None},
        {"type": "commit", "seat": 1, "round": 3, "card": card("Shuffle Drone"), "backup": None},
        {"type": "call_backup", "seat": 0},
        {"type": "fight"},
    ])


def resignation(players: Players = ANA_BEN) -> Match:
    """A duel at the default 100,000 HP: a swap blocked by Neutralize, a Destroy Combo copied by
    Mimic, a backup stored and never called, then seat 1 resigns before the third fight."""
    match = services.match_create(slug="logos", player_names=list(players), config={})
    card = {c["name"]: c for c in CARDS}.get
    return play_steps(match, [
        {"type": "commit", "seat": 0, "round": 1, "card": card("Lightning Lance"), "backup": None},
        {"type": "commit", "seat": 1, "round": 1, "card": card("Archive Warden"), "backup": card("Quicksilver")},
        {"type": "fight"},
        {"type": "commit", "seat": 0, "round": 2, "card": card("Rust Swarm"), "backup": None},
        {"type": "commit", "seat": 1, "round": 2, "card": card("Mirror Code"), "backup": None},
        {"type": "fight"},
        {"type": "commit", "seat": 0, "round": 3, "card": card("Granite Fist"), "backup": None},
        {"type": "commit", "seat": 1, "round": 3, "card": card("Data Leak"), "backup": None},
        {"type": "resign", "seat": 1},
    ])


MATCHES = {"knock-out": knock_out, "resignation": resignation}

PLAYED = [
    ("knock-out", ("Chloé", "Dev")),
    ("resignation", ("Ben", "Ana")),
]
"""The matches `manage.py demo` plays, with their players in seat order."""
