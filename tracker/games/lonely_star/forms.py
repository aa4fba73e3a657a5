"""Lonely Star forms: a unit card, the match options, and the board's forms turned into actions.

Dice: each form that may roll has a `roll` field. With the match default "the app
rolls", a blank field lets the app roll and a number is a real die a player rolled.
With "players roll", the field must be filled unless "Let the app roll this one" is
ticked. Whether an action needs a die at all is found by trying it on a copy of the
state (a Luck or Resist of 6 or more needs none), so the form never asks for nothing.
"""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import pgettext_lazy

from rules.fields import typed_number
from rules.lonely_star import STATS, validate_card
from rules.lonely_star.match import AMOUNT_MAX, COUNT_MAX, OPTIONS
from rules.lonely_star.rolls import SIDES
from rules.lonely_star.statuses import NAME_MAX as STATUS_NAME_MAX
from rules.lonely_star.statuses import POISON_CAP
from rules.lonely_star.units import NAME_MAX, STAT_MAX
from rules.lonely_star.zones import ZONES

from ...matches.club_cards import match_card
from ..board_forms import MARKER, BoardActionForm, BoardForms, choice, seat_field, whole_number
from ..common import EngineCardForm, choice_field, dice_needed, filled_in, option_field
from .narration import STAT_LABELS

SLUG = "lonely-star"
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
    who_rolls = choice_field(OPTIONS["who_rolls"], pgettext_lazy("lonely-star", "Who rolls the dice, unless changed for a roll"), {
        "app": pgettext_lazy("lonely-star", "The app rolls (type a real die to use it instead)"),
        "players": pgettext_lazy("lonely-star", "Players roll real dice and tap them in"),
    })
    deck = option_field(OPTIONS["deck"], pgettext_lazy("lonely-star", "Cards in each deck after the opening hand"))
    hand = option_field(OPTIONS["hand"], pgettext_lazy("lonely-star", "Cards in each opening hand"))
    empty_deck = choice_field(OPTIONS["empty_deck"], pgettext_lazy("lonely-star", "How the match ends"), {
        "loses": pgettext_lazy("lonely-star", "A player who must draw from an empty deck loses (or the table declares)"),
        "table": pgettext_lazy("lonely-star", "Only when the table declares a winner"),
    })
    lethal_to = choice_field(OPTIONS["lethal_to"], pgettext_lazy("lonely-star", "Where a unit goes after lethal damage"), {
        "discard": pgettext_lazy("lonely-star", "Discard pile, with its accessories"),
        "removed": pgettext_lazy("lonely-star", "Removed from the game"),
    })
    status_penalty = choice_field(OPTIONS["status_penalty"], pgettext_lazy("lonely-star", "How much a status lowers its stat"), {
        "flat": pgettext_lazy("lonely-star", "1 while the unit has any counter of it (status page)"),
        "per-counter": pgettext_lazy("lonely-star", "1 for each counter"),
    })
    counter_cap = option_field(
        OPTIONS["counter_cap"],
        filled_in(pgettext_lazy("lonely-star", "Most Burn, Hex or Blind counters on a unit (0 = no limit; Poison is always %(poison)s)"), poison=POISON_CAP),
    )
    stat_floor = choice_field(OPTIONS["stat_floor"], pgettext_lazy("lonely-star", "Can a total stat fall below 0?"), {
        "zero": pgettext_lazy("lonely-star", "No, it stops at 0"), "none": pgettext_lazy("lonely-star", "Yes"),
    })


# ------------------------------------------------------------------ the board's forms


def unit_field(label=None) -> forms.IntegerField:
    """A unit in play, by its id (the engine says whether it is in play)."""
    return whole_number(label if label is not None else pgettext_lazy("lonely-star", "The unit"), 0, 10**9)


class TypedName(forms.CharField):
    """A name typed in: spaces squeezed, 1 to `most` printable characters."""

    def __init__(self, label, most: int) -> None:
        self.message, self.most = filled_in(pgettext_lazy("lonely-star", "%(label)s needs 1 to %(most)s characters."), label=label, most=most), most
        super().__init__(label=label, error_messages={"required": self.message})

    def to_python(self, value) -> str:
        return " ".join(str(value or "").split())

    def validate(self, value: str) -> None:
        if not value or len(value) > self.most or not value.isprintable():
            raise ValidationError(self.message)


