"""Lonely Star in words: every check, damage sum, counter and card moved, for the log and the board."""

import re

from django.utils.translation import npgettext, pgettext, pgettext_lazy

from rules.lonely_star import STAT_NAMES
from rules.lonely_star.rolls import SIDES
from rules.lonely_star.statuses import POISON_AGAIN_MILL

from ...matches.engine_messages import engine_word, engine_word_lazy
from ..common import filled_in

# Each stat's name as the pages show it (a form's label, the board, the log): the engine's, in the game's words.
STAT_LABELS = {stat: engine_word_lazy("lonely-star", name) for stat, name in STAT_NAMES.items()}

ZONE_NAMES = {
    "deck": pgettext_lazy("lonely-star", "Deck"),
    "hand": pgettext_lazy("lonely-star", "Hand"),
    "discard": pgettext_lazy("lonely-star", "Discard pile"),
    "removed": pgettext_lazy("lonely-star", "Removed"),
}


# The reason rules/lonely_star/rolls.py records with a check's die: "crit: Ember Drifter (3)".
_CHECK_ROLL = re.compile(r"(?P<kind>crit|resist|luck): (?P<name>.+) \((?P<total>-?\d+)\)")


def roll_reason(why: str) -> str:
    """A die's reason in the reader's words: "Crit roll: Ember Drifter, Luck 3" for the engine's "crit: Ember
    Drifter (3)"; a plain D6 (rules/lonely_star/match.py) as such."""
    if why == "plain D6":
        return pgettext("lonely-star", "a plain D6")
    found = _CHECK_ROLL.fullmatch(why)
    if found is None:
        return why
    kind, stat = _CHECK_WORDS[found["kind"]]
    return pgettext("lonely-star", "%(kind)s: %(name)s, %(stat)s %(total)s") % {
        "kind": kind, "name": found["name"], "stat": stat, "total": found["total"]}


_CHECK_WORDS = {
    "crit": (pgettext_lazy("lonely-star", "Crit roll"), pgettext_lazy("lonely-star", "Luck")),
    "resist": (pgettext_lazy("lonely-star", "Resist roll"), pgettext_lazy("lonely-star", "Resist")),
    "luck": (pgettext_lazy("lonely-star", "Luck roll"), pgettext_lazy("lonely-star", "Luck")),
}


def _check_line(event: dict) -> str:
    """A crit, Resist or Luck check as the log and the board explain it."""
    kind = {
        "crit": pgettext("lonely-star", "Crit roll"),
        "resist": pgettext("lonely-star", "Resist roll"),
        "luck": pgettext("lonely-star", "Luck roll"),
    }[event["kind"]]
    stat = pgettext("lonely-star", "Luck") if event["kind"] in ("crit", "luck") else pgettext("lonely-star", "Resist")
    params = {
        "kind": kind,
        "name": event["name"],
        "stat": stat,
        "total": event["total"],
        "roll": event["roll"],
    }
    if event["certain"] and event["success"]:
        return pgettext(
            "lonely-star",
            "%(kind)s for %(name)s: %(stat)s %(total)s is %(sides)s or more, so it always succeeds (no die).",
        ) % {**params, "sides": SIDES}
    if event["certain"]:
        return (
            pgettext(
                "lonely-star", "%(kind)s for %(name)s: %(stat)s %(total)s, so it cannot succeed (no die)."
            )
            % params
        )
    if event["success"]:
        return pgettext("lonely-star", "%(kind)s for %(name)s: %(roll)s against %(stat)s %(total)s: success.") % params
    return pgettext("lonely-star", "%(kind)s for %(name)s: %(roll)s against %(stat)s %(total)s: failed.") % params


