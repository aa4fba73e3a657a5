"""Card Crush forms: a catalog card, the match options, and a player's secret deck in round order."""

from django import forms
from django.utils.translation import pgettext_lazy

from rules import IllegalAction
from rules.card_crush import AFFINITIES, RARITIES
from rules.card_crush.battle import DECK_SIZE, OPTIONS, phase
from rules.card_crush.cards import LEVEL_MAX, NAME_MAX, STAT_MAX, validate_card
from rules.errors import gettext_noop

from ...competition.collection import seat_collections
from ...matches.club_cards import match_catalog, match_catalog_by_name
from ...matches.engine_messages import engine_word_lazy
from ...models import Card, Match
from ..board_forms import BoardForms, ButtonForm
from ..common import EngineCardForm, catalog_cards, choice_field

SLUG = "card-crush"


class CardForm(EngineCardForm):
    """A Card Crush card for the catalog: the engine has the last word on its stats."""

    name = forms.CharField(label=pgettext_lazy("card-crush", "Name"), max_length=NAME_MAX)
    power = forms.IntegerField(label=pgettext_lazy("card-crush", "Power"), min_value=0, max_value=STAT_MAX)
    speed = forms.IntegerField(label=pgettext_lazy("card-crush", "Speed"), min_value=0, max_value=STAT_MAX)
    affinity = forms.ChoiceField(label=pgettext_lazy("card-crush", "Affinity"), choices=[(a, engine_word_lazy(SLUG, a)) for a in AFFINITIES])
    rarity = forms.ChoiceField(label=pgettext_lazy("card-crush", "Rarity"), choices=[(r, engine_word_lazy(SLUG, r)) for r in RARITIES], initial="Common")
    level = forms.IntegerField(label=pgettext_lazy("card-crush", "Level"), min_value=1, max_value=LEVEL_MAX, initial=1)

    validate_card = staticmethod(validate_card)


class ConfigForm(forms.Form):
    resolution = choice_field(OPTIONS["resolution"], pgettext_lazy("card-crush", "How rounds are decided"), {
        "battle-score": pgettext_lazy("card-crush", "Battle Score: Power + Affinity Bonus (rulebook)"),
        "power-only": pgettext_lazy("card-crush", "Power only, no Affinity Bonus (older rule pages)"),
    })


class DeckForm(forms.Form):
    """Five catalog cards in round order, typed or picked from the catalog list."""

    deck_size = DECK_SIZE

    def __init__(self, *args, catalog: dict[str, Card], collections: dict[int, dict] | None = None, deck: str = "",
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.catalog = catalog
        # Decks from a collection (tracker/competition): the cards at the levels their owner upgraded them to.
        self.collections = collections or {}
        # Which entry this is ("<match>-<seat>"), for the card lists to offer a chosen collection's cards alone.
        self.deck = deck if self.collections else ""
        if self.collections:
            self.fields["source"] = forms.ChoiceField(
                label=pgettext_lazy("card-crush", "Play the cards"), widget=forms.RadioSelect, initial="catalog",
                choices=[("catalog", pgettext_lazy("card-crush", "As printed in the catalog"))]
                + [(f"seat-{seat}", entry["label"]) for seat, entry in self.collections.items()],
            )
            self.order_fields(["source"])
        for position in range(1, DECK_SIZE + 1):
            self.fields[f"card_{position}"] = forms.CharField(
                label=pgettext_lazy("card-crush", "Round %(round)s card") % {"round": position},
                max_length=NAME_MAX,
                widget=forms.TextInput(attrs={"list": "catalog", "autocomplete": "off"}),
            )

    def clean(self):
        data = super().clean()
        cards = catalog_cards(self, self.catalog, [f"card_{position}" for position in range(1, DECK_SIZE + 1)],
                              pgettext_lazy("card-crush", "%(name)s is already in this deck; a deck holds %(size)s different cards."),
                              size=DECK_SIZE)
        data["cards"] = cards
        data["source_seat"] = None
        if data.get("source", "catalog") != "catalog" and len(cards) == DECK_SIZE:
            data["source_seat"] = int(data["source"].removeprefix("seat-"))
            owned = self.collections[data["source_seat"]]
            for position, card in enumerate(cards, start=1):
                if card["name"].casefold() not in owned["cards"]:
                    self.add_error(f"card_{position}", pgettext_lazy("card-crush", "%(owner)s's collection has no %(name)s.")
                                   % {"owner": owned["owner"], "name": card["name"]})
            data["cards"] = [owned["cards"].get(card["name"].casefold(), card) for card in cards]
        return data


# ------------------------------------------------------------------ the secret deck


def seats_to_enter(match: Match) -> list[int]:
    """Seats whose deck is still awaited."""
    if phase(match.state) != "lock-in":
        return []
    return [seat for seat, deck in enumerate(match.state["decks"]) if deck is None]


def entry_form(match: Match, data=None, seat: int | None = None) -> DeckForm:
    """The deck entry of `seat`, offering only the collections that seat's player may use."""
    return DeckForm(data, catalog=match_catalog(match), collections=seat_collections(match, seat),
                    deck=f"{match.pk}-{seat}")


def entry_action(form: DeckForm, seat: int) -> dict:
    if form.cleaned_data.get("source_seat") not in (None, seat):
        raise IllegalAction("deck-own-collection", gettext_noop("%(seat)s can play only their own collection."),
                            seat=seat)
    return {"type": "lock_deck", "seat": seat, "cards": form.cleaned_data["cards"]}


def entry_examples(match: Match, seat: int) -> tuple[dict, dict]:
    """Two decks with no card in common, from the catalog in name order (see GamePages.entry_examples)."""
    cards = [card.as_rules_card() for card in match_catalog_by_name(match)[:10]]
    return ({"type": "lock_deck", "seat": seat, "cards": cards[:5]},
            {"type": "lock_deck", "seat": seat, "cards": cards[5:10]})


def own_secret(match: Match, seat: int) -> list[str] | None:
    """A seated phone's own locked deck, shown only to that phone before the reveal."""
    deck = match.state["decks"][seat] if seat < len(match.state["decks"]) else None
    return [card["name"] for card in deck] if deck else None


# ------------------------------------------------------------------ the board's forms


class PlayRoundForm(ButtonForm):
    """Reveal the next round's cards: the one open action of a battle."""

    kinds = ("play_round",)


BOARD_FORMS = BoardForms(PlayRoundForm)