class LonelyStarForm(BoardActionForm):
    """What every Lonely Star board form shares: its die (`roll`, blank or 1 to 6) checked against the
    match's roll setting, by trying the action on a copy of the match (a sure roll needs no die)."""

    roll = forms.CharField(required=False)
    app_rolls = forms.BooleanField(required=False)

    def acting_seat(self, data: dict, unit_field: str = "unit") -> int:
        """The seat that acts: as posted, else the controller of the unit the form names."""
        if data.get("seat") is not None:
            return data["seat"]
        unit = next((u for u in self.match.state["units"] if u["id"] == data[unit_field]), None)
        if unit is None:
            raise ValidationError(pgettext_lazy("lonely-star", "That unit is not in play."), code="unit")
        return unit["seat"]

    def clean(self) -> dict:
        data = super().clean()
        if self.action and not self.errors:
            self._check_dice()
        return data

    def _check_dice(self) -> None:
        entered = [value.strip() for value in self.sent("roll") if value.strip()]
        for value in entered:
            rolled = typed_number(value)
            if rolled is None or not 1 <= rolled <= SIDES:
                message = pgettext_lazy("lonely-star", "A D6 shows 1 to %(sides)s; “%(value)s” is not a roll.")
                self.add_error("roll", message % {"value": value[:20], "sides": SIDES})
                return
        app_rolls = bool(self.data.get("app_rolls"))
        if entered and app_rolls:
            self.add_error("roll", pgettext_lazy("lonely-star", "You typed a die and also ticked “Let the app roll”; choose one."))
            return
        players_roll = self.match.state["options"]["who_rolls"] == "players"
        if not (entered or (players_roll and not app_rolls)):
            return
        needed = dice_needed(self.match, self.action)
        if needed is not None and len(entered) > needed:
            self.add_error("roll", pgettext_lazy("lonely-star", 
                "No die is needed here (a total of %(sides)s or more always succeeds, 0 never does, "
                "or the effect ignores Resist); clear the die field.") % {"sides": SIDES})
        elif needed and not entered:
            self.add_error("roll", pgettext_lazy("lonely-star", 
                "In this match players roll: type the die you rolled, or tick “Let the app roll this one”."))


def optional_seat() -> forms.TypedChoiceField:
    field = seat_field()
    field.required = False
    field.empty_value = None
    return field


class PlayUnitForm(LonelyStarForm):
    """A unit played from the hand: a catalog card by name, or one typed in on the spot with all its stats."""

    kinds = ("play_unit",)

    seat = seat_field()
    name = TypedName(pgettext_lazy("lonely-star", "The unit's name"), NAME_MAX)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for stat in STATS:
            self.fields[stat] = whole_number(STAT_LABELS[stat], 0, STAT_MAX, required=False)

    def engine_action(self, data: dict) -> dict:
        return {"type": "play_unit", "seat": data["seat"], "card": self._card(data)}

    def _card(self, data: dict) -> dict:
        name = data["name"]
        typed = [stat for stat in STATS if data.get(stat) is not None]
        if not typed:
            known = match_card(self.match, name)
            if known is None:
                self.add_error("name", pgettext_lazy("lonely-star", "No unit called “%(name)s” in the catalog: type its HP, AT, LK, RS and reach.")
                               % {"name": name})
                return {}
            return known.as_rules_card()
        missing = [stat for stat in STATS if stat not in typed]
        if missing:  # some typed, some not: say why every stat is asked for, not only that one is not a number
            in_catalog = match_card(self.match, name) is not None
            # The form's own error, across its width: beside one stat it took a third of a phone's width and
            # stood some 700 px tall, pushing the stats left to type off the screen.
            self.add_error(None, (
                pgettext_lazy("lonely-star", "“%(name)s” is in the catalog: leave every stat blank to take its stats, or type them all "
                  "(missing: %(missing)s).") if in_catalog else
                pgettext_lazy("lonely-star", "No unit called “%(name)s” in the catalog, so all its stats are needed (missing: %(missing)s)."))
                % {"name": name, "missing": ", ".join(str(STAT_LABELS[stat]) for stat in missing)})
            # And each stat left to type marked where it is typed (aria-invalid, a word in its slot), short enough
            # for a third of a phone's width; the reason above names them, so the outcome box says it once.
            for stat in missing:
                self.add_error(stat, ValidationError(pgettext_lazy("lonely-star", "Missing."), code=MARKER))
            return {}
        return {"name": name, **{stat: data[stat] for stat in STATS}}


