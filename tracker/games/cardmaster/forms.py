"""Cardmaster forms: a catalog card, the match options, a player's secret lineup and the board's move buttons."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import pgettext, pgettext_lazy

from rules.cardmaster import DEFAULT_TYPE_NAMES, STATUSES, validate_card
from rules.cardmaster.ai import POWER_RANGE
from rules.cardmaster.cards import NAME_MAX, STAT_RANGES, TIER_RANGE
from rules.cardmaster.fighters import BOOSTABLE
from rules.cardmaster.match import ACTIVE_SLOTS, phase
from rules.cardmaster.options import AI_LEVELS, OPTIONS, SHOWDOWN_SIZE, SIZES, ai_seat
from rules.cardmaster.typechart import TYPE_SYMBOLS

from ...matches.club_cards import match_catalog, match_catalog_by_name
from ...models import Card, Match
from ..base import CardFact
from ..board_forms import BoardActionForm, BoardForms, seat_field
from ..common import EngineCardForm, catalog_cards, choice_field, filled_in, option_field

SLUG = "cardmaster"

STATUS_LABELS = {
    "none": pgettext_lazy("cardmaster", "None"),
    "overcook": pgettext_lazy("cardmaster", "Overcook"),
    "undershock": pgettext_lazy("cardmaster", "Undershock"),
    "brainlock": pgettext_lazy("cardmaster", "Brainlock"),
    "gridfreeze": pgettext_lazy("cardmaster", "Gridfreeze"),
    "souldrift": pgettext_lazy("cardmaster", "Souldrift"),
}
AI_POWER = 6
TYPE_CHOICES = [(number, f"{number} {symbol} {name}")
                for number, (symbol, name) in enumerate(zip(TYPE_SYMBOLS, DEFAULT_TYPE_NAMES, strict=True), start=1)]


def _stat_field(label, stat):
    low, high = STAT_RANGES[stat]
    return forms.IntegerField(label=label, min_value=low, max_value=high)


class CardForm(EngineCardForm):
    """A Cardmaster card for the catalog: the engine has the last word on its stats."""

    validate_card = staticmethod(validate_card)

    name = forms.CharField(label=pgettext_lazy("cardmaster", "Name"), max_length=NAME_MAX)
    spd = _stat_field(pgettext_lazy("cardmaster", "SPD (speed)"), "spd")
    hp = _stat_field(pgettext_lazy("cardmaster", "HP"), "hp")
    atk = _stat_field(pgettext_lazy("cardmaster", "ATK (attack)"), "atk")
    spc = _stat_field(pgettext_lazy("cardmaster", "SPC (special)"), "spc")
    type1 = forms.TypedChoiceField(label=pgettext_lazy("cardmaster", "Type 1 (A1)"), choices=TYPE_CHOICES, coerce=int)
    type2 = forms.TypedChoiceField(label=pgettext_lazy("cardmaster", "Type 2 (A2)"), choices=TYPE_CHOICES, coerce=int)
    tier = forms.IntegerField(label=pgettext_lazy("cardmaster", "Tier"), min_value=TIER_RANGE[0], max_value=TIER_RANGE[1])
    status = forms.ChoiceField(label=pgettext_lazy("cardmaster", "Status its A2/A3 can inflict"),
                               choices=[(key, STATUS_LABELS[key]) for key in ("none", *STATUSES)])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # "def" is a Python keyword, so DEF cannot be a class attribute: it is put in place here.
        fields = list(self.fields.items())
        fields.insert(3, ("def", _stat_field(pgettext_lazy("cardmaster", "DEF (defence)"), "def")))
        self.fields = dict(fields)


def card_facts(card: dict) -> list[CardFact]:
    """A card's stats by the names printed on it; its two types by symbol and default name."""
    def named(number: int) -> str:
        return f"{TYPE_SYMBOLS[number - 1]} {DEFAULT_TYPE_NAMES[number - 1]}"

    return [
        CardFact(pgettext_lazy("cardmaster", "Types (A1 / A2)"), f"{named(card['type1'])} / {named(card['type2'])}", key=True),
        CardFact(pgettext_lazy("cardmaster", "HP"), str(card["hp"]), key=True),
        CardFact(pgettext_lazy("cardmaster", "ATK"), str(card["atk"]), key=True),
        CardFact(pgettext_lazy("cardmaster", "DEF"), str(card["def"]), key=True),
        CardFact(pgettext_lazy("cardmaster", "SPD"), str(card["spd"]), key=True),
        CardFact(pgettext_lazy("cardmaster", "SPC"), str(card["spc"])),
        CardFact(pgettext_lazy("cardmaster", "Tier"), str(card["tier"])),
        CardFact(pgettext_lazy("cardmaster", "Status (A2/A3)"), str(STATUS_LABELS.get(card["status"], card["status"]))),
    ]


