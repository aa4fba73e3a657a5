"""Cardmaster in words: the working of every hit, roll, raid and status, for the board and the log."""

import re

from django.utils.translation import npgettext, pgettext, pgettext_lazy

from rules.cardmaster.fighters import SEAT_LETTERS
from rules.cardmaster.gems import MOVE_LABELS
from rules.cardmaster.moves import ATTACKS
from rules.cardmaster.typechart import TYPE_SYMBOLS
from tracker.matches.numbers import decimal
from tracker.matches.services import engine_message

from .forms import SLUG, STATUS_LABELS

# The reasons the engine records with its rolls: a tied round's coin (rules/cardmaster/possession.py) and an
# attack's backfire and status rolls (rules/cardmaster/moves.py), the card's name first, whatever it holds.
_POSSESSION_FLIP = re.compile(r"cardmaster round (\d+) possession")
_ATTACK_ROLL = re.compile(rf"(?P<card>.+) (?P<move>{'|'.join(ATTACKS)}) (?P<what>backfire|{'|'.join(STATUS_LABELS)})")


def roll_reason(why: str) -> str:
    """A roll's reason in the reader's words: "Backfire, Volt Lancer's A2" for the engine's "Volt Lancer a2 backfire"."""
    if found := _POSSESSION_FLIP.fullmatch(why):
        return pgettext("cardmaster", "who has possession first in round %(n)s") % {"n": found[1]}
    if found := _ATTACK_ROLL.fullmatch(why):
        what = pgettext("cardmaster", "Backfire") if found["what"] == "backfire" else STATUS_LABELS[found["what"]]
        return pgettext("cardmaster", "%(what)s, %(card)s's %(move)s") % {
            "what": what, "card": found["card"], "move": MOVE_LABELS[found["move"]]}
    return why


STAT_NAMES = {"spd": "SPD", "hp": "HP", "def": "DEF", "atk": "ATK", "spc": "SPC"}
DONE_LABELS = {
    "moved": pgettext_lazy("cardmaster", "moved"),
    "arrived": pgettext_lazy("cardmaster", "just shifted in"),
    "frozen": pgettext_lazy("cardmaster", "frozen, skips"),
}


def type_label(number: int, name: str) -> str:
    """A type by symbol and name, e.g. "✹ Ember" (never colour alone)."""
    return f"{TYPE_SYMBOLS[number - 1]} {name}"


def multiplier_text(fraction: str) -> str:
    """A type multiplier as the chart prints it (0.5, not 1/2), with the language's decimal mark."""
    return decimal({"1/2": "0.5", "1/4": "0.25"}.get(fraction, fraction))


def attack_working(event: dict) -> str:
    """ "Ace hits Bee with A2: ATK 300 × 0.66 × 2 (⛰ Stone) × (1 − DEF 100/1000) = 356." """
    text = pgettext("cardmaster", 
        "%(card)s hits %(target)s with %(move)s: ATK %(atk)s × %(factor)s × %(mult)s (%(type)s) "
        "× (1 − DEF %(def)s/1000) = %(damage)s damage; %(target)s has %(hp)s HP left."
    ) % {
        "card": event["card_name"], "target": event["target_name"], "move": MOVE_LABELS[event["move"]],
        "atk": event["atk"], "factor": decimal(event["factor"]), "mult": multiplier_text(event["type_multiplier"]),
        "type": type_label(event["attack_type"], event["type_name"]), "def": event["def"], "damage": event["damage"],
        "hp": event["hp_after"],
    }
    if event["cost"]:
        text += " " + pgettext(
            "cardmaster", "Paid %(cost)s gems: %(stack)s from its stack, %(raided)s from the raided pool."
        ) % {"cost": event["cost"], "stack": event["from_stack"], "raided": event["from_raided"]}
    return text + _rolls(event)


def attack_result(event: dict) -> str:
    """An attack without its formula, for the outcome box: "Ace hits Bee: 356 damage (×2 ⛰ Stone); Bee has
    544 HP left." with the backfire and status rolls."""
    text = pgettext(
        "cardmaster",
        "%(card)s hits %(target)s: %(damage)s damage (×%(mult)s %(type)s); %(target)s has %(hp)s HP left.",
    )
    return text % {
        "card": event["card_name"], "target": event["target_name"], "damage": event["damage"],
        "mult": multiplier_text(event["type_multiplier"]), "type": type_label(event["attack_type"], event["type_name"]),
        "hp": event["hp_after"]} + _rolls(event)


def outcome_line(event: dict, names: list[str]) -> str:
    """The outcome box's line: an attack's result without its formula (the log has it), the rest as logged."""
    return attack_result(event) if event["type"] == "attack" else describe(event, names)


