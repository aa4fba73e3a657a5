"""Cardmaster pages: the catalog card form, the match options, the hot-seat lineup entry
and the board where each possession is played."""

from django.utils.translation import gettext_lazy as _

from ...models import Match
from ..base import CardFact, Figures, GamePages, Progress
from . import board, demo, forms, narration, statistics


class CardmasterPages(GamePages):
    slug = "cardmaster"
    noun = _("Custom Match")
    board_template = "games/cardmaster/board.html"
    entry_template = "games/cardmaster/entry.html"
    card_form = forms.CardForm
    config_form = forms.ConfigForm
    demo_cards = demo.CARDS
    demo_matches = demo.MATCHES

    def card_facts(self, card: dict) -> list[CardFact]:
        return forms.card_facts(card)

    def seats_to_enter(self, match: Match) -> list[int]:
        return forms.seats_to_enter(match)

    def entry_form(self, match: Match, data=None, seat: int | None = None) -> forms.LineupForm:
        return forms.entry_form(match, data)

    def entry_action(self, form, seat: int) -> dict:
        return forms.entry_action(form, seat)

    def board(self, match: Match) -> dict:
        return board.board(match)

    def table_action(self, match: Match, post) -> dict:
        return forms.table_action(match, post)

    def describe(self, event: dict, names: list[str]) -> str:
        return narration.describe(event, names)

    def describe_action(self, action: dict, events: list[dict], names: list[str]) -> str:
        return narration.describe_action(action, events, names)

    def figures(self, matches) -> Figures:
        return statistics.figures(matches)

    def progress(self, match: Match) -> Progress:
        return statistics.progress(match)
