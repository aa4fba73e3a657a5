"""Card Crush pages: the catalog card form, the secret deck entry and the battle board."""

from django.utils.translation import gettext_lazy as _

from ...models import Match
from ..base import GamePages, Modules
from . import board, demo, forms, narration, statistics


class CardCrushPages(GamePages):
    slug = "card-crush"
    noun = _("battle")
    modules = Modules(forms, board, narration, statistics, demo)
    key_stats = ("power", "speed", "affinity")

    def seats_to_enter(self, match: Match) -> list[int]:
        return forms.seats_to_enter(match)

    def entry_form(self, match: Match, data=None, seat: int | None = None) -> forms.DeckForm:
        return forms.entry_form(match, data, seat)

    def entry_action(self, form, seat: int) -> dict:
        return forms.entry_action(form, seat)

    def own_secret(self, match: Match, seat: int) -> list[str] | None:
        return forms.own_secret(match, seat)

    def cards_played(self, match: Match, seat: int) -> list[str]:
        return statistics.cards_played(match, seat)
