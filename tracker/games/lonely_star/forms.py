"""Lonely Star forms: a unit card, the match options, and the board's forms turned into actions.

Dice: each form that may roll has a `roll` field. With the match default "the app
rolls", a blank field lets the app roll and a number is a real die a player rolled.
With "players roll", the field must be filled unless "Let the app roll this one" is
ticked. Whether an action needs a die at all is found by trying it on a copy of the
state (a Luck or Resist of 6 or more needs none), so the form never asks for nothing.
"""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import pgettext, pgettext_lazy

from rules.lonely_star import GAME, STAT_NAMES, STATS, validate_card
from rules.lonely_star.match import AMOUNT_MAX, COUNT_MAX, OPTIONS
from rules.lonely_star.rolls import SIDES
from rules.lonely_star.statuses import NAME_MAX as STATUS_NAME_MAX
from rules.lonely_star.statuses import POISON_CAP
from rules.lonely_star.units import NAME_MAX, STAT_MAX
from rules.lonely_star.zones import ZONES

from ...matches.club_cards import match_card
from ...models import Match
from ..common import EngineCardForm, dice_needed, filled_in, option_field, whole_number

SLUG = "lonely-star"
ACTIONS = (
    "play_unit",
    "equip",
    "attack",
    "act",
    "damage",
    "inflict",
    "luck_roll",
    "d6",
    "end_turn",
    "resist_roll",
    "finish_turn",
    "declare_winner",
    "define_status",
    "adjust",
)
ADJUSTMENTS = ("counters", "stat", "cards", "leave")



# ------------------------------------------------------------------ catalog and options


class CardForm(EngineCardForm):
    """A Lonely Star unit card: its name, its gems and its reach."""

    name = forms.CharField(label=pgettext_lazy("lonely-star", "Name"), max_length=NAME_MAX)
    hp = forms.IntegerField(label=pgettext_lazy("lonely-star", "Health (HP)"), min_value=1, max_value=STAT_MAX)
    at = forms.IntegerField(label=pgettext_lazy("lonely-star", "Attack (AT)"), min_value=0, max_value=STAT_MAX)
    lk = forms.IntegerField(label=pgettext_lazy("lonely-star", "Luck (LK)"), min_value=0, max_value=STAT_MAX)
    rs = forms.IntegerField(label=pgettext_lazy("lonely-star", "Resist (RS)"), min_value=0, max_value=STAT_MAX)
    reach = forms.IntegerField(label=pgettext_lazy("lonely-star", "Reach"), min_value=0, max_value=STAT_MAX)

    validate_card = staticmethod(validate_card)



class ConfigForm(forms.Form):
    who_rolls = forms.ChoiceField(
        label=pgettext_lazy("lonely-star", "Who rolls the dice, unless changed for a roll"),
        choices=[
            ("app", pgettext_lazy("lonely-star", "The app rolls (type a real die to use it instead)")),
            ("players", pgettext_lazy("lonely-star", "Players roll real dice and tap them in")),
        ],
        initial="app",
        widget=forms.RadioSelect,
    )
    deck = option_field(OPTIONS["deck"], pgettext_lazy("lonely-star", "Cards in each deck after the opening hand"))
    hand = option_field(OPTIONS["hand"], pgettext_lazy("lonely-star", "Cards in each opening hand"))
    empty_deck = forms.ChoiceField(
        label=pgettext_lazy("lonely-star", "How the match ends"),
        choices=[
            ("loses", pgettext_lazy("lonely-star", "A player who must draw from an empty deck loses (or the table declares)")),
            ("table", pgettext_lazy("lonely-star", "Only when the table declares a winner")),
        ],
        initial="loses",
        widget=forms.RadioSelect,
    )
    lethal_to = forms.ChoiceField(
        label=pgettext_lazy("lonely-star", "Where a unit goes after lethal damage"),
        choices=[
            ("discard", pgettext_lazy("lonely-star", "Discard pile, with its accessories")),
            ("removed", pgettext_lazy("lonely-star", "Removed from the game")),
        ],
        initial="discard",
        widget=forms.RadioSelect,
    )
    status_penalty = forms.ChoiceField(
        label=pgettext_lazy("lonely-star", "How much a status lowers its stat"),
        choices=[
            ("flat", pgettext_lazy("lonely-star", "1 while the unit has any counter of it (status page)")),
            ("per-counter", pgettext_lazy("lonely-star", "1 for each counter")),
        ],
        initial="flat",
        widget=forms.RadioSelect,
    )
    counter_cap = option_field(
        OPTIONS["counter_cap"],
        filled_in(pgettext_lazy("lonely-star", "Most Burn, Hex or Blind counters on a unit (0 = no limit; Poison is always %(poison)s)"), poison=POISON_CAP),
    )
    stat_floor = forms.ChoiceField(
        label=pgettext_lazy("lonely-star", "Can a total stat fall below 0?"),
        choices=[("zero", pgettext_lazy("lonely-star", "No, it stops at 0")), ("none", pgettext_lazy("lonely-star", "Yes"))],
        initial="zero",
        widget=forms.RadioSelect,
    )