class ConfigForm(forms.Form):
    field_order = ["opponent"]  # first: a player looking for Showdown finds it at the top of the options

    size = choice_field(
        OPTIONS["size"],
        filled_in(pgettext_lazy("cardmaster", "Custom Match length (cards a side; %(active)s active, the rest in reserve)"),
                  active=ACTIVE_SLOTS),
        {size: f"{size}v{size}" for size in SIZES},
    )
    who_rolls = choice_field(OPTIONS["who_rolls"], pgettext_lazy("cardmaster", "Who rolls the percentile dice (each roll can still be changed)"), {
        "app": pgettext_lazy("cardmaster", "The app rolls"), "player": pgettext_lazy("cardmaster", "We roll real dice and tap them in"),
    })
    type_names = forms.CharField(
        label=pgettext_lazy("cardmaster", "Type names in wheel order, comma separated (each beats the next two)"),
        initial=", ".join(DEFAULT_TYPE_NAMES), max_length=300,
    )
    overcook_turns = option_field(OPTIONS["overcook_turns"], pgettext_lazy("cardmaster", "Overcook lasts (turns)"))
    undershock_turns = option_field(OPTIONS["undershock_turns"], pgettext_lazy("cardmaster", "Undershock lasts (turns)"))
    risen_revivable = forms.BooleanField(label=pgettext_lazy("cardmaster", "A Risen card may be revived again"), required=False)

    opponent = forms.ChoiceField(
        label=pgettext_lazy("cardmaster", "Mode"),
        choices=[("custom", pgettext_lazy("cardmaster", "Custom Match: two players at the table")),
                 ("easy", pgettext_lazy("cardmaster", "Showdown against the AI, easy")),
                 ("normal", pgettext_lazy("cardmaster", "Showdown against the AI, normal")),
                 ("hard", pgettext_lazy("cardmaster", "Showdown against the AI, hard"))],
        initial="custom", widget=forms.RadioSelect, required=False,
    )
    ai_faction = forms.ChoiceField(
        label=filled_in(pgettext_lazy("cardmaster", "Showdown (%(size)s cards a side, player 2 is the AI): the AI's faction"), size=SHOWDOWN_SIZE),
        choices=[("generate", pgettext_lazy("cardmaster", "New cards made at the power level below")),
                 ("catalog", pgettext_lazy("cardmaster", "Catalog cards nearest the power level below")),
                 ("hand", pgettext_lazy("cardmaster", "Entered by hand, like a player's lineup"))],
        initial="generate", widget=forms.RadioSelect, required=False,
    )
    ai_power = forms.IntegerField(
        label=pgettext_lazy("cardmaster", "Showdown: the AI's power level (a card's points in hundreds; the demo cards are 5 to 9)"),
        min_value=POWER_RANGE[0], max_value=POWER_RANGE[1], initial=AI_POWER, required=False,
    )
    hints = forms.BooleanField(label=pgettext_lazy("cardmaster", "Custom Match: the table may ask the AI for a hint"), required=False)

    # Left out (a form older than Showdown, a script): a Custom Match; an AI making its own cards at power 6.
    AI_SEAT = 1
    """In a Showdown the AI plays player 2's seat; the player who set it up sits first."""

    def clean_type_names(self):
        return [name.strip() for name in self.cleaned_data["type_names"].split(",")]

    def clean(self):
        """The engine's options: the mode and the AI's faction are taken out (the faction is kept on the
        form as `ai_faction`, for `start_showdown`); a Showdown is always 9 cards a side, and a match length
        chosen otherwise is told in `notes`, shown once the match has started (the length is a Custom Match's)."""
        data = super().clean()
        self.notes = []
        opponent, faction, power = data.pop("opponent", ""), data.pop("ai_faction", ""), data.pop("ai_power", None)
        faction, power = faction or "generate", AI_POWER if power is None else power
        hints = data.pop("hints", False)
        self.ai_faction = (faction, power)
        if opponent in AI_LEVELS:
            if "size" in self.changed_data and data.get("size") != SHOWDOWN_SIZE:  # a length the player chose
                self.notes.append(pgettext("cardmaster", "A Showdown is always %(size)s cards a side, as in the rulebook; "
                                           "the match length is for a Custom Match.") % {"size": SHOWDOWN_SIZE})
            data["size"] = SHOWDOWN_SIZE
            data["showdown"] = {"ai_seat": self.AI_SEAT, "level": opponent}
            if faction == "catalog" and Card.objects.filter(slug=SLUG).count() < SHOWDOWN_SIZE:
                self.add_error("ai_faction", pgettext_lazy("cardmaster", "The catalog holds fewer than %(size)s Cardmaster cards; let the AI "
                                               "make new ones or enter its faction by hand.") % {"size": SHOWDOWN_SIZE})
        elif hints:
            data["hints"] = True
        return data


