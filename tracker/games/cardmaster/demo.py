"""Invented demo cards (Cardmaster's real card list is not public): enough for two 9-card factions.

Types are places on the wheel (1 Ember ... 10 Umbra, see rules/cardmaster/typechart.py).
"""

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

DEMO_CARDS = [
    {"name": name, "spd": spd, "hp": hp, "def": defense, "atk": atk, "spc": spc, "type1": type1,
     "type2": type2, "tier": tier, "status": status}
    for name, spd, hp, defense, atk, spc, type1, type2, tier, status in _CARDS
]
