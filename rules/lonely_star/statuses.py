"""Statuses: counters that lower a stat, a Resist roll to avoid them, a price for taking them again.

Burn, Hex, Poison and Blind come from the game's public status page. Each lowers one
stat (Burn AT, Hex LK, Poison RS, Blind reach), each has a penalty when a unit that
already has it receives it again, and Hex and Poison make acting cost something.
A table can add its own status (a name and the stat it lowers) for ones the public
page does not list; those have no penalty beyond their counter.

Decisions where the pages are silent (each written where the code applies it):
- Penalty size: the page says a status lowers its stat by 1 "while a unit has a
  counter". By default that is 1 however many counters; the per-match option
  `status_penalty: "per-counter"` lowers it by 1 per counter instead.
- Counter caps: the page caps Poison at 1 and names no cap for the others, so Burn,
  Hex, Blind and table statuses are uncapped by default; the option `counter_cap`
  (a number, 0 = no cap) caps them for tables that play with one.
- Receiving a status again still places a counter (up to the cap), then its penalty.
- "Base Luck" for the Hex penalty is the printed Luck (what the board shows as base).
- "If they cannot": when Hex's cards or Poison's 2 cards are not all there, none are
  moved and the unit takes the damage instead; paying part and also being damaged
  would punish twice.
- The 1 damage of a second Burn is neither an attack nor a card effect: no crit roll,
  and Resist (which reduces only attack and card-effect damage) does not apply.
- Blind's rule on the page is cut off after "loses 1 reach for each"; we read it as
  one reach per Blind counter when the unit resolves an effect that reaches other
  cards (shown on the board as effect reach). A second Blind only adds a counter.
- A broken accessory goes to its controller's discard pile; the inflicting player
  "may" break one, so the action names which one, or none.
- A Poisoned unit whose controller's deck is empty cannot pay for acting, so it
  cannot attack, move or play a card (refused with the reason).
"""

from ..dice import Dice
from ..errors import IllegalAction, gettext_noop
from .rolls import check
from .state import MatchState
from .units import STAT_NAMES, STATS, is_name, place_damage, total
from .zones import move_cards

BUILT_IN = {
    "burn": {"name": "Burn", "stat": "at"},
    "hex": {"name": "Hex", "stat": "lk"},
    "poison": {"name": "Poison", "stat": "rs"},
    "blind": {"name": "Blind", "stat": "reach"},
}
POISON_CAP = 1
HEX_ATTACK_COST = 1
HEX_ATTACK_DAMAGE = 1
POISON_ACT_COST = 1
POISON_AGAIN_MILL = 2
NAME_MAX = 30


def status_key(state: MatchState, value: object) -> str:
    """The status a form or action names (any case), or IllegalAction for one the match does not know."""
    key = value.strip().casefold() if isinstance(value, str) else None
    if key is None or key not in state["statuses"]:
        raise IllegalAction(
            "status-unknown",
            gettext_noop(
                "There is no status called %(status)r in this match; add it as a table status first."
            ),
            status=value,
        )
    return key


def counter_cap(state: MatchState, key: str) -> int | None:
    if key == "poison":
        return POISON_CAP
    return state["options"]["counter_cap"] or None


def define_status(state: MatchState, name: object, stat: object) -> list[dict]:
    """A table's own status: its name and the stat its counters lower."""
    if not is_name(name, NAME_MAX):
        raise IllegalAction(
            "status-name", gettext_noop("A status needs a name of 1 to %(most)s characters."), most=NAME_MAX
        )
    name = " ".join(name.split())
    if name.casefold() in state["statuses"]:
        raise IllegalAction(
            "status-exists", gettext_noop("There is already a status called %(status)s."), status=name
        )
    if stat not in STATS:
        raise IllegalAction(
            "status-stat",
            gettext_noop("A status lowers one of HP, AT, LK, RS or Reach, not %(stat)r."),
            stat=stat,
        )
    state["statuses"][name.casefold()] = {"name": name, "stat": stat, "table": True}
    return [{"type": "status_defined", "name": name, "stat": STAT_NAMES[stat]}]


