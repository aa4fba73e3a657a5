"""Cardmaster demo data: invented cards (the real card list is not public), enough for two 9-card
factions, and two finished 3v3 matches.

Types are places on the wheel (1 Ember ... 10 Umbra, see rules/cardmaster/typechart.py).
"""

from tracker.matches import services

from ...models import Match
from ..common import ANA_BEN, Players, catalog_card, play_steps

_CARDS = [
    # name, SPD, HP, DEF, ATK, SPC, type 1, type 2, tier, status
    ("Cinder Wolf", 140, 620, 120, 320, 90, 1, 5, 2, "overcook"),
    ("Tidecaller", 95, 780, 220, 260, 150, 2, 6, 2, "undershock"),
    ("Gale Harrier", 170, 520, 80, 300, 60, 3, 1, 1, "brainlock"),
    ("Stonewarden", 60, 1100, 420, 220, 120, 4, 4, 3, "gridfreeze"),
    ("Volt Lancer", 155, 560, 100, 360, 80, 5, 3, 2, "overcook"),
    ("Frost Oracle", 90, 700, 250, 240, 300, 6, 2, 4, "gridfreeze"),
    ("Bloom Keeper", 80, 850, 300, 200, 250, 7, 9, 3, "undershock"),
    ("Venom Adept", 120, 600, 150, 310, 120, 8, 10, 3, "souldrift"),
    ("Dawn Seraph", 110, 740, 200, 280, 200, 9, 7, 2, "brainlock"),
    ("Umbral Shade", 160, 540, 90, 340, 100, 10, 8, 4, "souldrift"),
    ("Ember Titan", 70, 1000, 380, 300, 50, 1, 4, 3, "overcook"),
    ("Reef Sentinel", 75, 950, 450, 210, 140, 2, 7, 2, "gridfreeze"),
    ("Storm Kite", 180, 480, 60, 290, 40, 3, 5, 1, "none"),
    ("Granite Brute", 55, 1200, 500, 260, 30, 4, 1, 2, "undershock"),
    ("Spark Imp", 165, 450, 70, 270, 180, 5, 8, 1, "brainlock"),
    ("Glacier Knight", 85, 900, 400, 250, 90, 6, 4, 3, "gridfreeze"),
    ("Thorn Dryad", 100, 680, 180, 290, 220, 7, 3, 2, "overcook"),
    ("Plague Wisp", 130, 560, 110, 300, 160, 8, 6, 5, "souldrift"),
]

CARDS = [
    {"name": name, "spd": spd, "hp": hp, "def": defense, "atk": atk, "spc": spc, "type1": type1,
     "type2": type2, "tier": tier, "status": status}
    for name, spd, hp, defense, atk, spc, type1, type2, tier, status in _CARDS
]


OPTIONS = {"size": 3, "who_rolls": "app"}
STORM_LINEUP = ["Gale Harrier", "Storm Kite", "Volt Lancer"]  # Storm Kite, SPD 180: this side moves first
STONE_LINEUP = ["Stonewarden", "Granite Brute", "Reef Sentinel"]
MAX_STEPS = 500
"""A played-out 3v3 takes well under a hundred steps; more means the play-out is stuck."""


def locked(lineups: list[list[str]], players: Players = ANA_BEN) -> Match:
    """A 3v3 with both lineups locked in: round 1 has started."""
    match = services.match_create(slug="cardmaster", player_names=list(players), config=OPTIONS)
    return play_steps(match, [
        {"type": "lock_lineup", "seat": seat, "cards": [catalog_card("cardmaster", name) for name in names]}
        for seat, names in enumerate(lineups)
    ])


def play_out(match: Match) -> Match:
    """The strongest affordable attack on the weakest target, else STACK, until a side is knocked out
    (every percentile roll the app's)."""
    for _step in range(MAX_STEPS):
        if match.finished is not None:
            return match
        legal = match.game.legal_actions(match.state)
        attacks = [a for a in legal if a["type"] in ("a3", "a2", "a1")]
        hp = {card_id: fighter["hp"] for card_id, fighter in match.state["cards"].items()}
        choice = min(attacks, key=lambda a: (("a3", "a2", "a1").index(a["type"]), hp[a["target"]]),
                     default=None) or next(a for a in legal if a["type"] == "stack")
        play_steps(match, [choice])
    raise RuntimeError(f"Cardmaster match {match.pk} did not end within {MAX_STEPS} steps.")


def knock_out(players: Players = ANA_BEN) -> Match:
    """Secret lineups, two rounds of STACK, an A2 with both percentile rolls typed in (100: no backfire;
    1: Brainlock lands), an SPC boost, then played out to a knock-out with the app rolling."""
    match = locked([STORM_LINEUP, STONE_LINEUP], players)
    stacks = [{"type": "stack", "card": c} for c in ("A1", "A2", "A3", "B1", "B2", "B3")]
    play_steps(match, stacks * 2 + [
        ({"type": "a2", "card": "A1", "target": "B1"}, [100, 1]),
        {"type": "spc", "card": "A2", "stat": "atk"},
    ])
    return play_out(match)


def coin_for_possession(players: Players = ANA_BEN) -> Match:
    """Mirror lineups: the fastest cards tie at SPD 180, so the seed's coin gives round 1's possession."""
    return play_out(locked([STORM_LINEUP, STORM_LINEUP], players))


MATCHES = {"knock-out": knock_out, "coin-for-possession": coin_for_possession}

PLAYED = [
    ("knock-out", ("Ben", "Dev")),
    ("coin-for-possession", ("Chloé", "Ana")),
]
"""The matches `manage.py demo` plays, with their players in seat order."""