class EquipForm(LonelyStarForm):
    kinds = ("equip",)
    rule_fields = {"accessory-name": "accessory", "accessory-twice": "accessory"}

    seat = optional_seat()
    unit = unit_field()
    accessory = TypedName(pgettext_lazy("lonely-star", "The accessory"), STATUS_NAME_MAX)

    def engine_action(self, data: dict) -> dict:
        return {"type": "equip", "seat": self.acting_seat(data), "unit": data["unit"], "accessory": data["accessory"]}


class AttackForm(LonelyStarForm):
    kinds = ("attack",)
    rule_fields = {"attack-own": "target"}

    seat = optional_seat()
    unit = unit_field()
    target = unit_field()

    def engine_action(self, data: dict) -> dict:
        return {"type": "attack", "seat": self.acting_seat(data), "unit": data["unit"], "target": data["target"]}


class ActForm(LonelyStarForm):
    kinds = ("act",)

    seat = optional_seat()
    unit = unit_field()
    how = choice(pgettext_lazy("lonely-star", "way to act"), [("move", "move"), ("play", "play")])

    def engine_action(self, data: dict) -> dict:
        return {"type": "act", "seat": self.acting_seat(data), "unit": data["unit"], "how": data["how"]}


class DamageForm(LonelyStarForm):
    kinds = ("damage",)

    seat = optional_seat()
    source = unit_field()
    target = unit_field()
    amount = whole_number(pgettext_lazy("lonely-star", "The damage"), 0, AMOUNT_MAX)
    ignore_resist = forms.BooleanField(required=False)

    def engine_action(self, data: dict) -> dict:
        return {"type": "damage", "seat": self.acting_seat(data, "source"), "source": data["source"],
                "target": data["target"], "amount": data["amount"], "ignore_resist": data["ignore_resist"]}


class InflictForm(LonelyStarForm):
    kinds = ("inflict",)
    rule_fields = {"status-unknown": "status", "accessory-unknown": "break_accessory", "counter-cap": "status"}

    seat = seat_field()
    target = unit_field()
    status = forms.CharField(required=False)
    ignore_resist = forms.BooleanField(required=False)
    break_accessory = forms.CharField(required=False)

    def engine_action(self, data: dict) -> dict:
        action = {"type": "inflict", "seat": data["seat"], "target": data["target"], "status": data["status"],
                  "ignore_resist": data["ignore_resist"]}
        if data["break_accessory"]:
            action["break_accessory"] = data["break_accessory"]
        return action


class LuckRollForm(LonelyStarForm):
    kinds = ("luck_roll",)

    seat = optional_seat()
    unit = unit_field()

    def engine_action(self, data: dict) -> dict:
        return {"type": "luck_roll", "seat": self.acting_seat(data), "unit": data["unit"]}


class SeatForm(LonelyStarForm):
    """A plain D6, the end of a turn, and the draw that finishes it: the seat alone."""

    kinds = ("d6", "end_turn", "finish_turn")
    form_name = "seat"

    seat = seat_field()

    def engine_action(self, data: dict) -> dict:
        return {"type": self.shown("action"), "seat": data["seat"]}


class ResistRollForm(LonelyStarForm):
    kinds = ("resist_roll",)
    rule_fields = {"resisted-once": "status", "no-such-counter": "status"}

    seat = optional_seat()
    unit = unit_field()
    status = forms.CharField(required=False)

    def engine_action(self, data: dict) -> dict:
        return {"type": "resist_roll", "seat": self.acting_seat(data), "unit": data["unit"], "status": data["status"]}


