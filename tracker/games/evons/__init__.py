"""Evons pages: the catalog card form, the 7x7 board, and board forms turned into actions.

Evons is played open: a covered card is named only when it is revealed, so there is no
secret entry and the phone never holds anything one player must not see.
"""

from django.utils.translation import gettext_lazy as _

from ...models import Match
from ..base import CardFact, Figures, GamePages, Progress
from . import board, demo, forms, narration, statistics


class EvonsPages(GamePages):
    slug = "evons"
    noun = _("game")
    board_template = "games/evons/board.html"
    entry_template = "games/evons/entry.html"
    card_form = forms.CardForm
    config_form = forms.ConfigForm
    demo_cards = demo.CARDS
    demo_matches = demo.MATCHES
    cards_played_from_log = True

    def card_initial(self, card: dict) -> dict:
        return forms.card_initial(card)

    def card_facts(self, card: dict) -> list[CardFact]:
        return forms.card_facts(card)

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
