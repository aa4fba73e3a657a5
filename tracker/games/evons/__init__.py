"""Evons pages: the catalog card form, the 7x7 board, and board forms turned into actions.

Evons is played open: a covered card is named only when it is revealed, so there is no
secret entry and the phone never holds anything one player must not see.
"""

from django.utils.translation import npgettext_lazy, pgettext_lazy

from ...models import Match
from ..base import CardFact, GamePages, Modules
from ..board_forms import BoardActionForm
from . import board, demo, forms, narration, statistics


class EvonsPages(GamePages):
    slug = "evons"
    stylesheet = "css/games/evons.css"
    noun = pgettext_lazy("evons", "game")
    consequences = frozenset({
        "flipped", "destroyed", "removed", "discarded", "burned", "revived", "swapped", "moved",
        "game_over"
    })
    modules = Modules(forms, board, narration, statistics, demo)
    tampered_demo, tampered_stat = "by-passes", "atk"
    score_counted = npgettext_lazy("evons", "%(a)s point to %(b)s", "%(a)s points to %(b)s", "n")
    cards_played_from_log = True
    box_rows = 5  # the box takes a quarter of the screen (evons.css): the board and Play stay in view under it

    def card_initial(self, card: dict) -> dict:
        return forms.card_initial(card)

    def card_facts(self, card: dict) -> list[CardFact]:
        return forms.card_facts(card)

    def lands(self, match: Match) -> str:
        return board.lands(match)

    def board_refused(self, match: Match, refused: BoardActionForm) -> dict:
        return board.board(match, refused)

    def cards_played(self, match: Match, seat: int) -> list[str]:
        return statistics.cards_played(match, seat)

    def outcome_line(self, event: dict, names: list[str]) -> str:
        return narration.outcome_line(event, names)
