"""Pieces every game adapter needs in the same form: the catalog card form and what it stores."""

from django import forms

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