def _rolls(event: dict) -> str:
    """An attack's backfire and status rolls, and a status lost with its target."""
    text = ""
    for roll, label in (
        (event["backfire"], pgettext("cardmaster", "Backfire")),
        (event["proc"], pgettext("cardmaster", "Status")),
    ):
        if roll:
            verdict = pgettext("cardmaster", "lands") if roll["hit"] else pgettext("cardmaster", "misses")
            text += " " + pgettext("cardmaster", "%(what)s chance %(chance)s%%, rolled %(roll)s: %(verdict)s.") % {
                "what": label, "chance": decimal(roll["chance"]), "roll": roll["roll"], "verdict": verdict}
    if event.get("status_lost"):
        text += " " + pgettext("cardmaster", "The status is lost: the target fell.")
    return text


def describe(event: dict, names: list[str]) -> str:
    """One line of the match log for an engine event ("" when the action's title says it all)."""
    kind = event["type"]
    if kind == "attack":
        return attack_working(event)
    if kind == "lineup_locked":
        return ""
    if kind == "lineups_revealed":
        return pgettext("cardmaster", "Both lineups revealed.")
    if kind == "round":
        fast = event["fastest"]
        speeds = pgettext("cardmaster", "fastest: %(a)s SPD %(sa)s, %(b)s SPD %(sb)s") % {
            "a": fast[0]["card_name"], "sa": fast[0]["spd"], "b": fast[1]["card_name"], "sb": fast[1]["spd"]}
        reason = {
            "spd": pgettext("cardmaster", "higher SPD goes first"),
            "alternate": pgettext("cardmaster", "tied, so the team that went second last round goes first"),
            "coin": pgettext("cardmaster", "tied in round 1, so a coin flip from the match seed decided"),
        }[event["decided_by"]]
        return pgettext("cardmaster", "Round %(round)s (%(speeds)s): %(reason)s.") % {
            "round": event["round"], "speeds": speeds, "reason": reason}
    if kind == "possession":
        return pgettext("cardmaster", "%(name)s has possession.") % {"name": names[event["seat"]]}
    if kind == "fall":
        text = pgettext("cardmaster", "%(card)s falls.") % {"card": event["card_name"]}
        if event["raided"]:
            owner = SEAT_LETTERS.index(event["card"][0])
            text += " " + npgettext("cardmaster", "Its %(gems)s stacked gem is raided into %(name)s's pool.",
                              "Its %(gems)s stacked gems are raided into %(name)s's pool.", event["raided"]) % {
                "gems": event["raided"], "name": names[1 - owner]}
        return text
    if kind == "enter":
        return pgettext("cardmaster", "%(card)s steps in from the reserve.") % {"card": event["card_name"]}
    if kind == "status":
        text = pgettext("cardmaster", "%(card)s gets %(status)s (strength %(strength)s%%).") % {
            "card": event["card_name"],
            "status": STATUS_LABELS[event["status"]],
            "strength": decimal(event["strength"]),
        }
        if event["replaced"]:
            text += " " + pgettext("cardmaster", "It replaces %(old)s.") % {"old": STATUS_LABELS[event["replaced"]]}
        return text
    if kind == "tick":
        text = pgettext("cardmaster", "%(status)s on %(card)s") % {
            "status": STATUS_LABELS[event["status"]],
            "card": event["card_name"],
        }
        if event["hp_lost"]:
            text += pgettext("cardmaster", ": −%(lost)s HP, %(hp)s left") % {
                "lost": event["hp_lost"],
                "hp": event["hp"],
            }
        text += "." + (" " + pgettext("cardmaster", "It wears off.") if event["ended"] else "")
        return text
    if kind == "frozen":
        return pgettext("cardmaster", "%(card)s is frozen (Gridfreeze) and skips this possession.") % {
            "card": event["card_name"]
        }
    if kind == "stack":
        return pgettext("cardmaster", "%(card)s stacks a gem: %(shown)s shown.") % {
            "card": event["card_name"],
            "shown": event["shown"],
        }
    if kind == "spc":
        return pgettext("cardmaster", "%(card)s uses SPC: %(stat)s +%(amount)s (SPC %(spc)s ÷ 10), now %(value)s.") % {
            "card": event["card_name"], "stat": STAT_NAMES[event["stat"]], "amount": event["amount"],
            "spc": event["spc"], "value": event["value"]}
    if kind == "revive":
        return pgettext(
            "cardmaster",
            "%(card)s pays %(cost)s gems (%(stack)s stack, %(raided)s raided) to revive %(target)s: "
            "back in reserve at %(hp)s HP, Risen.",
        ) % {
            "card": event["card_name"],
            "cost": event["cost"],
            "stack": event["from_stack"],
            "raided": event["from_raided"],
            "target": event["target_name"],
            "hp": event["hp"],
        }
    if kind == "shift":
        return npgettext("cardmaster", "%(card)s shifts out for %(reserve)s, who brings %(gems)s stacked gem.",
                        "%(card)s shifts out for %(reserve)s, who brings %(gems)s stacked gems.", event["gems"]) % {
            "card": event["card_name"], "reserve": event["reserve_name"], "gems": event["gems"]}
    if kind == "deposit":
        return pgettext(
            "cardmaster",
            "One raided gem deposited on %(card)s: %(shown)s shown, %(raided)s left in the pool.",
        ) % {"card": event["card_name"], "shown": event["shown"], "raided": event["raided"]}
    if kind == "adjusted":
        return adjusted_text(event, names)
    if kind == "match_won":
        mvps = ", ".join(f"{mvp['card_name']} ({mvp['score']})" for mvp in event["mvps"])
        return pgettext("cardmaster", "%(name)s wins. MVPs: %(mvps)s.") % {"name": names[event["winner"]], "mvps": mvps}
    return kind


