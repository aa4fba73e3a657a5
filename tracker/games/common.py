"""Pieces every game adapter needs in the same form: the catalog card form and what it stores,
and the small helpers the games' statistics share."""

from collections import Counter

from django import forms
from django.utils.translation import gettext as _

from rules import RuleError


class EngineCardForm(forms.Form):
    """A catalog card form whose cleaned data is the card as the game's engine validated it.

    Subclasses declare the fields and set `validate_card` to the engine's function.
    """

    validate_card = None

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            return self.validate_card(data)
        except RuleError as error:
            raise forms.ValidationError(str(error)) from error


def card_stats(card: dict) -> dict:
    """What the catalog stores beside the name."""
    return {key: value for key, value in card.items() if key != "name"}


def catalog_cards(form: forms.Form, fields, repeated: str) -> list[dict]:
    """The cards named in `fields` of a deck or lineup form, as the engine takes them, in order.

    Names are looked up in `form.catalog` (casefolded name -> Card). An unknown name, or a card
    named twice (worded by `repeated`, with %(name)s), becomes an error on its field.
    """
    cards, seen = [], set()
    for field in fields:
        if field not in form.cleaned_data:
            continue
        name = form.cleaned_data[field]
        card = form.catalog.get(name.strip().casefold())
        if card is None:
            form.add_error(field, _("No card called “%(name)s” in the catalog; add it below.") % {"name": name})
        elif card.pk in seen:
            form.add_error(field, repeated % {"name": card.name})
        else:
            seen.add(card.pk)
            cards.append(card.as_rules_card())
    return cards


def seat_names(match) -> list[str]:
    """The players' names in seat order, from the seats the stats query prefetched."""
    return [seat.player.name for seat in sorted(match.seats.all(), key=lambda seat: seat.position)]


def ranked(counts: Counter) -> list[tuple[str, int]]:
    """Largest first; equal values by name, so the order never depends on the matches' order."""
    return sorted(counts.items(), key=lambda item: (-item[1], item[0].casefold()))
