"""Evons forms: a catalog card with its arrows, the match options, and the board's forms turned into actions.

Evons is played open (a covered card is named only when it is revealed), so there is no
secret entry: the base class's default says so.
"""

from collections.abc import Callable, Mapping

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import pgettext, pgettext_lazy

from rules import InvalidCard
from rules.evons import ABILITIES, ELEMENTS
from rules.evons.board import ALL_CELLS, DIRECTIONS
from rules.evons.cards import NAME_MAX, STAT_MAX, validate_card
from rules.evons.turns import COUNT_MAX, OPTIONS
from rules.fields import typed_number

from ...matches.club_cards import match_card
from ...matches.engine_messages import engine_word, engine_word_lazy
from ...matches.services import explain
from .. import common
from ..base import CardFact
from ..board_forms import BoardActionForm, BoardForms, choice, seat_field, whole_number
from ..common import choice_field, option_field

SLUG = "evons"

DIRECTION_NAMES = {
    "N": pgettext_lazy("evons", "north"),
    "NE": pgettext_lazy("evons", "north-east"),
    "E": pgettext_lazy("evons", "east"),
    "SE": pgettext_lazy("evons", "south-east"),
    "S": pgettext_lazy("evons", "south"),
    "SW": pgettext_lazy("evons", "south-west"),
    "W": pgettext_lazy("evons", "west"),
    "NW": pgettext_lazy("evons", "north-west"),
}
ABILITY_NAMES = {ability: engine_word_lazy(SLUG, ability) for ability in ABILITIES}


# ------------------------------------------------------------------ catalog cards