def adjusted_text(event: dict, names: list[str]) -> str:
    """ "Bee's HP set by hand: 1000 → 420." """
    if event["what"] == "raided":
        return pgettext("cardmaster", "%(name)s's raided pool set by hand: ◆ %(before)s → %(after)s.") % {
            "name": names[event["seat"]], "before": event["before"], "after": event["after"]}
    counter = STAT_NAMES["hp"] if event["what"] == "hp" else pgettext("cardmaster", "stacked gems")
    return pgettext("cardmaster", "%(card)s's %(counter)s set by hand: %(before)s → %(after)s.") % {
        "card": event["card_name"], "counter": counter, "before": event["before"], "after": event["after"]}


def reason_text(reason: dict) -> str:
    """An AI's stored reason (rules/cardmaster/ai/explain.py) in the reader's language."""
    return engine_message(SLUG, reason["template"]) % reason["params"]


def percent(chance: float) -> str:
    return f"{round(chance * 100)}%"


def describe_action(action: dict, events: list[dict], names: list[str]) -> str:
    """What a player did, as the log shows it, with the AI's reason for its own moves and a mark on
    a move made with a hint on the screen."""
    title = move_title(action, events, names)
    ai = action.get("ai")
    if isinstance(ai, dict):
        return pgettext("cardmaster", "%(move)s — AI: %(reason)s (win chance %(chance)s)") % {
            "move": title, "reason": reason_text(ai["reason"]), "chance": percent(ai["win_chance"])}
    if action.get("hinted"):
        return pgettext("cardmaster", "%(move)s (with a hint)") % {"move": title}
    return title


def move_title(action: dict, events: list[dict], names: list[str]) -> str:
    """What a player did, in a few words (a lineup stays hidden until both are locked)."""
    kind = action.get("type")
    if kind == "lock_lineup":
        if "cards" in action:
            return pgettext("cardmaster", "%(name)s locks in: %(cards)s") % {
                "name": names[action["seat"]], "cards": ", ".join(card["name"] for card in action["cards"])}
        return pgettext("cardmaster", "%(name)s locks in a hidden lineup") % {"name": names[action["seat"]]}
    first = events[0] if events else {}
    if kind == "adjust":
        return pgettext("cardmaster", "Correction by hand")
    card = first.get("card_name", action.get("card", ""))
    if kind in ATTACKS:
        return pgettext("cardmaster", "%(card)s: %(move)s on %(target)s") % {
            "card": card, "move": MOVE_LABELS[kind], "target": first.get("target_name", action.get("target", ""))}
    # A Shift and a REVIVE name the other card too: "Quartz Lynx: Shift" reads the same for every reserve.
    if kind == "shift":
        return pgettext("cardmaster", "%(card)s: Shift, %(coming)s comes in") % {
            "card": card, "coming": first.get("reserve_name", action.get("reserve", ""))}
    if kind == "revive":
        return pgettext("cardmaster", "%(card)s: REVIVE brings back %(target)s") % {
            "card": card, "target": first.get("target_name", action.get("target", ""))}
    labels = {
        **MOVE_LABELS,
        "deposit": pgettext("cardmaster", "deposit a raided gem"),
    }
    return pgettext("cardmaster", "%(card)s: %(move)s") % {"card": card, "move": labels.get(str(kind), kind)}