def slot_label(position: int) -> str:
    if position < ACTIVE_SLOTS:
        return pgettext_lazy("cardmaster", "Active %(number)s") % {"number": position + 1}
    return pgettext_lazy("cardmaster", "Reserve %(number)s") % {"number": position - ACTIVE_SLOTS + 1}


class LineupForm(forms.Form):
    """A player's faction in order: the first 3 start active, the rest wait in reserve."""

    active_slots = ACTIVE_SLOTS

    def __init__(self, *args, size: int, catalog: dict[str, Card], **kwargs):
        super().__init__(*args, **kwargs)
        self.catalog = catalog
        for position in range(size):
            self.fields[f"card_{position + 1}"] = forms.CharField(
                label=slot_label(position), max_length=NAME_MAX,
                widget=forms.TextInput(attrs={"list": "catalog", "autocomplete": "off"}),
            )

    def clean(self):
        data = super().clean()
        data["cards"] = catalog_cards(self, self.catalog, list(self.fields), pgettext_lazy("cardmaster", "%(name)s is already in this lineup."))
        return data


# ------------------------------------------------------------------ the secret lineup


def entry_form(match: Match, data=None, seat: int | None = None) -> LineupForm:
    """A seat's lineup (the same form for either seat)."""
    return LineupForm(data, size=match.state["config"]["size"], catalog=match_catalog(match))


def entry_action(form: LineupForm, seat: int) -> dict:
    return {"type": "lock_lineup", "seat": seat, "cards": form.cleaned_data["cards"]}


def entry_examples(match: Match, seat: int) -> tuple[dict, dict]:
    """Two lineups with no card in common, from the catalog in name order (see GamePages.entry_examples)."""
    size = match.state["config"]["size"]
    cards = [card.as_rules_card() for card in match_catalog_by_name(match)[:2 * size]]
    return ({"type": "lock_lineup", "seat": seat, "cards": cards[:size]},
            {"type": "lock_lineup", "seat": seat, "cards": cards[size:]})


def seats_to_enter(match: Match) -> list[int]:
    """Seats whose lineup is still awaited (only before the first round)."""
    if phase(match.state) != "lineup":
        return []
    return [seat for seat, locked in enumerate(match.state["lineups"]) if not locked]


# ------------------------------------------------------------------ the board's forms

MOVES = ("a1", "a2", "a3", "stack", "spc", "revive", "shift", "deposit")
CARD_ID = r"^[AB][1-9]\Z"
COUNTER = r"^[0-9]{1,6}\Z"  # the engine checks the range; this only keeps junk out


def _card_field(message, required: bool = True) -> forms.RegexField:
    """A card by its place ("A1"), `message` saying which card to choose."""
    return forms.RegexField(regex=CARD_ID, required=required, error_messages={"required": message, "invalid": message})


