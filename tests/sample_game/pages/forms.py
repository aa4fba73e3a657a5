"""High Card Duel forms: a catalog card, no match options, the secret pick and the reveal button."""

from django import forms
from django.utils.translation import pgettext_lazy

from tracker.games.board_forms import BoardForms, ButtonForm
from tracker.games.common import EngineCardForm, catalog_cards
from tracker.matches.club_cards import match_catalog
from tracker.models import Card, Match

from ..engine.duel import validate_card


class CardForm(EngineCardForm):
    name = forms.CharField(label=pgettext_lazy("high-card-duel", "Name"), max_length=40)
    value = forms.IntegerField(label=pgettext_lazy("high-card-duel", "Value"), min_value=1, max_value=13)

    validate_card = staticmethod(validate_card)


class ConfigForm(forms.Form):
    """High Card Duel has no options."""


class PickForm(forms.Form):
    card = forms.CharField(label=pgettext_lazy("high-card-duel", "Your card"), max_length=40,
                           widget=forms.TextInput(attrs={"list": "catalog", "autocomplete": "off"}))

    def __init__(self, *args, catalog: dict[str, Card], **kwargs):
        super().__init__(*args, **kwargs)
        self.catalog = catalog

    def clean(self):
        data = super().clean()
        data["cards"] = catalog_cards(self, self.catalog, ["card"], pgettext_lazy("high-card-duel", "%(name)s is picked twice."))
        return data


def seats_to_enter(match: Match) -> list[int]:
    if match.state["winner"] is not None:
        return []
    return [seat for seat, pick in enumerate(match.state["picks"]) if pick is None]


def entry_form(match: Match, data=None, seat: int | None = None) -> PickForm:
    return PickForm(data, catalog=match_catalog(match))


def entry_action(form: PickForm, seat: int) -> dict:
    return {"type": "pick", "seat": seat, "card": form.cleaned_data["cards"][0]}


def entry_examples(match: Match, seat: int) -> tuple[dict, dict]:
    low, high = [card.as_rules_card() for card in Card.objects.filter(slug=match.slug).order_by("name")[:2]]
    return {"type": "pick", "seat": seat, "card": low}, {"type": "pick", "seat": seat, "card": high}


class RevealForm(ButtonForm):
    kinds = ("reveal",)


BOARD_FORMS = BoardForms(RevealForm)
