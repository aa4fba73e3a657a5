"""Astralite statuses: their chances, strength, duration and what they do each turn.

Rulebook: A2/A3 can inflict one of Overcook (DoT), Undershock (stat debuff),
Brainlock (A1 only, 2 turns), Gridfreeze (skip 1 turn), Souldrift (stats fade,
lethal). Strength = tier x 5.5%; A2 proc = tier x 5.5%, A3 proc = tier x 11%;
backfire = (tier x 10) - (SPC / 10), min 1%, A2/A3 only; on backfire the status hits
the attacker and the damage still lands.

Decisions (the rulebook is silent):
- A "turn" of a status is one possession of the afflicted card's team. Statuses
  count down at the end of those possessions, and only while the card is active: a
  card resting in reserve keeps its status unchanged. A status that lands during its
  own team's possession (a backfire) starts counting at the team's next possession.
- Overcook burns strength% of the card's max HP (rounded up, at least 1) at the end
  of each of its team's possessions, for `overcook_turns` (option, default 3).
- Undershock cuts SPD, DEF and ATK by strength% for `undershock_turns` (option, default 3).
- Brainlock: the card may only use A1 during its team's next 2 possessions.
- Gridfreeze: the card's move in its team's next possession is skipped.
- Souldrift never wears off. At the end of each of its team's possessions the card's
  SPD, DEF and ATK fade by strength% of their printed value (cumulative), and it
  loses (ticks so far x strength)% of its max HP, so the drain grows until it kills.
- One status at a time: a new status replaces the one the card carries.
- Rolls are percentile (d100, 1-100): the status lands when the roll is at most the
  chance, so 5.5% succeeds on 1 to 5. Backfire is rolled first; a backfire puts the
  status on the attacker and no proc roll is made. A card with no status rolls nothing.
- A status aimed at a card that the same attack knocked out is lost.
"""

from .fighters import max_hp
from .numbers import percent_text, share

FIXED_TURNS = {"brainlock": 2, "gridfreeze": 1, "souldrift": None}
CHANCE_MAX = 1000  # tenths of a percent: 100%
BACKFIRE_MIN = 10  # 1%


def strength(tier: int) -> int:
    """Tenths of a percent: tier x 5.5%."""
    return tier * 55


def proc_chance(move: str, tier: int) -> int:
    """Tenths of a percent: A2 tier x 5.5%, A3 tier x 11%."""
    return min(CHANCE_MAX, tier * (55 if move == "a2" else 110))


def backfire_chance(tier: int, spc: int) -> int:
    """Tenths of a percent: (tier x 10)% - (SPC / 10)%, never below 1%."""
    return min(CHANCE_MAX, max(BACKFIRE_MIN, tier * 100 - spc))


def top_face(chance: int) -> int:
    """The highest d100 face on which a chance (tenths of a percent) lands: 55 (5.5%) -> 5."""
    return chance // 10


def roll_against(dice, chance: int, why: str) -> dict:
    """A percentile roll: lands when the d100 shows at most the chance (on 1 to top_face)."""
    value = dice.roll(100, why)
    return {"chance": percent_text(chance), "roll": value, "hit": value <= top_face(chance)}


def turns_for(name: str, config: dict) -> int | None:
    if name in FIXED_TURNS:
        return FIXED_TURNS[name]
    return config[f"{name}_turns"]


def inflict(card: dict, name: str, tier: int, source: str | None, fresh: bool, config: dict) -> dict:
    """Put a status on a card (replacing any other); the event that says so."""
    replaced = card["status"]["name"] if card["status"] else None
    card["status"] = {
        "name": name,
        "strength": strength(tier),
        "turns": turns_for(name, config),
        "source": source,
        "fresh": fresh,
        "ticks": 0,
    }
    return {"type": "status", "card": card["id"], "card_name": card["name"], "status": name, "strength": percent_text(strength(tier)),
            "turns": card["status"]["turns"], "replaced": replaced}


def tick(card: dict) -> tuple[dict | None, int]:
    """The end of one of the card's team's possessions: (event or None, HP lost, already taken off)."""
    status = card["status"]
    if status is None:
        return None, 0
    if status["fresh"]:
        status["fresh"] = False
        return None, 0
    name, lost = status["name"], 0
    if name == "overcook":
        lost = max(1, share(max_hp(card), status["strength"]))
    elif name == "souldrift":
        status["ticks"] += 1
        for stat_name in ("spd", "def", "atk"):
            card["fade"][stat_name] = card["fade"].get(stat_name, 0) + share(card["base"][stat_name], status["strength"])
        lost = max(1, share(max_hp(card), status["strength"] * status["ticks"]))
    lost = min(lost, card["hp"])
    card["hp"] -= lost
    ended = False
    if status["turns"] is not None:
        status["turns"] -= 1
        ended = status["turns"] <= 0
        if ended:
            card["status"] = None
    return {"type": "tick", "card": card["id"], "card_name": card["name"], "status": name, "hp_lost": lost, "hp": card["hp"],
            "turns_left": None if ended else status["turns"], "ended": ended}, lost