def inflict(
    state: MatchState,
    unit: dict,
    key: str,
    ignore_resist: bool,
    break_accessory: str | None,
    dice: Dice,
    events: list[dict],
) -> None:
    """Inflict a status: the target rolls Resist first unless the effect ignores it."""
    name = state["statuses"][key]["name"]
    if not ignore_resist:
        result = check(dice, total(state, unit, "rs"), "resist", unit["name"])
        events.append(
            {"type": "resist_check", "unit": unit["id"], "name": unit["name"], "status": name, **result}
        )
        if result["success"]:
            return
    again = unit["statuses"].get(key, 0) > 0
    cap = counter_cap(state, key)
    if cap is None or unit["statuses"].get(key, 0) < cap:
        unit["statuses"][key] = unit["statuses"].get(key, 0) + 1
        events.append(
            {
                "type": "status_placed",
                "unit": unit["id"],
                "name": unit["name"],
                "status": name,
                "counters": unit["statuses"][key],
                "again": again,
            }
        )
    else:
        events.append(
            {"type": "status_capped", "unit": unit["id"], "name": unit["name"], "status": name, "cap": cap}
        )
    if again:
        _inflicted_again(state, unit, key, break_accessory, events)


def _inflicted_again(
    state: MatchState, unit: dict, key: str, break_accessory: str | None, events: list[dict]
) -> None:
    zones = state["players"][unit["seat"]]
    if key == "burn":
        if not unit["accessories"]:
            place_damage(state, unit, 1, events, "burn-again")
        elif break_accessory is not None:
            unit["accessories"].remove(break_accessory)
            zones["discard"] += 1
            events.append(
                {
                    "type": "accessory_broken",
                    "unit": unit["id"],
                    "name": unit["name"],
                    "accessory": break_accessory,
                }
            )
        else:
            events.append({"type": "accessory_spared", "unit": unit["id"], "name": unit["name"]})
    elif key == "hex":
        cards = unit["base"]["lk"]
        if zones["discard"] >= cards:
            if cards:
                move_cards(state, unit["seat"], "discard", "removed", cards, events, "hex-again")
        else:
            place_damage(state, unit, 1, events, "hex-again")
    elif key == "poison":
        if zones["deck"] >= POISON_AGAIN_MILL:
            move_cards(state, unit["seat"], "deck", "discard", POISON_AGAIN_MILL, events, "poison-again")
        else:
            place_damage(state, unit, unit["statuses"]["poison"], events, "poison-again")


def check_break_choice(unit: dict, key: str, break_accessory: object) -> None:
    """Refuse, before anything happens, a Burn that names an accessory the unit does not have."""
    if key == "burn" and break_accessory is not None and break_accessory not in unit["accessories"]:
        raise IllegalAction(
            "accessory-unknown",
            gettext_noop("%(unit)s has no accessory called %(accessory)r to break."),
            unit=unit["name"],
            accessory=break_accessory,
        )


def check_acting_cost(state: MatchState, unit: dict) -> None:
    """Refuse an act a Poisoned unit's controller cannot pay for (an empty deck)."""
    if unit["statuses"].get("poison") and state["players"][unit["seat"]]["deck"] == 0:
        raise IllegalAction(
            "poison-cost",
            gettext_noop(
                "%(unit)s is Poisoned: acting costs the top card of the deck, and the deck is empty."
            ),
            unit=unit["name"],
        )


def pay_acting_costs(state: MatchState, unit: dict, attacking: bool, events: list[dict]) -> None:
    """Poison's card to act, then (attacks only) Hex's card from the discard pile or 1 damage."""
    check_acting_cost(state, unit)
    if unit["statuses"].get("poison"):
        move_cards(state, unit["seat"], "deck", "discard", POISON_ACT_COST, events, "poison-cost")
    if attacking and unit["statuses"].get("hex"):
        if state["players"][unit["seat"]]["discard"] >= HEX_ATTACK_COST:
            move_cards(state, unit["seat"], "discard", "removed", HEX_ATTACK_COST, events, "hex-cost")
        else:
            place_damage(state, unit, HEX_ATTACK_DAMAGE, events, "hex-cost")


def end_of_turn_resist(state: MatchState, unit: dict, key: str, dice: Dice, events: list[dict]) -> None:
    """The end-of-turn Resist roll: on a success, all counters of the chosen status go."""
    result = check(dice, total(state, unit, "rs"), "resist", unit["name"])
    name = state["statuses"][key]["name"]
    events.append(
        {
            "type": "resist_check",
            "unit": unit["id"],
            "name": unit["name"],
            "status": name,
            "end_of_turn": True,
            **result,
        }
    )
    if result["success"]:
        removed = unit["statuses"].pop(key)
        events.append(
            {
                "type": "status_removed",
                "unit": unit["id"],
                "name": unit["name"],
                "status": name,
                "counters": removed,
            }
        )


def effect_reach(state: MatchState, unit: dict) -> int:
    """Reach when resolving an effect that reaches other cards: total reach, less 1 per Blind counter."""
    value = total(state, unit, "reach") - unit["statuses"].get("blind", 0)
    return value if state["options"]["stat_floor"] == "none" else max(0, value)
