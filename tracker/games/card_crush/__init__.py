"""Card Crush pages: the catalog card form, the secret deck entry and the battle board."""

from django.utils.translation import npgettext_lazy, pgettext_lazy

from ...models import Match
from ..base import SecretEntryModules, SecretEntryPages
from . import board, demo, forms, narration, statistics


class CardCrushPages(SecretEntryPages):
    slug = "card-crush"
    noun = pgettext_lazy("card-crush", "battle")
    # A round's winner (and its working) is what the table plays on: the other phone is told it with the news.
    consequences = frozenset({"round", "battle_won"})
    modules = SecretEntryModules(forms, board, narration, statistics, demo)
    tampered_demo, tampered_stat = "rulebook", "power"
    reusable_entry = "lock_deck"
    score_counted = npgettext_lazy("card-crush", "%(a)s round to %(b)s", "%(a)s rounds to %(b)s", "n")
    key_stats = ("power", "speed", "affinity")
    competes = True

    def roll_reason(self, why: str) -> str:
        return narration.roll_reason(why)

    def own_secret(self, match: Match, seat: int) -> list[str] | None:
        return forms.own_secret(match, seat)

    def cards_played(self, match: Match, seat: int) -> list[str]:
        return statistics.cards_played(match, seat)
