"""LOGOS forms: a datacard for the catalog, the duel's options, a player's secret commit and the board's buttons."""

from django import forms
from django.utils.translation import pgettext, pgettext_lazy

from rules import InvalidCard
from rules.logos import validate_card
from rules.logos.cards import (
    BACKUP_SPEED,
    COLOURS,
    EFFECTS,
    NAME_MAX,
    PANEL_COLOURS,
    PANELS,
    SPEED_MAX,
    STAT_MAX,
    backup_eligible,
    has_combo_requirement,
)
from rules.logos.duel import OPTIONS
from tracker.matches.services import explain

from ...matches.club_cards import match_catalog, match_catalog_by_name
from ...models import Card, Match
from ..base import CardFact
from ..board_forms import BoardActionForm, BoardForms, ButtonForm, seat_field
from ..common import choice_field, filled_in, option_field
from .board import seat_view
from .narration import COLOUR_LABELS, EFFECT_LABELS

SLUG = "logos"

CLASS_LABELS = {
    "MATTER": pgettext_lazy("logos", "MATTER (red)"),
    "ENERGY": pgettext_lazy("logos", "ENERGY (green)"),
    "INFORMATION": pgettext_lazy("logos", "INFORMATION (blue)"),
    "Neutral": pgettext_lazy("logos", "Neutral (white)"),
    "Life": pgettext_lazy("logos", "Life (purple)"),
}
SIDE_NAMES = {"left": pgettext_lazy("logos", "Left"), "right": pgettext_lazy("logos", "Right")}
SIDES = {"left": pgettext_lazy("logos", "Left effect (targets the opponent)"), "right": pgettext_lazy("logos", "Right effect (targets the card's owner)")}


def _colour_field(label, choices, blank=False):
    """A colour picker; `blank` adds an empty first choice for an optional field."""
    options = [(c, COLOUR_LABELS[c]) for c in choices]
    return forms.ChoiceField(label=label, choices=[("", "—")] + options if blank else options, required=not blank)


class CardForm(forms.Form):
    """A LOGOS datacard for the catalog, laid out like the printed card; the engine has the last word."""

    name = forms.CharField(label=pgettext_lazy("logos", "Name"), max_length=NAME_MAX)
    attack = forms.IntegerField(label=pgettext_lazy("logos", "ATTACK"), min_value=0, max_value=STAT_MAX)
    defense = forms.IntegerField(label=pgettext_lazy("logos", "DEFENSE"), min_value=0, max_value=STAT_MAX)
    speed = forms.IntegerField(label=pgettext_lazy("logos", "SPEED"), min_value=0, max_value=SPEED_MAX)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for panel in range(1, PANELS + 1):
            self.fields[f"combo_{panel}"] = _colour_field(
                pgettext_lazy("logos", "Combo panel %(panel)s (grey = any)") % {"panel": panel}, PANEL_COLOURS
            )
            self.fields[f"combo_{panel}"].initial = "grey"
        for side, label in SIDES.items():
            self.fields[f"{side}_effect"] = forms.ChoiceField(
                label=label, required=False,
                choices=[("", pgettext_lazy("logos", "none"))] + [(name, EFFECT_LABELS[name]) for name in EFFECTS],
            )
            for end, label in (("from", pgettext_lazy("logos", "%(side)s Color Change: from")), ("to", pgettext_lazy("logos", "%(side)s Color Change: to"))):
                self.fields[f"{side}_{end}"] = _colour_field(label % {"side": SIDE_NAMES[side]}, COLOURS, blank=True)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        card = {
            "name": data["name"],
            "class": data["class"],
            "attack": data["attack"],
            "defense": data["defense"],
            "speed": data["speed"],
            "combo": [data[f"combo_{panel}"] for panel in range(1, PANELS + 1)],
        }
        for side in SIDES:
            name = data[f"{side}_effect"]
            effect = {"name": name, "from": data[f"{side}_from"], "to": data[f"{side}_to"]} if name else None
            card[f"{side}_effect"] = effect
        try:
            return validate_card(card)
        except InvalidCard as error:
            raise forms.ValidationError(explain(error)) from error


# "class" is the card's own key (the catalog table and CSV columns follow the form's field names),
# but a Python keyword, so it cannot be written in the class body.
CardForm.base_fields = {
    "name": CardForm.base_fields["name"],
    "class": forms.ChoiceField(label=pgettext_lazy("logos", "Class"), choices=list(CLASS_LABELS.items())),
    **{key: field for key, field in CardForm.base_fields.items() if key != "name"},
}