class CardForm(forms.Form):
    """An Evons card for the catalog: a monster with its arrows, or a Block card."""

    name = forms.CharField(label=pgettext_lazy("evons", "Name"), max_length=NAME_MAX)
    kind = forms.ChoiceField(
        label=pgettext_lazy("evons", "Card type"),
        choices=[("monster", pgettext_lazy("evons", "Monster")), ("block", pgettext_lazy("evons", "Block card"))],
        initial="monster",
    )
    cost = forms.IntegerField(label=pgettext_lazy("evons", "Cost (credits)"), min_value=0, max_value=STAT_MAX, required=False)
    element = forms.ChoiceField(
        label=pgettext_lazy("evons", "Element"), choices=[("", "—")] + [(e, engine_word_lazy(SLUG, e)) for e in ELEMENTS], required=False
    )
    atk = forms.IntegerField(label=pgettext_lazy("evons", "ATK"), min_value=0, max_value=STAT_MAX, required=False)
    def_ = forms.IntegerField(label=pgettext_lazy("evons", "DEF"), min_value=1, max_value=STAT_MAX, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for direction in DIRECTIONS:
            self.fields[f"arrow_{direction}"] = forms.ChoiceField(
                label=pgettext_lazy("evons", "Arrow %(direction)s") % {"direction": DIRECTION_NAMES[direction]},
                choices=[("", pgettext_lazy("evons", "no arrow"))] + [(a, ABILITY_NAMES[a]) for a in ABILITIES],
                required=False,
            )

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        card = {"name": data["name"], "kind": data["kind"]}
        if data["kind"] == "monster":
            # A Block card has none of these, so no field is required: a monster's missing one is said at it, not
            # as the engine's "Unknown element None" above the form.
            for field in ("cost", "element", "atk", "def_"):
                if data[field] in (None, ""):
                    self.add_error(field, pgettext("evons", "A monster needs this; a Block card does not."))
            if self.errors:
                return data
            card.update(cost=data["cost"], element=data["element"] or None, atk=data["atk"], arrows={})
            card["def"] = data["def_"]
            card["arrows"] = {d: data[f"arrow_{d}"] for d in DIRECTIONS if data[f"arrow_{d}"]}
        try:
            return validate_card(card)
        except InvalidCard as error:
            raise forms.ValidationError(explain(error, slug=SLUG)) from error


def card_initial(card: dict) -> dict:
    """A catalog card as CardForm data (the inverse of CardForm.clean), for CSV rows."""
    row = {"name": card["name"], "kind": card["kind"]}
    if card["kind"] == "monster":
        row.update(cost=card["cost"], element=card.get("element") or "", atk=card["atk"], def_=card["def"])
        row.update({f"arrow_{d}": ability for d, ability in card.get("arrows", {}).items()})
    return row


def card_facts(card: dict) -> list[CardFact]:
    """A monster's cost, element, ATK/DEF and arrows ("↑ Normal, → Magnetism", the card upright);
    a Block card has none of them."""
    from .board import ARROW_GLYPHS  # the board module imports this one

    if card["kind"] != "monster":
        return [CardFact(pgettext_lazy("evons", "Card type"), pgettext("evons", "Block card"), key=True)] + [
            CardFact(label, "") for label in (pgettext_lazy("evons", "Cost"), pgettext_lazy("evons", "Element"), pgettext_lazy("evons", "ATK"), pgettext_lazy("evons", "DEF"), pgettext_lazy("evons", "Arrows"))]
    arrows = card.get("arrows", {})
    return [
        CardFact(pgettext_lazy("evons", "Card type"), pgettext("evons", "Monster")),
        CardFact(pgettext_lazy("evons", "Cost"), str(card["cost"]), key=True),
        CardFact(pgettext_lazy("evons", "Element"), engine_word(SLUG, card["element"]) if card.get("element") else "—"),
        CardFact(pgettext_lazy("evons", "ATK"), str(card["atk"]), key=True),
        CardFact(pgettext_lazy("evons", "DEF"), str(card["def"]), key=True),
        CardFact(pgettext_lazy("evons", "Arrows"), ", ".join(f"{ARROW_GLYPHS[d]} {ABILITY_NAMES[arrows[d]]}" for d in DIRECTIONS if d in arrows)
                 or "—", key=True),
    ]


class ConfigForm(forms.Form):
    reach = choice_field(OPTIONS["reach"], pgettext_lazy("evons", "How far an arrow reaches"), {
        1: pgettext_lazy("evons", "1 cell: the next cell only"),
        2: pgettext_lazy("evons", "2 cells: abilities may target 2 cells away (the Magnetism example)"),
    })
    flip_covered = forms.TypedChoiceField(
        label=pgettext_lazy("evons", "Do arrows flip covered cards?"),
        coerce=lambda v: v == "yes",
        initial="no",
        widget=forms.RadioSelect,
        choices=[
            ("no", pgettext_lazy("evons", "No: only face-up monsters flip")),
            ("yes", pgettext_lazy("evons", "Yes (never Growth or Block cards)")),
        ],
    )
    def_reset = forms.TypedChoiceField(
        label=pgettext_lazy("evons", "Damage to DEF"),
        coerce=lambda v: v == "yes",
        initial="yes",
        widget=forms.RadioSelect,
        choices=[("yes", pgettext_lazy("evons", "Heals at the end of each turn")), ("no", pgettext_lazy("evons", "Stays for the rest of the game"))],
    )
    ties = choice_field(OPTIONS["ties"], pgettext_lazy("evons", "A tied score"), {
        "draw": pgettext_lazy("evons", "is a draw"), "second-player": pgettext_lazy("evons", "goes to the player who moved second"),
    })
    starting_hand = option_field(OPTIONS["starting_hand"], pgettext_lazy("evons", "Cards in each opening hand"))


# ------------------------------------------------------------------ a card named or typed in on the spot


STATS_TYPED = ("new_kind", "new_element", "new_cost", "new_atk", "new_def")


def card_entry(values: Mapping[str, str]) -> dict:
    """What a card entry (a catalog name, or a new card's stats and arrows) shows: `values`, what a refused
    form had sent (empty for a fresh form)."""
    arrows = {direction: values.get(f"new_arrow_{direction}", "") for direction in DIRECTIONS}
    typed = {field: values.get(field, "") for field in STATS_TYPED}
    return {
        "name": values.get("card_name", ""),
        **{field.removeprefix("new_"): value for field, value in typed.items()},
        "arrows": arrows,
        # The fold with a new card's stats opens again when the player had typed or picked in it.
        "open": any(typed.values()) or any(arrows.values()),
    }


# ------------------------------------------------------------------ the board's forms


def _cell(post, field: str = "cell") -> str:
    value = (post.get(field) or "").strip().upper()
    if value not in ALL_CELLS:
        raise ValidationError(pgettext_lazy("evons", "Choose a cell of the board, like B3 (columns X, A-E, Y; rows 0-6)."))
    return value


def _ability_action(post, card: Callable[[], dict]) -> dict:
    """An ability use: the arrow, its chosen target (and what the target needs: a pull, a revive of a card
    named by `card`, damage)."""
    arrow = post.get("arrow", "")
    choice = post.get("choice", "")
    parts = choice.split(":")
    if len(parts) != 3 or parts[0] not in ALL_CELLS:
        raise ValidationError(pgettext_lazy("evons", "Choose what the ability does."))
    target, extra, value = parts
    action = {"type": "ability", "arrow": arrow, "target": target}
    if extra == "pull_from":
        action["pull_from"] = value
    elif extra == "grave":
        if value == "unknown":
            action["grave"] = "unknown"
            action["card"] = card()
        elif (place := typed_number(value, 3)) is not None:
            action["grave"] = place
        else:
            raise ValidationError(pgettext_lazy("evons", "Choose a card from the graveyard."))
    elif extra == "storm":
        damage = {}
        for cell in ALL_CELLS:
            if (post.get(f"damage_{cell}") or "").strip():
                amount = common.whole_number(
                    post, f"damage_{cell}", pgettext("evons", "Damage on %(cell)s") % {"cell": cell}, 0, STAT_MAX
                )
                if amount:
                    damage[cell] = amount
        if not damage:
            raise ValidationError(pgettext_lazy("evons", "Type how much Firestorm damage each card takes."))
        action["damage"] = damage
    elif extra:
        raise ValidationError(pgettext_lazy("evons", "Choose what the ability does."))
    return action


CELL = pgettext_lazy("evons", "Choose a cell of the board, like B3 (columns X, A-E, Y; rows 0-6).")


class CellField(forms.CharField):
    """A cell of the 7x7 board by its name ("b3" is B3)."""

    def __init__(self) -> None:
        super().__init__(error_messages={"required": CELL})

    def to_python(self, value) -> str:
        return str(value or "").strip().upper()

    def validate(self, value: str) -> None:
        if value not in ALL_CELLS:
            raise ValidationError(CELL)


class EvonsForm(BoardActionForm):
    """A board form of the player whose turn it is."""

    seat = seat_field()

    def engine_action(self, data: dict) -> dict:
        return {"type": self.kinds[0], "seat": data["seat"], **self.more(data)}

    def more(self, data: dict) -> dict:
        """The action's fields besides its type and seat."""
        return {}


def _arrow_field(direction: str) -> forms.ChoiceField:
    return choice(pgettext_lazy("evons", "Arrow %(direction)s") % {"direction": DIRECTION_NAMES[direction]},
                  [("", "—"), *((ability, ability) for ability in ABILITIES)],
                  pgettext_lazy("evons", "Choose one of the abilities for this arrow, or none."), required=False)


class CardEntryForm(EvonsForm):
    """A board form that names a card (play, reveal, revive): from the catalog by its name, or with its stats
    typed in on the spot (templates/games/evons/card_entry.html), each stat a field, its trouble beside it."""

    card_name = forms.CharField(required=False)
    new_kind = choice(pgettext_lazy("evons", "Card type"), [("", ""), ("monster", "monster"), ("block", "block")],
                      pgettext_lazy("evons", "A card is a monster or a Block card."), required=False)
    new_element = choice(pgettext_lazy("evons", "Element"), [("", ""), *((e, e) for e in ELEMENTS)],
                         pgettext_lazy("evons", "Choose one of the elements."), required=False)
    new_cost = whole_number(pgettext_lazy("evons", "Cost"), 0, STAT_MAX, required=False)
    new_atk = whole_number(pgettext_lazy("evons", "ATK"), 0, STAT_MAX, required=False)
    new_def = whole_number(pgettext_lazy("evons", "DEF"), 1, STAT_MAX, required=False)
    rule_fields = {"card-element": "new_element", "card-ability-element": "new_element", "card-kind": "new_kind"}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for direction in DIRECTIONS:
            self.fields[f"new_arrow_{direction}"] = _arrow_field(direction)

    def card(self) -> dict:
        """The card named (or typed in) in the form, from its cleaned fields; {} with why beside the field."""
        data = self.cleaned_data
        name = " ".join(data["card_name"].split())
        if not name or len(name) > NAME_MAX:
            self.add_error("card_name", pgettext_lazy("evons", "Name the card (1 to %(most)s characters).")
                           % {"most": NAME_MAX})
            return {}
        stats = {stat: data[f"new_{stat}"] for stat in ("cost", "atk", "def")}
        # Stats typed in without picking the type: a monster is meant.
        kind = data["new_kind"] or ("monster" if any(value is not None for value in stats.values()) else "")
        if not kind:
            card = match_card(self.match, name)
            if card is None:
                self.add_error("card_name", pgettext_lazy(
                    "evons", "No card called “%(name)s” in the catalog: enter its stats below, under “Not in the catalog?”.")
                    % {"name": name})
                return {}
            return card.as_rules_card()
        if kind == "block":
            return {"name": name, "kind": "block"}
        for stat, value in stats.items():
            if value is None:
                field = self.fields[f"new_{stat}"]
                self.add_error(f"new_{stat}", field.error_messages["required"])
        if self.errors:
            return {}
        return {"name": name, "kind": "monster", **stats, "element": data["new_element"],
                "arrows": {d: data[f"new_arrow_{d}"] for d in DIRECTIONS if data[f"new_arrow_{d}"]}}


CARD_ENTRY_FIELDS = " ".join([*(name for name in CardEntryForm.declared_fields if name != "seat"),
                              *(f"new_arrow_{d}" for d in DIRECTIONS)])
"""The fields of a card entry, each drawn with its errors beside it (the form's own errors are the others')."""


class PlayForm(CardEntryForm):
    kinds = ("play",)

    cell = CellField()
    face = choice(None, [("up", "up"), ("covered", "covered")], pgettext_lazy("evons", "Play the card face-up or covered."))

    def more(self, data: dict) -> dict:
        action = {"cell": data["cell"], "covered": data["face"] == "covered"}
        if data["face"] == "up":
            action["card"] = self.card()
        return action


class RevealForm(CardEntryForm):
    kinds = ("reveal",)

    cell = CellField()

    def more(self, data: dict) -> dict:
        return {"cell": data["cell"], "card": self.card()}


class PassForm(EvonsForm):
    kinds = ("pass",)


class NextForm(EvonsForm):
    kinds = ("next",)


class ConflictForm(EvonsForm):
    kinds = ("conflict",)

    target = CellField()

    def more(self, data: dict) -> dict:
        return {"target": data["target"]}


class AbilityForm(CardEntryForm):
    kinds = ("ability",)

    arrow = choice(None, [(d, d) for d in DIRECTIONS], pgettext_lazy("evons", "Choose an arrow of the active card."))

    def more(self, data: dict) -> dict:
        action = _ability_action(self.data, self.card)
        del action["type"]
        return action


class AdjustForm(BoardActionForm):
    """A manual override of a player's credits, hand or deck (any of the three)."""

    kinds = ("adjust",)

    seat = seat_field()

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        labels = {"credits": pgettext_lazy("evons", "Credits"), "hand": pgettext_lazy("evons", "Hand"), "deck": pgettext_lazy("evons", "Deck")}
        for counter, label in labels.items():
            self.fields[counter] = whole_number(label, 0, COUNT_MAX, required=False)

    def engine_action(self, data: dict) -> dict:
        counts = {counter: data[counter] for counter in ("credits", "hand", "deck") if data[counter] is not None}
        if not counts:
            raise ValidationError(pgettext_lazy("evons", "Type the credits, hand or deck to set."))
        return {"type": "adjust", "override": True, "seat": data["seat"], **counts}


class SetDefForm(BoardActionForm):
    """A manual override of a card's current DEF."""

    kinds = ("set_def",)

    cell = CellField()
    def_ = whole_number(pgettext_lazy("evons", "DEF"), 1, STAT_MAX)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["def"] = self.fields.pop("def_")  # "def" is a Python keyword, so it cannot be written above

    def engine_action(self, data: dict) -> dict:
        return {"type": "adjust", "override": True, "cell": data["cell"], "def": data["def"]}


class EndGameForm(BoardActionForm):
    """The table ends the game (an override: the score decides)."""

    kinds = ("end_game",)

    def engine_action(self, data: dict) -> dict:
        return {"type": "end_game", "override": True}


BOARD_FORMS = BoardForms(PlayForm, RevealForm, PassForm, NextForm, ConflictForm, AbilityForm, AdjustForm, SetDefForm,
                         EndGameForm)