WHY_MOVED = {
    "luck-mill": filled_in(pgettext_lazy("lonely-star", "Luck over %(sides)s mills"), sides=SIDES),
    "poison-again": pgettext_lazy("lonely-star", "Poisoned again"),
    "poison-cost": pgettext_lazy("lonely-star", "Poison's cost to act"),
    "hex-again": pgettext_lazy("lonely-star", "Hexed again"),
    "hex-cost": pgettext_lazy("lonely-star", "Hex's cost to attack"),
    "draw": pgettext_lazy("lonely-star", "Draw"),
    "override": pgettext_lazy("lonely-star", "Manual move"),
}
WHY_DAMAGE = {
    "attack": pgettext_lazy("lonely-star", "attack"),
    "effect": pgettext_lazy("lonely-star", "card effect"),
    "burn-again": pgettext_lazy("lonely-star", "Burned again"),
    "hex-again": pgettext_lazy("lonely-star", "Hexed again, too few discard cards"),
    "hex-cost": pgettext_lazy("lonely-star", "Hex's cost, empty discard pile"),
    "poison-again": filled_in(
        pgettext_lazy("lonely-star", "Poisoned again, fewer than %(mill)s cards in the deck"),
        mill=POISON_AGAIN_MILL,
    ),
}


def describe(event: dict, names: list[str]) -> str:
    """One log line per engine event."""
    e = event
    match e["type"]:
        case "crit_check" | "resist_check" | "luck_check":
            line = _check_line(e)
            if e["type"] == "resist_check" and e.get("end_of_turn") is None:
                line += " " + (
                    pgettext("lonely-star", "%(status)s resisted.")
                    if e["success"]
                    else pgettext("lonely-star", "%(status)s applies.")
                ) % {"status": e["status"]}
            return line
        case "damage_calculated":
            if e["ignore_resist"]:
                return pgettext("lonely-star", "%(amount)s damage ignoring Resist: %(dealt)s dealt to %(target)s.") % e
            if e["crit"]:
                return pgettext("lonely-star", "Critical Damage: Resist is ignored, %(dealt)s dealt to %(target)s.") % e
            if e["resist"]:
                return (
                    pgettext(
                        "lonely-star",
                        "%(amount)s damage - Resist %(resist)s = %(dealt)s dealt to %(target)s.",
                    )
                    % e
                )
            return pgettext("lonely-star", "%(amount)s damage dealt to %(target)s.") % {**e, "amount": e["dealt"]}
        case "damage_placed":
            return npgettext("lonely-star", "%(name)s: %(amount)s damage counter (%(why)s), %(damage)s of %(hp)s HP.",
                            "%(name)s: %(amount)s damage counters (%(why)s), %(damage)s of %(hp)s HP.", e["amount"]) % {
                **e,
                "why": WHY_DAMAGE[e["why"]],
            }
        case "lethal":
            return pgettext("lonely-star", 
                "%(name)s takes lethal damage (%(damage)s counters, HP %(hp)s) and goes to %(to)s."
            ) % {**e, "to": ZONE_NAMES[e["to"]]}
        case "cards_moved":
            params = {
                **e,
                "why": WHY_MOVED[e["why"]],
                "player": names[e["seat"]],
                "source": ZONE_NAMES[e["source"]],
                "target": ZONE_NAMES[e["target"]],
            }
            line = npgettext("lonely-star", "%(why)s: %(moved)s card from %(player)s's %(source)s to %(target)s.",
                            "%(why)s: %(moved)s cards from %(player)s's %(source)s to %(target)s.", e["moved"]) % params
            if e["moved"] < e["asked"]:  # two counts, each with its own plural: two messages
                asked = npgettext("lonely-star", "%(asked)s was asked for;", "%(asked)s were asked for;", e["asked"])
                there = (npgettext("lonely-star", "only %(moved)s was there.", "only %(moved)s were there.", e["moved"])
                         if e["moved"] else pgettext("lonely-star", "none was there."))
                line += " " + asked % params + " " + there % params
            return line
        case "status_placed":
            return pgettext("lonely-star", "%(name)s gets a %(status)s counter (%(counters)s now).") % e
        case "status_capped":
            return pgettext("lonely-star", "%(name)s already holds the most %(status)s counters (%(cap)s).") % e
        case "status_removed":
            return npgettext("lonely-star", "%(name)s removes its %(counters)s %(status)s counter.",
                            "%(name)s removes all %(counters)s %(status)s counters.", e["counters"]) % e
        case "accessory_broken":
            return (
                pgettext(
                    "lonely-star",
                    "Burned again: %(accessory)s on %(name)s breaks and goes to the discard pile.",
                )
                % e
            )
        case "accessory_spared":
            return (
                pgettext(
                    "lonely-star",
                    "Burned again: the inflicting player breaks none of %(name)s's accessories.",
                )
                % e
            )
        case "attack_stopped":
            return pgettext("lonely-star", "%(name)s fell paying Hex's cost and never attacks.") % e
        case "draw_missed":
            return pgettext("lonely-star", "%(player)s must draw from an empty deck.") % {"player": names[e["seat"]]}
        case "turn_started":
            return pgettext("lonely-star", "Turn %(turn)s: %(player)s.") % {
                "turn": e["turn"],
                "player": names[e["seat"]],
            }
        case "match_over":
            if e["winner"] is None:
                return pgettext("lonely-star", "Both players must draw from an empty deck: a draw.")
            return pgettext("lonely-star", "%(player)s wins.") % {"player": names[e["winner"]]}
        case "d6":
            return pgettext("lonely-star", "The D6 shows %(roll)s.") % e
        case "counters_set":
            if e["counter"] == "damage":  # the engine's key, not a word: the status's name otherwise, as it is named
                return pgettext("lonely-star", "%(name)s: damage counters %(before)s → %(after)s.") % e
            return pgettext("lonely-star", "%(name)s: %(counter)s counters %(before)s → %(after)s.") % e
        case "stat_changed":
            return pgettext("lonely-star", "%(name)s: %(stat)s %(change)+d, total now %(total)s.") % {
                **e, "stat": engine_word("lonely-star", e["stat"])}
        case "unit_left":
            return pgettext("lonely-star", "%(name)s leaves play to %(to)s.") % {**e, "to": ZONE_NAMES[e["to"]]}
    return ""


