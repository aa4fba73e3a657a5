"""Damage: attacks and card effects, the Critical Damage roll, Resist, and milling by high Luck.

The rulebook's damage calculation: the unit dealing the damage rolls a D6 for
Critical Damage against its total Luck. On a success the target's Resist is
ignored; on a failure the damage is reduced by the target's total Resist. The
damage becomes damage counters; counters reaching total Health are lethal. A unit
with total Luck over 6 that deals damage *with an attack* sends (Luck - 6) cards
from the top of the defender's deck to their discard pile (the example: Luck 8
deals damage, 2 cards go).

Decisions where the rulebook is silent:
- Damage never goes below 0 (Resist larger than the damage means no damage, not healing).
- Luck over 6 mills only when the attack dealt at least 1 damage ("deals damage").
  Card-effect damage never mills: the rulebook says "with an attack".
- Effect damage that ignores Resist rolls no crit: a crit only ignores Resist, so the
  roll could not change anything.
- A Hexed attacker that dies paying Hex's 1 damage never gets to deal its attack.
"""

from ..dice import Dice
from .rolls import SIDES, check
from .state import MatchState
from .statuses import pay_acting_costs
from .units import place_damage, total
from .zones import move_cards


def deal_damage(
    state: MatchState,
    source: dict,
    target: dict,
    amount: int,
    ignore_resist: bool,
    dice: Dice,
    events: list[dict],
    why: str,
) -> int:
    """Damage calculation from `source` to `target`: crit roll, Resist, counters. Returns damage dealt."""
    resist, crit = 0, False
    if not ignore_resist:
        result = check(dice, total(state, source, "lk"), "crit", source["name"])
        events.append({"type": "crit_check", "unit": source["id"], "name": source["name"], **result})
        crit = result["success"]
        if not crit:
            resist = total(state, target, "rs")
    dealt = max(0, amount - resist)
    events.append(
        {
            "type": "damage_calculated",
            "source": source["name"],
            "target": target["name"],
            "amount": amount,
            "resist": resist,
            "crit": crit,
            "ignore_resist": ignore_resist,
            "dealt": dealt,
            "why": why,
        }
    )
    place_damage(state, target, dealt, events, why)
    return dealt


def luck_mill(luck: int) -> int:
    """How many cards an attack dealing damage mills from the defender's deck: total Luck over 6."""
    return max(0, luck - SIDES)


def attack(state: MatchState, attacker: dict, target: dict, dice: Dice, events: list[dict]) -> None:
    """An attack: acting costs, then damage calculation with the attacker's total AT, then Luck's mill."""
    pay_acting_costs(state, attacker, attacking=True, events=events)
    if attacker["damage"] >= total(state, attacker, "hp"):
        events.append({"type": "attack_stopped", "unit": attacker["id"], "name": attacker["name"]})
        return
    dealt = deal_damage(state, attacker, target, total(state, attacker, "at"), False, dice, events, "attack")
    milled = luck_mill(total(state, attacker, "lk"))
    if dealt and milled:
        move_cards(state, target["seat"], "deck", "discard", milled, events, "luck-mill")