class ConfigForm(forms.Form):
    starting_hp = option_field(OPTIONS["starting_hp"], pgettext_lazy("logos", "Starting HP"))
    card_slots = option_field(OPTIONS["card_slots"], pgettext_lazy("logos", "Card slots at the start"))
    heal_above_start = forms.BooleanField(
        label=pgettext_lazy("logos", "Regeneration may heal above the starting HP"), required=False, initial=False)
    deadlock_combo = forms.BooleanField(
        label=pgettext_lazy("logos", "A Deadlock adds each card's colour to the combo counters"), required=False, initial=False)
    resignation = choice_field(OPTIONS["resignation"], pgettext_lazy("logos", "When a player resigns"), {
        "opponent-wins": pgettext_lazy("logos", "The opponent wins (a draw for the player who resigns)"),
        "draw": pgettext_lazy("logos", "The duel is a draw for both"),
    })


class CommitForm(forms.Form):
    """One player's secret commit: a card from the catalog, and an optional card for the backup slot.

    The "I have no playable card" button sends `defenceless` instead. `round_number` and
    `seat_views` (each seat's open facts, shown beside the form) are set by `entry_form`.
    """

    round_number: int
    seat_views: list[dict]

    card = forms.CharField(
        label=pgettext_lazy("logos", "Card to play"), max_length=NAME_MAX, required=False,
        widget=forms.TextInput(attrs={"list": "catalog", "autocomplete": "off"}),
    )
    backup = forms.CharField(
        label=filled_in(pgettext_lazy("logos", "Card to send to the backup slot (optional: SPEED over %(speed)s, no combo requirement)"),
                        speed=BACKUP_SPEED),
        max_length=NAME_MAX, required=False,
        widget=forms.TextInput(attrs={"list": "catalog", "autocomplete": "off"}),
    )
    defenceless = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, catalog: dict[str, Card], **kwargs):
        super().__init__(*args, **kwargs)
        self.catalog = catalog

    def _card(self, field: str) -> dict | None:
        name = self.cleaned_data.get(field, "").strip()
        if not name:
            return None
        card = self.catalog.get(name.casefold())
        if card is None:
            self.add_error(field, pgettext_lazy("logos", "No card called “%(name)s” in the catalog; add it below.") % {"name": name})
            return None
        return card.as_rules_card()

    def clean(self):
        data = super().clean()
        if data.get("defenceless"):
            data["card"], data["backup"] = None, None
            return data
        if not data.get("card", "").strip():
            self.add_error("card", pgettext_lazy("logos", "Name the card you play, or tap “I have no playable card”."))
        data["card"], data["backup"] = self._card("card"), self._card("backup")
        return data


def card_initial(card: dict) -> dict:
    """A catalog card as CardForm data (the inverse of CardForm.clean), for CSV rows and editing."""
    row = {key: card[key] for key in ("name", "class", "attack", "defense", "speed")}
    for panel, colour in enumerate(card["combo"], start=1):
        row[f"combo_{panel}"] = colour
    for side in SIDES:
        effect = card.get(f"{side}_effect") or {}
        row[f"{side}_effect"] = effect.get("name", "")
        row[f"{side}_from"] = effect.get("from") or ""
        row[f"{side}_to"] = effect.get("to") or ""
    return row


EFFECT_SIDES = {"left_effect": pgettext_lazy("logos", "Left effect (on the opponent)"), "right_effect": pgettext_lazy("logos", "Right effect (on its owner)")}


def _effect(effect: dict | None) -> str:
    if not effect:
        return pgettext("logos", "none")
    text = str(EFFECT_LABELS[effect["name"]])
    if effect.get("from") and effect.get("to"):  # Color Change: which colour becomes which
        text += f" {COLOUR_LABELS[effect['from']]} → {COLOUR_LABELS[effect['to']]}"
    return text