# ------------------------------------------------------------------ board forms -> actions


def _unit_id(post, field: str) -> int:
    return whole_number(post, field, pgettext("lonely-star", "The unit"), 0, 10**9)


def _seat_of(match: Match, post, unit_field: str) -> int:
    """The acting seat: as posted, else the controller of the unit the form names."""
    if post.get("seat", "").strip():
        return whole_number(post, "seat", pgettext("lonely-star", "The player"), 0, GAME.seats - 1)
    unit_id = _unit_id(post, unit_field)
    unit = next((u for u in match.state["units"] if u["id"] == unit_id), None)
    if unit is None:
        raise ValidationError(pgettext_lazy("lonely-star", "That unit is not in play."))
    return unit["seat"]


def _text(post, field: str, label: str, most: int) -> str:
    value = " ".join((post.get(field) or "").split())
    if not value or len(value) > most or not value.isprintable():
        raise ValidationError(pgettext_lazy("lonely-star", "%(label)s needs 1 to %(most)s characters.") % {"label": label, "most": most})
    return value


def _choice(post, field: str, label: str, allowed) -> str:
    value = post.get(field, "")
    if value not in allowed:
        raise ValidationError(pgettext_lazy("lonely-star", "Choose the %(label)s.") % {"label": label})
    return value


def _entered_card(match: Match, post) -> dict:
    """A unit card from the catalog by name, or typed in on the spot with all its stats."""
    typed = {stat: (post.get(stat) or "").strip() for stat in STATS}
    name = _text(post, "name", pgettext("lonely-star", "The unit's name"), NAME_MAX)
    if not any(typed.values()):
        known = match_card(match, name)
        if known is None:
            raise ValidationError(
                pgettext_lazy("lonely-star", "No unit called “%(name)s” in the catalog: type its HP, AT, LK, RS and reach.")
                % {"name": name}
            )
        return known.as_rules_card()
    missing = ", ".join(str(STAT_NAMES[stat]) for stat in STATS if not typed[stat])
    if missing:  # some typed, some not: say why every stat is asked for, not only that one is not a number
        in_catalog = match_card(match, name) is not None
        raise ValidationError(
            (pgettext_lazy("lonely-star", "“%(name)s” is in the catalog: leave every stat blank to take its stats, or type them all "
               "(missing: %(missing)s).") if in_catalog else
             pgettext_lazy("lonely-star", "No unit called “%(name)s” in the catalog, so all its stats are needed (missing: %(missing)s)."))
            % {"name": name, "missing": missing}
        )
    card: dict[str, str | int] = {"name": name}
    for stat in STATS:
        card[stat] = whole_number(post, stat, STAT_NAMES[stat], 0, STAT_MAX)
    return card


