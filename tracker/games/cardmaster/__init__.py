"""Cardmaster pages: the catalog card form, the match options, the hot-seat lineup entry
and the board where each possession is played; in a Showdown, the AI's moves (showdown.py)."""

from collections.abc import Callable

from django.utils.translation import npgettext_lazy, pgettext_lazy

from ...models import Match
from ..base import Allowance, CardFact, SecretEntryModules, SecretEntryPages
from . import board, demo, forms, narration, showdown, statistics


class CardmasterPages(SecretEntryPages):
    slug = "cardmaster"
    stylesheet = "css/games/cardmaster.css"
    noun = pgettext_lazy("cardmaster", "Custom Match")
    consequences = frozenset({"fall", "status", "tick", "frozen", "revive", "match_won"})
    modules = SecretEntryModules(forms, board, narration, statistics, demo)
    tampered_demo, tampered_stat = "knock-out", "atk"
    reusable_entry = "lock_lineup"
    score_counted = npgettext_lazy("cardmaster", "%(a)s card standing to %(b)s", "%(a)s cards standing to %(b)s", "n")

    def card_facts(self, card: dict) -> list[CardFact]:
        return forms.card_facts(card)

    def match_started(self, match: Match, config_form) -> None:
        showdown.start_showdown(match, *config_form.ai_faction)

    def passes_the_phone(self, match: Match) -> bool:
        return showdown.ai_seat(match.state["config"]) is None  # against the AI: nobody to pass the phone to

    def after_change(self, match: Match, allowance: Callable[[str], Allowance]) -> Match:
        return showdown.play_ai(match, allowance("ai-turn"))

    def roll_reason(self, why: str) -> str:
        return narration.roll_reason(why)

    def outcome_line(self, event: dict, names: list[str]) -> str:
        return narration.outcome_line(event, names)

    def reply(self, match: Match, step: int, names: list[str]) -> tuple[str, list[str]] | None:
        return showdown.reply(match, step, names)
