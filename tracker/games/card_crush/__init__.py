"""Card Crush pages: the catalog card form, the secret deck entry and the battle board."""

from django.utils.translation import gettext_lazy as _

from ...models import Match
from ..base import Figures, GamePages, Progress
from . import board, demo, forms, narration, statistics


class CardCrushPages(GamePages):
    slug = "card-crush"
    noun = _("battle")
    board_template = "games/card-crush/board.html"
    entry_template = "games/card-crush/entry.html"
    card_form = forms.CardForm
    config_form = forms.ConfigForm
    demo_cards = demo.CARDS
    demo_matches = demo.MATCHES
    key_stats = ("power", "speed", "affinity")

    def seats_to_enter(self, match: Match) -> list[int]:
        return forms.seats_to_enter(match)

    def entry_form(self, match: Match, data=None, seat: int | None = None) -> forms.DeckForm:
        return forms.entry_form(match, data, seat)

    def entry_action(self, form, seat: int) -> dict:
        return forms.entry_action(form, seat)

    def own_secret(self, match: Match, seat: int) -> list[str] | None:
        return forms.own_secret(match, seat)

    def board(self, match: Match) -> dict:
        return board.board(match)

    def table_action(self, match: Match, post) -> dict:
        return forms.table_action(match, post)

    def describe(self, event: dict, names: list[str]) -> str:
        return narration.describe(event, names)

    def describe_action(self, action: dict, events: list[dict], names: list[str]) -> str:
        return narration.describe_action(action, events, names)

    def cards_played(self, match: Match, seat: int) -> list[str]:
        return statistics.cards_played(match, seat)

    def figures(self, matches) -> Figures:
        return statistics.figures(matches)

    def progress(self, match: Match) -> Progress:
        return statistics.progress(match)