class DeclareWinnerForm(LonelyStarForm):
    kinds = ("declare_winner",)

    winner = seat_field(pgettext_lazy("lonely-star", "The winner"))
    # The board offers no seat chosen beforehand (one tap ended the match with player 1 winning): none sent is asked for.
    winner.error_messages["required"] = pgettext_lazy("lonely-star", "Choose the winner.")

    def engine_action(self, data: dict) -> dict:
        return {"type": "declare_winner", "winner": data["winner"]}


class DefineStatusForm(LonelyStarForm):
    kinds = ("define_status",)
    rule_fields = {"status-exists": "name", "status-name": "name", "status-stat": "stat"}

    name = TypedName(pgettext_lazy("lonely-star", "The status"), STATUS_NAME_MAX)
    stat = choice(pgettext_lazy("lonely-star", "stat"), [(stat, stat) for stat in STATS])

    def engine_action(self, data: dict) -> dict:
        return {"type": "define_status", "override": True, "name": data["name"], "stat": data["stat"]}


class UnknownAdjustment(LonelyStarForm):
    """A correction whose `what` no form sends."""

    kinds = ("adjust",)
    drawn = False

    what = choice(pgettext_lazy("lonely-star", "adjustment"), [(what, what) for what in ADJUSTMENTS])

    @classmethod
    def sends(cls, post) -> bool:
        return post.get("action", "") == "adjust" and post.get("what", "") not in ADJUSTMENTS

    def engine_action(self, data: dict) -> dict:
        raise ValidationError(self.fields["what"].error_messages["invalid_choice"])


class CountersForm(LonelyStarForm):
    kinds, variant = ("adjust",), ("what", "counters")
    rule_fields = {"counter-change": "change", "no-such-counter": "counter", "counter-cap": "change"}

    unit = unit_field()
    counter = forms.CharField(required=False)
    change = whole_number(pgettext_lazy("lonely-star", "The change"), -AMOUNT_MAX, AMOUNT_MAX)

    def engine_action(self, data: dict) -> dict:
        return {"type": "adjust", "override": True, "what": "counters", "unit": data["unit"],
                "counter": data["counter"], "change": data["change"]}


class StatForm(LonelyStarForm):
    kinds, variant = ("adjust",), ("what", "stat")
    rule_fields = {"stat-change": "change", "stat-unknown": "stat"}

    unit = unit_field()
    stat = choice(pgettext_lazy("lonely-star", "stat"), [(stat, stat) for stat in STATS])
    change = whole_number(pgettext_lazy("lonely-star", "The change"), -AMOUNT_MAX, AMOUNT_MAX)

    def engine_action(self, data: dict) -> dict:
        return {"type": "adjust", "override": True, "what": "stat", "unit": data["unit"], "stat": data["stat"],
                "change": data["change"]}


class LeaveForm(LonelyStarForm):
    kinds, variant = ("adjust",), ("what", "leave")

    unit = unit_field()
    to = choice(pgettext_lazy("lonely-star", "zone"), [(zone, zone) for zone in ZONES])

    def engine_action(self, data: dict) -> dict:
        return {"type": "adjust", "override": True, "what": "leave", "unit": data["unit"], "to": data["to"]}


class CardsForm(LonelyStarForm):
    kinds, variant = ("adjust",), ("what", "cards")
    rule_fields = {"zone-same": "target", "hand-empty": "count"}

    seat = seat_field()
    source = choice(pgettext_lazy("lonely-star", "zone to take cards from"), [(zone, zone) for zone in ZONES])
    target = choice(pgettext_lazy("lonely-star", "zone to put them in"), [(zone, zone) for zone in ZONES])
    count = whole_number(pgettext_lazy("lonely-star", "The number of cards"), 1, COUNT_MAX)

    def engine_action(self, data: dict) -> dict:
        return {"type": "adjust", "override": True, "what": "cards", "seat": data["seat"], "source": data["source"],
                "target": data["target"], "count": data["count"]}


BOARD_FORMS = BoardForms(PlayUnitForm, EquipForm, AttackForm, ActForm, DamageForm, InflictForm, LuckRollForm, SeatForm,
                         ResistRollForm, DeclareWinnerForm, DefineStatusForm, CountersForm, StatForm, LeaveForm,
                         CardsForm, UnknownAdjustment)
