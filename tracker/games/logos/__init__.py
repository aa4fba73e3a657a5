"""LOGOS pages: the datacard form, each player's secret commit, and the duel board.

The engine (rules/logos) decides everything; these pages turn form posts into actions and
the duel's state into what the board shows, with every step of a round's working written
out (narration.py).
"""

from django.utils.translation import gettext_lazy as _

from ...models import Match
from ..base import CardFact, Figures, GamePages, Progress
from . import board, demo, forms, narration, statistics


class LogosPages(GamePages):
    slug = "logos"
    noun = _("duel")
    board_template = "games/logos/board.html"
    entry_template = "games/logos/entry.html"
    card_form = forms.CardForm
    config_form = forms.ConfigForm
    demo_cards = demo.CARDS
    demo_matches = demo.MATCHES

    def card_initial(self, card: dict) -> dict:
        return forms.card_initial(card)

    def card_facts(self, card: dict) -> list[CardFact]:
        return forms.card_facts(card)

    def seats_to_enter(self, match: Match) -> list[int]:
        return forms.seats_to_enter(match)

    def entry_form(self, match: Match, data=None, seat: int | None = None) -> forms.CommitForm:
        return forms.entry_form(match, data)

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