def describe_action(action: dict, events: list[dict], names: list[str]) -> str:
    """The log title of an action."""
    seat = action.get("seat")
    player = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    first = events[0] if events else {}
    match action.get("type"):
        case "play_unit":
            c = action["card"]
            return pgettext("lonely-star", 
                "%(player)s plays %(name)s (HP %(hp)s, AT %(at)s, LK %(lk)s, RS %(rs)s, reach %(reach)s)"
            ) % {"player": player, **c}
        case "equip":
            return pgettext("lonely-star", "%(player)s equips %(accessory)s to %(name)s") % {"player": player, **first}
        case "attack":
            return pgettext("lonely-star", "%(name)s attacks %(target)s") % first
        case "act":
            verb = (
                pgettext("lonely-star", "moves")
                if action["how"] == "move"
                else pgettext("lonely-star", "plays a card")
            )
            return pgettext("lonely-star", "%(name)s %(verb)s") % {"name": first["name"], "verb": verb}
        case "damage":
            return pgettext("lonely-star", "Card effect from %(name)s: %(amount)s damage to %(target)s") % first
        case "inflict":
            return pgettext("lonely-star", "%(player)s inflicts %(status)s on %(target)s%(ignoring)s") % {
                "player": player,
                **first,
                "ignoring": pgettext("lonely-star", ", ignoring Resist") if first["ignore_resist"] else "",
            }
        case "luck_roll":
            return pgettext("lonely-star", "Luck roll for %(name)s: %(result)s") % {
                "name": first["name"],
                "result": pgettext("lonely-star", "success") if first["success"] else pgettext("lonely-star", "failed"),
            }
        case "d6":
            return pgettext("lonely-star", "%(player)s rolls a D6: %(roll)s") % {
                "player": player,
                "roll": first["roll"],
            }
        case "end_turn":
            return pgettext("lonely-star", "%(player)s ends the turn") % {"player": player}
        case "resist_roll":
            return pgettext("lonely-star", "End of turn: Resist roll for %(name)s against %(status)s") % first
        case "finish_turn":
            return pgettext("lonely-star", "Each player draws")
        case "declare_winner":
            return pgettext("lonely-star", "The table declares %(player)s the winner") % {
                "player": names[action["winner"]]
            }
        case "define_status":
            return pgettext("lonely-star", "Table status added: %(name)s lowers %(stat)s") % first
        case "adjust":
            return pgettext("lonely-star", "Manual adjustment")
    return str(action.get("type", ""))
