"""Cardmaster forms: a catalog card, the match options and a player's lineup."""

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.cardmaster import DEFAULT_TYPE_NAMES, STATUSES, validate_card
from rules.cardmaster.cards import NAME_MAX, STAT_RANGES, TIER_RANGE
from rules.cardmaster.options import DEFAULT_CONFIG, SIZES, TURNS_RANGE
from rules.cardmaster.typechart import TYPE_SYMBOLS

from ...models import Card
from ..common import EngineCardForm, card_stats, catalog_cards  # noqa: F401  (card_stats is part of the adapter)

STATUS_LABELS = {
    "none": _("None"),
    "overcook": _("Overcook"),
    "undershock": _("Undershock"),
    "brainlock": _("Brainlock"),
    "gridfreeze": _("Gridfreeze"),
    "souldrift": _("Souldrift"),
}
TYPE_CHOICES = [(number, f"{number} {symbol} {name}")
                for number, (symbol, name) in enumerate(zip(TYPE_SYMBOLS, DEFAULT_TYPE_NAMES), start=1)]


def _stat_field(label, stat):
    low, high = STAT_RANGES[stat]
    return forms.IntegerField(label=label, min_value=low, max_value=high)


class CardForm(EngineCardForm):
    """A Cardmaster card for the catalog: the engine has the last word on its stats."""

    validate_card = staticmethod(validate_card)

    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    spd = _stat_field(_("SPD (speed)"), "spd")
    hp = _stat_field(_("HP"), "hp")
    atk = _stat_field(_("ATK (attack)"), "atk")
    spc = _stat_field(_("SPC (special)"), "spc")
    type1 = forms.TypedChoiceField(label=_("Type 1 (A1)"), choices=TYPE_CHOICES, coerce=int)
    type2 = forms.TypedChoiceField(label=_("Type 2 (A2)"), choices=TYPE_CHOICES, coerce=int)
    tier = forms.IntegerField(label=_("Tier"), min_value=TIER_RANGE[0], max_value=TIER_RANGE[1])
    status = forms.ChoiceField(label=_("Status its A2/A3 can inflict"),
                               choices=[(key, STATUS_LABELS[key]) for key in ("none", *STATUSES)])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # "def" is a Python keyword, so DEF cannot be a class attribute: it is put in place here.
        fields = list(self.fields.items())
        fields.insert(3, ("def", _stat_field(_("DEF (defence)"), "def")))
        self.fields = dict(fields)


class ConfigForm(forms.Form):
    size = forms.TypedChoiceField(
        label=_("Match length (cards a side; 3 active, the rest in reserve)"),
        choices=[(size, f"{size}v{size}") for size in SIZES], coerce=int, initial=DEFAULT_CONFIG["size"],
        widget=forms.RadioSelect,
    )
    who_rolls = forms.ChoiceField(
        label=_("Who rolls the percentile dice (each roll can still be changed)"),
        choices=[("app", _("The app rolls")), ("player", _("We roll real dice and tap them in"))],
        initial="app", widget=forms.RadioSelect,
    )
    type_names = forms.CharField(
        label=_("Type names in wheel order, comma separated (each beats the next two)"),
        initial=", ".join(DEFAULT_TYPE_NAMES), max_length=300,
    )
    overcook_turns = forms.IntegerField(label=_("Overcook lasts (turns)"), min_value=TURNS_RANGE[0],
                                        max_value=TURNS_RANGE[1], initial=DEFAULT_CONFIG["overcook_turns"])
    undershock_turns = forms.IntegerField(label=_("Undershock lasts (turns)"), min_value=TURNS_RANGE[0],
                                          max_value=TURNS_RANGE[1], initial=DEFAULT_CONFIG["undershock_turns"])
    risen_revivable = forms.BooleanField(label=_("A Risen card may be revived again"), required=False)

    def clean_type_names(self):
        return [name.strip() for name in self.cleaned_data["type_names"].split(",")]


def slot_label(position: int) -> str:
    if position < 3:
        return _("Active %(number)s") % {"number": position + 1}
    return _("Reserve %(number)s") % {"number": position - 2}


class LineupForm(forms.Form):
    """A player's faction in order: the first 3 start active, the rest wait in reserve."""

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
        data["cards"] = catalog_cards(self, list(self.fields), _("%(name)s is already in this lineup."))
        return data