class MoveForm(BoardActionForm):
    """A card's moves: one form per card in possession, a button per move (the posted `action`)."""

    kinds = MOVES
    form_name = "move"

    card = _card_field(pgettext_lazy("cardmaster", "Choose which of your active cards moves."))
    target = _card_field(pgettext_lazy("cardmaster", "Choose a target to attack."), required=False)
    ally = _card_field(pgettext_lazy("cardmaster", "Choose a fallen ally to revive."), required=False)
    reserve = _card_field(pgettext_lazy("cardmaster", "Choose the reserve card to shift in."), required=False)
    stat = forms.CharField(required=False)
    hinted = forms.CharField(required=False)

    # Each move needs one more field than the card, with what to say when it is missing.
    NEEDS = {"a1": "target", "a2": "target", "a3": "target", "revive": "ally", "shift": "reserve"}

    def engine_action(self, data: dict) -> dict:
        kind, match = self.shown("action"), self.match
        action = {"type": kind, "card": data["card"]}
        ai = ai_seat(match.state["config"])
        card = match.state["cards"].get(action["card"])
        if ai is not None and card is not None and card["seat"] == ai:
            raise ValidationError(pgettext("cardmaster", "%(name)s is the AI's card: the AI makes its own moves; nothing was applied.")
                                  % {"name": card["name"]})
        needed = self.NEEDS.get(kind)
        if needed and not data[needed]:
            self.add_error(needed, self.fields[needed].error_messages["required"])
        elif needed:
            action["reserve" if needed == "reserve" else "target"] = data[needed]
        if kind == "spc":
            if data["stat"] in BOOSTABLE:
                action["stat"] = data["stat"]
            else:
                self.add_error("stat", pgettext("cardmaster", "Choose the stat SPC boosts: SPD, HP, DEF or ATK."))
        rolls = [value.strip() for value in self.sent("roll")]
        if "" in rolls and any(rolls[rolls.index(""):]):
            raise ValidationError(pgettext("cardmaster", "Enter the backfire roll before the status roll, or leave both blank."))
        if data["hinted"] == str(match.head):
            action["hinted"] = True  # the log marks a move made with a hint on the screen
        return action


CORRECTION_VALUE = pgettext_lazy("cardmaster", "The new value must be a whole number, 0 or more; nothing was applied.")


class CardCorrectionForm(BoardActionForm):
    """A manual override of a card: its HP or its stacked gems."""

    kinds = ("adjust",)

    card = _card_field(pgettext_lazy("cardmaster", "Choose which card to correct."))
    what = forms.ChoiceField(choices=[("hp", "hp"), ("gems", "gems")], error_messages={
        "required": pgettext_lazy("cardmaster", "Choose what to correct: HP, stacked gems or a raided pool."),
        "invalid_choice": pgettext_lazy("cardmaster", "Choose what to correct: HP, stacked gems or a raided pool.")})
    value = forms.RegexField(regex=COUNTER, error_messages={"required": CORRECTION_VALUE, "invalid": CORRECTION_VALUE})

    @classmethod
    def sends(cls, post) -> bool:
        return post.get("action", "") == "adjust" and post.get("what", "") != "raided"

    def engine_action(self, data: dict) -> dict:
        return {"type": "adjust", "override": True, "card": data["card"], data["what"]: int(data["value"])}


class PoolCorrectionForm(BoardActionForm):
    """A manual override of a player's raided pool."""

    kinds = ("adjust",)
    variant = ("what", "raided")

    seat = seat_field(message=pgettext_lazy("cardmaster", "Choose whose raided pool to correct."))
    value = forms.RegexField(regex=COUNTER, error_messages={"required": CORRECTION_VALUE, "invalid": CORRECTION_VALUE})

    def engine_action(self, data: dict) -> dict:
        return {"type": "adjust", "override": True, "seat": data["seat"], "raided": int(data["value"])}


BOARD_FORMS = BoardForms(MoveForm, PoolCorrectionForm, CardCorrectionForm,
                         unknown=pgettext_lazy("cardmaster", "Choose a move: A1, A2, A3, STACK, SPC, REVIVE, Shift or deposit."))
