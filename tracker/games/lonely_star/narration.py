"""Lonely Star in words: every check, damage sum, counter and card moved, for the log and the board."""

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rules.lonely_star.rolls import SIDES
from rules.lonely_star.statuses import POISON_AGAIN_MILL

from ..common import filled_in

ZONE_NAMES = {"deck": _("Deck"), "hand": _("Hand"), "discard": _("Discard pile"), "removed": _("Removed")}


def _check_line(event: dict) -> str:
    """A crit, Resist or Luck check as the log and the board explain it."""
    kind = {"crit": gettext("Crit roll"), "resist": gettext("Resist roll"), "luck": gettext("Luck roll")}[
        event["kind"]
    ]
    stat = gettext("Luck") if event["kind"] in ("crit", "luck") else gettext("Resist")
    params = {
        "kind": kind,
        "name": event["name"],
        "stat": stat,
        "total": event["total"],
        "roll": event["roll"],
    }
    if event["certain"] and event["success"]:
        return (
            gettext("%(kind)s for %(name)s: %(stat)s %(total)s is %(sides)s or more, so it always succeeds (no die).")
            % {**params, "sides": SIDES}
        )
    if event["certain"]:
        return gettext("%(kind)s for %(name)s: %(stat)s %(total)s, so it cannot succeed (no die).") % params
    if event["success"]:
        return gettext("%(kind)s for %(name)s: %(roll)s against %(stat)s %(total)s: success.") % params
    return gettext("%(kind)s for %(name)s: %(roll)s against %(stat)s %(total)s: failed.") % params


WHY_MOVED = {
    "luck-mill": filled_in(_("Luck over %(sides)s mills"), sides=SIDES),
    "poison-again": _("Poisoned again"),
    "poison-cost": _("Poison's cost to act"),
    "hex-again": _("Hexed again"),
    "hex-cost": _("Hex's cost to attack"),
    "draw": _("Draw"),
    "override": _("Manual move"),
}
WHY_DAMAGE = {
    "attack": _("attack"),
    "effect": _("card effect"),
    "burn-again": _("Burned again"),
    "hex-again": _("Hexed again, too few discard cards"),
    "hex-cost": _("Hex's cost, empty discard pile"),
    "poison-again": filled_in(_("Poisoned again, fewer than %(mill)s cards in the deck"), mill=POISON_AGAIN_MILL),
}


