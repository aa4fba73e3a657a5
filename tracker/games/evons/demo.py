"""Evons demo data: invented cards (the real card list is not public) and two finished games.

Seat 0 sits at the bottom of the board (row 6), seat 1 at the top; arrows are given as printed, and
seat 1's cards point the other way round on the board (rules/evons/board.py, "Facing").
"""

from tracker.matches import services

from ...models import Match
from ..common import ANA_BEN, Players, catalog_card, play_steps

# A few cards per element, and a Block card.
CARDS = [
    {
        "name": name,
        "kind": "monster",
        "cost": cost,
        "element": element,
        "atk": atk,
        "def": def_,
        "arrows": arrows,
    }
    for name, cost, element, atk, def_, arrows in [
        ("Ember Fox", 3, "Fire", 4, 5, {"E": "Normal", "N": "Normal"}),
        ("Cinder Imp", 2, "Fire", 2, 3, {"E": "Normal", "S": "Normal", "W": "Normal"}),
        ("Pyre Drake", 6, "Fire", 5, 6, {"N": "Firestorm", "E": "Normal", "W": "Normal"}),
        # Printed up and right; the demo's top player holds it turned, so it points left and down.
        ("Moss Golem", 3, "Nature", 3, 6, {"N": "Normal", "E": "Normal"}),
        ("Seed Keeper", 4, "Nature", 2, 4, {"N": "Growth", "E": "Normal"}),
        ("Boulder Ram", 4, "Earth", 3, 5, {"E": "Shockwave", "W": "Normal"}),
        ("Dust Mole", 2, "Earth", 1, 4, {"N": "Normal", "S": "Normal"}),
        ("Volt Eel", 4, "Electric", 2, 4, {"E": "Magnetism", "S": "Normal"}),
        ("Spark Wisp", 1, "Electric", 1, 2, {"NE": "Normal", "SW": "Normal"}),
        ("Grave Shade", 6, "Darkness", 2, 5, {"N": "Resurrection", "S": "Resurrection", "E": "Normal"}),
        ("Night Crow", 3, "Darkness", 3, 3, {"W": "Normal", "NW": "Normal"}),
        ("Tide Trickster", 4, "Water", 2, 4, {"E": "Swap", "W": "Normal"}),
        ("Reef Warden", 5, "Water", 3, 7, {"N": "Normal", "E": "Normal", "S": "Normal", "W": "Normal"}),
        ("Rift Eraser", 5, "Water", 2, 3, {"N": "Remove", "S": "Normal"}),
        ("Stone Mason", 2, "Earth", 1, 4, {"E": "Block", "W": "Normal"}),
    ]
] + [{"name": "Stone Wall", "kind": "block"}]


def play(seat: int, cell: str, name: str | None) -> dict:
    """A card played face-up from the catalog, or covered (name None: nothing is told until its reveal)."""
    if name is None:
        return {"type": "play", "seat": seat, "cell": cell, "covered": True}
    return {"type": "play", "seat": seat, "cell": cell, "covered": False, "card": catalog_card("evons", name)}


def by_passes(players: Players = ANA_BEN) -> Match:
    """A conflict, a covered card pushed by Shockwave and revealed where it landed, then both players
    pass: seat 1 wins 3-2."""
    match = services.match_create(slug="evons", player_names=list(players), config={})
    return play_steps(match, [
        {"type": "pass", "seat": 0},
        play(1, "C3", "Moss Golem"),
        play(0, "B3", "Ember Fox"),
        {"type": "conflict", "seat": 0, "target": "C3"},
        play(1, "D2", None),
        play(0, "C2", "Boulder Ram"),
        {"type": "ability", "seat": 0, "arrow": "E", "target": "D2"},  # pushes the covered card to E2
        {"type": "reveal", "seat": 1, "cell": "E2", "card": catalog_card("evons", "Night Crow")},
        play(1, "D3", "Reef Warden"),
        {"type": "pass", "seat": 0},
        {"type": "pass", "seat": 1},
    ])


def table_ends(players: Players = ANA_BEN) -> Match:
    """Overrides marked in the log (credits, a card's DEF) and a game the table ends early, 1-1."""
    match = services.match_create(slug="evons", player_names=list(players), config={"reach": 2, "def_reset": False})
    return play_steps(match, [
        {"type": "adjust", "override": True, "seat": 1, "credits": 12},
        play(0, "B2", "Spark Wisp"),
        play(1, "D4", "Reef Warden"),
        {"type": "adjust", "override": True, "cell": "D4", "def": 3},
        {"type": "end_game", "override": True},
    ])


MATCHES = {"by-passes": by_passes, "table-ends": table_ends}

PLAYED = [
    ("by-passes", ("Ana", "Dev")),
    ("table-ends", ("Chloé", "Ben")),
]
"""The matches `manage.py demo` plays, with their players in seat order."""
