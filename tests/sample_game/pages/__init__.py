"""High Card Duel's pages, as a newcomer writes them in tracker/games/<game>/: one GamePages subclass."""

from django.utils.translation import pgettext_lazy

from tracker.games.base import SecretEntryModules, SecretEntryPages
from tracker.models import Match

from . import board, demo, forms, narration, statistics


class HighCardDuelPages(SecretEntryPages):
    slug = "high-card-duel"
    noun = pgettext_lazy("high-card-duel", "duel")
    consequences = frozenset({"duel_won"})
    modules = SecretEntryModules(forms, board, narration, statistics, demo)
    tampered_demo, tampered_stat = "ana-wins", "value"
    key_stats = ("value",)

    def own_secret(self, match: Match, seat: int) -> list[str] | None:
        pick = match.state["picks"][seat]
        return [pick["name"]] if pick else None
