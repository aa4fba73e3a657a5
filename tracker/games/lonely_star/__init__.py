"""Lonely Star pages: the unit catalog, the match options, the board's forms and the log lines.

Everything in Lonely Star is played open on the table, so there is no secret entry: the
base class's defaults say so.
"""

from django.utils.translation import gettext_lazy as _

from ...models import Match
from ..base import Figures, GamePages, Progress
from . import board, demo, forms, narration, statistics


class LonelyStarPages(GamePages):
    slug = "lonely-star"
    noun = _("match")
    board_template = "games/lonely-star/board.html"
    entry_template = "games/lonely-star/entry.html"
    card_form = forms.CardForm
    config_form = forms.ConfigForm
    demo_cards = demo.CARDS
    demo_matches = demo.MATCHES
    key_stats = ("hp", "at", "lk", "rs", "reach")

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