def _action(match: Match, post) -> dict:
    kind = post.get("action", "")
    if kind not in ACTIONS:
        raise ValidationError(pgettext_lazy("lonely-star", "Lonely Star has no action “%(kind)s”.") % {"kind": kind[:40]})
    match kind:
        case "play_unit":
            return {
                "type": kind,
                "seat": whole_number(post, "seat", pgettext("lonely-star", "The player"), 0, 1),
                "card": _entered_card(match, post),
            }
        case "equip":
            return {
                "type": kind,
                "seat": _seat_of(match, post, "unit"),
                "unit": _unit_id(post, "unit"),
                "accessory": _text(post, "accessory", pgettext("lonely-star", "The accessory"), STATUS_NAME_MAX),
            }
        case "attack":
            return {
                "type": kind,
                "seat": _seat_of(match, post, "unit"),
                "unit": _unit_id(post, "unit"),
                "target": _unit_id(post, "target"),
            }
        case "act":
            return {
                "type": kind,
                "seat": _seat_of(match, post, "unit"),
                "unit": _unit_id(post, "unit"),
                "how": _choice(post, "how", pgettext("lonely-star", "way to act"), ("move", "play")),
            }
        case "damage":
            return {
                "type": kind,
                "seat": _seat_of(match, post, "source"),
                "source": _unit_id(post, "source"),
                "target": _unit_id(post, "target"),
                "amount": whole_number(post, "amount", pgettext("lonely-star", "The damage"), 0, AMOUNT_MAX),
                "ignore_resist": bool(post.get("ignore_resist")),
            }
        case "inflict":
            action = {
                "type": kind,
                "seat": whole_number(post, "seat", pgettext("lonely-star", "The player"), 0, 1),
                "target": _unit_id(post, "target"),
                "status": post.get("status", ""),
                "ignore_resist": bool(post.get("ignore_resist")),
            }
            if post.get("break_accessory"):
                action["break_accessory"] = post["break_accessory"]
            return action
        case "luck_roll":
            return {"type": kind, "seat": _seat_of(match, post, "unit"), "unit": _unit_id(post, "unit")}
        case "d6" | "end_turn" | "finish_turn":
            return {"type": kind, "seat": whole_number(post, "seat", pgettext("lonely-star", "The player"), 0, 1)}
        case "resist_roll":
            return {
                "type": kind,
                "seat": _seat_of(match, post, "unit"),
                "unit": _unit_id(post, "unit"),
                "status": post.get("status", ""),
            }
        case "declare_winner":
            return {"type": kind, "winner": whole_number(post, "winner", pgettext("lonely-star", "The winner"), 0, 1)}
        case "define_status":
            return {
                "type": kind,
                "override": True,
                "name": _text(post, "name", pgettext("lonely-star", "The status"), STATUS_NAME_MAX),
                "stat": _choice(post, "stat", pgettext("lonely-star", "stat"), STATS),
            }
    return _adjustment(post)


def _adjustment(post) -> dict:
    what = _choice(post, "what", pgettext("lonely-star", "adjustment"), ADJUSTMENTS)
    action = {"type": "adjust", "override": True, "what": what}
    if what == "cards":
        return {
            **action,
            "seat": whole_number(post, "seat", pgettext("lonely-star", "The player"), 0, 1),
            "source": _choice(post, "source", pgettext("lonely-star", "zone to take cards from"), ZONES),
            "target": _choice(post, "target", pgettext("lonely-star", "zone to put them in"), ZONES),
            "count": whole_number(post, "count", pgettext("lonely-star", "The number of cards"), 1, COUNT_MAX),
        }
    action["unit"] = _unit_id(post, "unit")
    if what == "leave":
        return {**action, "to": _choice(post, "to", pgettext("lonely-star", "zone"), ZONES)}
    change = whole_number(post, "change", pgettext("lonely-star", "The change"), -AMOUNT_MAX, AMOUNT_MAX)
    if what == "stat":
        return {**action, "stat": _choice(post, "stat", pgettext("lonely-star", "stat"), STATS), "change": change}
    return {**action, "counter": post.get("counter", ""), "change": change}


def table_action(match: Match, post) -> dict:
    """The action a board form asks for, with its dice checked against the match's roll setting."""
    action = _action(match, post)
    entered = [value.strip() for value in post.getlist("roll") if value.strip()]
    for value in entered:
        if not value.isdigit() or not 1 <= int(value) <= SIDES:
            message = pgettext_lazy("lonely-star", "A D6 shows 1 to %(sides)s; “%(value)s” is not a roll.")
            raise ValidationError(message % {"value": value[:20], "sides": SIDES})
    app_rolls = bool(post.get("app_rolls"))
    if entered and app_rolls:
        raise ValidationError(pgettext_lazy("lonely-star", "You typed a die and also ticked “Let the app roll”; choose one."))
    players_roll = match.state["options"]["who_rolls"] == "players"
    if not (entered or (players_roll and not app_rolls)):
        return action
    needed = dice_needed(match, action)
    if needed is not None and len(entered) > needed:
        raise ValidationError(
            pgettext_lazy("lonely-star", 
                "No die is needed here (a total of %(sides)s or more always succeeds, 0 never does, "
                "or the effect ignores Resist); clear the die field."
            ) % {"sides": SIDES}
        )
    if needed and not entered:
        raise ValidationError(
            pgettext_lazy("lonely-star", "In this match players roll: type the die you rolled, or tick “Let the app roll this one”.")
        )
    return action