def card_facts(card: dict) -> list[CardFact]:
    """Everything printed on a datacard: class, the three values, the combo panels and both effects.

    Effects are key (shown while choosing a card) when the card has them."""
    combo = ", ".join(str(COLOUR_LABELS[panel]) for panel in card["combo"])
    facts = [
        CardFact(pgettext_lazy("logos", "Class"), card["class"], key=True),
        CardFact(pgettext_lazy("logos", "ATTACK"), str(card["attack"]), key=True),
        CardFact(pgettext_lazy("logos", "DEFENSE"), str(card["defense"]), key=True),
        CardFact(pgettext_lazy("logos", "SPEED"), str(card["speed"]), key=True),
        CardFact(pgettext_lazy("logos", "Combo (panels 1, 2, 3)"),
                 combo if has_combo_requirement(card) else pgettext("logos", "none needed"),
                 key=True),
    ]
    facts += [CardFact(label, _effect(card.get(side)), key=bool(card.get(side))) for side, label in EFFECT_SIDES.items()]
    return facts


# ---------------------------------------------------------------- secret entry


def catalog(match: Match) -> dict[str, Card]:
    return match_catalog(match)


def entry_form(match: Match, data=None, seat: int | None = None) -> CommitForm:
    """The commit form; it carries both seats' open facts and the entry page shows the player's own."""
    form = CommitForm(data, catalog=catalog(match))
    form.round_number = match.state["round"]
    form.seat_views = [seat_view(match, seat) for seat in range(2)]
    return form


def entry_action(form: CommitForm, seat: int) -> dict:
    data = form.cleaned_data
    round_number = form.round_number
    if data["defenceless"]:
        return {"type": "defenceless", "seat": seat, "round": round_number}
    return {"type": "commit", "seat": seat, "round": round_number, "card": data["card"], "backup": data["backup"]}


def entry_examples(match: Match, seat: int) -> tuple[dict, dict]:
    """Two commits of this round: one card alone, another card with a card in the backup slot (see
    GamePages.entry_examples)."""
    cards = [card.as_rules_card() for card in match_catalog_by_name(match)]
    backup = next(card for card in cards if backup_eligible(card))
    first, second = [card for card in cards if card is not backup][:2]
    round_number = match.state["round"]
    return ({"type": "commit", "seat": seat, "round": round_number, "card": first, "backup": None},
            {"type": "commit", "seat": seat, "round": round_number, "card": second, "backup": backup})


def seats_to_enter(match: Match) -> list[int]:
    """Seats that still have to commit this round."""
    state = match.state
    if state["phase"] != "commit":
        return []
    return [seat for seat, entry in enumerate(state["commits"]) if entry is None]


def own_secret(match: Match, seat: int) -> list[str] | None:
    """A seated phone's own commit for this round, shown only to that phone before the reveal."""
    state = match.state
    entry = state["commits"][seat] if state["phase"] == "commit" and seat in (0, 1) else None
    if entry is None:
        return None
    if entry["card"] is None:
        return [pgettext("logos", "No playable card: defenceless this round")]
    lines = [entry["card"]["name"]]
    if entry["backup"]:
        lines.append(pgettext("logos", "Backup slot: %(card)s") % {"card": entry["backup"]["name"]})
    return lines


# ---------------------------------------------------------------- open actions

WHICH_PLAYER = pgettext_lazy("logos", "Choose which player; nothing was applied.")


class FightForm(ButtonForm):
    """Reveal the committed cards and fight the round."""

    kinds = ("fight",)


class SeatActionForm(BoardActionForm):
    """A player calls their backup card, or resigns."""

    kinds = ("call_backup", "resign")

    seat = seat_field(message=WHICH_PLAYER)

    def engine_action(self, data: dict) -> dict:
        return {"type": self.shown("action"), "seat": data["seat"]}


class SetHpForm(BoardActionForm):
    """A manual override: a player's HP set by hand (the engine says which values it takes)."""

    kinds = ("set_hp",)
    rule_fields = {"hp-range": "hp"}

    seat = seat_field(message=WHICH_PLAYER)
    hp = forms.IntegerField(label=pgettext_lazy("logos", "New HP"), error_messages={
        "required": pgettext_lazy("logos", "HP must be a whole number; nothing was applied."),
        "invalid": pgettext_lazy("logos", "HP must be a whole number; nothing was applied.")})

    def engine_action(self, data: dict) -> dict:
        return {"type": "set_hp", "seat": data["seat"], "hp": data["hp"], "override": True}


BOARD_FORMS = BoardForms(FightForm, SeatActionForm, SetHpForm,
                         unknown=pgettext_lazy("logos", "Choose fight, call backup, resign or set HP; nothing was applied."))