def describe(event: dict, names: list[str]) -> str:
    """One log line per engine event."""
    e = event
    match e["type"]:
        case "crit_check" | "resist_check" | "luck_check":
            line = _check_line(e)
            if e["type"] == "resist_check" and e.get("end_of_turn") is None:
                line += " " + (
                    gettext("%(status)s resisted.") if e["success"] else gettext("%(status)s applies.")
                ) % {"status": e["status"]}
            return line
        case "damage_calculated":
            if e["ignore_resist"]:
                return gettext("%(amount)s damage ignoring Resist: %(dealt)s dealt to %(target)s.") % e
            if e["crit"]:
                return gettext("Critical Damage: Resist is ignored, %(dealt)s dealt to %(target)s.") % e
            if e["resist"]:
                return gettext("%(amount)s damage - Resist %(resist)s = %(dealt)s dealt to %(target)s.") % e
            return gettext("%(amount)s damage dealt to %(target)s.") % {**e, "amount": e["dealt"]}
        case "damage_placed":
            return ngettext("%(name)s: %(amount)s damage counter (%(why)s), %(damage)s of %(hp)s HP.",
                            "%(name)s: %(amount)s damage counters (%(why)s), %(damage)s of %(hp)s HP.", e["amount"]) % {
                **e,
                "why": WHY_DAMAGE[e["why"]],
            }
        case "lethal":
            return gettext(
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
            line = ngettext("%(why)s: %(moved)s card from %(player)s's %(source)s to %(target)s.",
                            "%(why)s: %(moved)s cards from %(player)s's %(source)s to %(target)s.", e["moved"]) % params
            if e["moved"] < e["asked"]:
                line += " " + gettext("%(asked)s were asked for; only %(moved)s were there.") % params
            return line
        case "status_placed":
            return gettext("%(name)s gets a %(status)s counter (%(counters)s now).") % e
        case "status_capped":
            return gettext("%(name)s already holds the most %(status)s counters (%(cap)s).") % e
        case "status_removed":
            return ngettext("%(name)s removes its %(counters)s %(status)s counter.",
                            "%(name)s removes all %(counters)s %(status)s counters.", e["counters"]) % e
        case "accessory_broken":
            return gettext("Burned again: %(accessory)s on %(name)s breaks and goes to the discard pile.") % e
        case "accessory_spared":
            return gettext("Burned again: the inflicting player breaks none of %(name)s's accessories.") % e
        case "attack_stopped":
            return gettext("%(name)s fell paying Hex's cost and never attacks.") % e
        case "draw_missed":
            return gettext("%(player)s must draw from an empty deck.") % {"player": names[e["seat"]]}
        case "turn_started":
            return gettext("Turn %(turn)s: %(player)s.") % {"turn": e["turn"], "player": names[e["seat"]]}
        case "match_over":
            if e["winner"] is None:
                return gettext("Both players must draw from an empty deck: a draw.")
            return gettext("%(player)s wins.") % {"player": names[e["winner"]]}
        case "d6":
            return gettext("The D6 shows %(roll)s.") % e
        case "counters_set":
            return gettext("%(name)s: %(counter)s counters %(before)s → %(after)s.") % e
        case "stat_changed":
            return gettext("%(name)s: %(stat)s %(change)+d, total now %(total)s.") % e
        case "unit_left":
            return gettext("%(name)s leaves play to %(to)s.") % {**e, "to": ZONE_NAMES[e["to"]]}
    return ""


def describe_action(action: dict, events: list[dict], names: list[str]) -> str:
    """The log title of an action."""
    seat = action.get("seat")
    player = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    first = events[0] if events else {}
    match action.get("type"):
        case "play_unit":
            c = action["card"]
            return gettext(
                "%(player)s plays %(name)s (HP %(hp)s, AT %(at)s, LK %(lk)s, RS %(rs)s, reach %(reach)s)"
            ) % {"player": player, **c}
        case "equip":
            return gettext("%(player)s equips %(accessory)s to %(name)s") % {"player": player, **first}
        case "attack":
            return gettext("%(name)s attacks %(target)s") % first
        case "act":
            verb = gettext("moves") if action["how"] == "move" else gettext("plays a card")
            return gettext("%(name)s %(verb)s") % {"name": first["name"], "verb": verb}
        case "damage":
            return gettext("Card effect from %(name)s: %(amount)s damage to %(target)s") % first
        case "inflict":
            return gettext("%(player)s inflicts %(status)s on %(target)s%(ignoring)s") % {
                "player": player,
                **first,
                "ignoring": gettext(", ignoring Resist") if first["ignore_resist"] else "",
            }
        case "luck_roll":
            return gettext("Luck roll for %(name)s: %(result)s") % {
                "name": first["name"],
                "result": gettext("success") if first["success"] else gettext("failed"),
            }
        case "d6":
            return gettext("%(player)s rolls a D6: %(roll)s") % {"player": player, "roll": first["roll"]}
        case "end_turn":
            return gettext("%(player)s ends the turn") % {"player": player}
        case "resist_roll":
            return gettext("End of turn: Resist roll for %(name)s against %(status)s") % first
        case "finish_turn":
            return gettext("Each player draws")
        case "declare_winner":
            return gettext("The table declares %(player)s the winner") % {"player": names[action["winner"]]}
        case "define_status":
            return gettext("Table status added: %(name)s lowers %(stat)s") % first
        case "adjust":
            return gettext("Manual adjustment")
    return str(action.get("type", ""))
