"""LOGOS pages: the datacard form, each player's secret commit, and the duel board.

The engine (rules/logos) decides everything; these pages turn form posts into actions and
the duel's state into what the board shows, with every step of a round's working written
out (narration.py).
"""

from django.utils.translation import pgettext_lazy

from ...models import Match
from ..base import CardFact, SecretEntryModules, SecretEntryPages
from . import board, demo, forms, narration, statistics


class LogosPages(SecretEntryPages):
    slug = "logos"
    stylesheet = "css/games/logos.css"
    noun = pgettext_lazy("logos", "duel")
    consequences = frozenset({"round_over", "duel_over", "resigned", "backup_called"})
    modules = SecretEntryModules(forms, board, narration, statistics, demo)
    tampered_demo, tampered_stat = "knock-out", "speed"
    score_counted = pgettext_lazy("logos", "%(a)s HP left to %(b)s")

    def shown_score(self, score: str) -> str:
        # The engine records a resignation that is a draw as "draw"; beside "a draw" the page says how it came about
        # ("Match over: a draw, by resignation.", not "a draw, draw.").
        return super().shown_score("by resignation" if score == "draw" else score)

    def card_initial(self, card: dict) -> dict:
        return forms.card_initial(card)

    def card_facts(self, card: dict) -> list[CardFact]:
        return forms.card_facts(card)

    def own_secret(self, match: Match, seat: int) -> list[str] | None:
        return forms.own_secret(match, seat)

    def cards_played(self, match: Match, seat: int) -> list[str]:
        return statistics.cards_played(match, seat)

    def outcome_line(self, event: dict, names: list[str]) -> str:
        return narration.outcome_line(event, names)
