"""Lonely Star units: the card's gems, its totals, and when it takes lethal damage.

A card in play is a unit with five stats: Health (HP, green gems), Attack (AT, red),
Luck (LK, purple), Resist (RS, yellow) and reach. The printed value is the unit's
*base*; its *total* is what every rule compares against (rolls, damage, lethal).

Decisions where the rule pages are silent:
- Base and total. The rulebook speaks of "total Luck", "total Resist", "total
  Health" and the status page of statuses lowering a "base" stat. We show the
  printed value as base; total = base + the table's manual modifier, then minus
  status penalties. The status page puts its reduction "after all other base-stat
  modifiers", so the penalty comes last.
- Stats below 0. Nothing says a stat can go negative, and a negative Resist would
  add damage, which no rule mentions. By default a total stops at 0; the per-match
  option `stat_floor: "none"` lets totals go negative for tables that play so.
- Reach. The pages name reach (Blind lowers it) but never say how it is measured on
  the table. We keep it as a number printed on the card, shown base and total like
  the gems; the engine does not check distances, the players do.
- Ranges. A card's gems are whole numbers 0 to 99 (Health at least 1: a unit with
  no Health would be lethally damaged the moment it entered play). Nothing larger
  fits on a card; a bigger number is a typing mistake.
"""

from typing import Any, TypeGuard

from ..errors import InvalidCard, Word, gettext_noop
from .state import MatchState

STATS = ("hp", "at", "lk", "rs", "reach")
# Marked, so each has German in Lonely Star's catalogue (a page says it in the game's words: errors.Word).
STAT_NAMES = {"hp": gettext_noop("HP"), "at": gettext_noop("AT"), "lk": gettext_noop("LK"), "rs": gettext_noop("RS"),
              "reach": gettext_noop("Reach")}
STAT_MAX = 99
NAME_MAX = 60
MIN_STAT = {"hp": 1}


def is_name(value: object, most: int) -> TypeGuard[str]:
    """A name a player could have typed: 1 to `most` printable characters."""
    return isinstance(value, str) and value.isprintable() and 0 < len(value.strip()) <= most


def validate_card(card: Any) -> dict:
    """A unit card with its gems checked: name, hp, at, lk, rs and reach."""
    if not isinstance(card, dict):
        raise InvalidCard("card-shape", gettext_noop("A card must be a set of named stats."))
    name = card.get("name")
    if not is_name(name, NAME_MAX):
        raise InvalidCard(
            "card-name", gettext_noop("A card needs a name of 1 to %(most)s characters."), most=NAME_MAX
        )
    checked: dict[str, str | int] = {"name": " ".join(name.split())}
    for stat in STATS:
        value = card.get(stat)
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidCard(
                "card-stat-type",
                gettext_noop("%(stat)s must be a whole number, not %(value)r."),
                stat=Word(STAT_NAMES[stat]),
                value=value,
            )
        low = MIN_STAT.get(stat, 0)
        if not low <= value <= STAT_MAX:
            raise InvalidCard(
                "card-stat-range",
                gettext_noop("%(stat)s must be between %(low)s and %(high)s; %(value)s is out of range."),
                stat=Word(STAT_NAMES[stat]),
                low=low,
                high=STAT_MAX,
                value=value,
            )
        checked[stat] = value
    return checked


def new_unit(unit_id: int, seat: int, card: dict) -> dict:
    """A unit entering play from a checked card: no counters, no modifiers, no accessories."""
    return {
        "id": unit_id,
        "seat": seat,
        "name": card["name"],
        "base": {stat: card[stat] for stat in STATS},
        "mods": {stat: 0 for stat in STATS},
        "damage": 0,
        "statuses": {},
        "accessories": [],
    }


def total(state: MatchState, unit: dict, stat: str) -> int:
    """The stat every rule uses: base, plus the table's modifier, then minus status penalties."""
    value = unit["base"][stat] + unit["mods"][stat] - status_penalty(state, unit, stat)
    return value if state["options"]["stat_floor"] == "none" else max(0, value)


def hp_left(state: MatchState, unit: dict) -> int:
    """Total Health less damage counters: what the unit can still take before lethal damage."""
    return total(state, unit, "hp") - unit["damage"]


def status_penalty(state: MatchState, unit: dict, stat: str) -> int:
    """How much the unit's statuses lower `stat`: 1 per status type, or 1 per counter (option)."""
    per_counter = state["options"]["status_penalty"] == "per-counter"
    return sum(
        (count if per_counter else 1)
        for key, count in unit["statuses"].items()
        if count and state["statuses"][key]["stat"] == stat
    )


def find_unit(state: MatchState, unit_id: int) -> dict | None:
    return next((unit for unit in state["units"] if unit["id"] == unit_id), None)


def place_damage(state: MatchState, unit: dict, amount: int, events: list[dict], why: str) -> None:
    """Put `amount` damage counters on a unit; lethal damage is checked by `settle_lethal`."""
    if amount <= 0:
        return
    unit["damage"] += amount
    events.append(
        {
            "type": "damage_placed",
            "unit": unit["id"],
            "name": unit["name"],
            "amount": amount,
            "why": why,
            "damage": unit["damage"],
            "hp": total(state, unit, "hp"),
        }
    )


def settle_lethal(state: MatchState, events: list[dict]) -> None:
    """Every unit whose damage counters reach its total Health leaves play.

    The rulebook calls this Lethal Damage without saying where the card goes. By
    default it goes to its controller's discard pile with its equipped accessories
    (where a spent card goes in most games, and where Hex later looks for cards);
    the per-match option `lethal_to: "removed"` removes them from the game instead.
    """
    destination = state["options"]["lethal_to"]
    for unit in list(state["units"]):
        health = total(state, unit, "hp")
        if unit["damage"] < health:
            continue
        state["units"].remove(unit)
        state["players"][unit["seat"]][destination] += 1 + len(unit["accessories"])
        events.append(
            {
                "type": "lethal",
                "unit": unit["id"],
                "name": unit["name"],
                "seat": unit["seat"],
                "damage": unit["damage"],
                "hp": health,
                "to": destination,
                "accessories": list(unit["accessories"]),
            }
        )
