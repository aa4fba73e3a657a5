"""Lonely Star pages: the unit catalog, the match options, the board's forms and the log lines.

Everything in Lonely Star is played open on the table, so there is no secret entry: the
base class's defaults say so.
"""

from django.utils.translation import pgettext_lazy

from ..base import GamePages, Modules
from . import board, demo, forms, narration, statistics


class LonelyStarPages(GamePages):
    slug = "lonely-star"
    stylesheet = "css/games/lonely-star.css"
    noun = pgettext_lazy("lonely-star", "match")
    consequences = frozenset({
        "lethal", "unit_left", "cards_moved", "draw_missed", "status_placed", "status_removed",
        "accessory_broken", "attack_stopped", "match_over"
    })
    modules = Modules(forms, board, narration, statistics, demo)
    tampered_demo, tampered_stat = "deck-out", "hp"
    key_stats = ("hp", "at", "lk", "rs", "reach")
    box_rows = 8  # the box stands in the unit's panel, a tenth narrower than the page

    def roll_reason(self, why: str) -> str:
        return narration.roll_reason(why)
