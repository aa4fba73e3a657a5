"""LOGOS: two players, 100,000 HP each, secret card commits, the class triangle, effects and combos.

Modules, by game concept: `cards` (a datacard and its validation), `combo` (the combo
counter and indicator), `direction` (who attacks), `effects` (the fourteen effects),
`duel` (the round, the actions and every decision the rulebook leaves open).
"""

from ..engine import Game
from . import duel
from .cards import CLASSES, COLOURS, EFFECTS, PANEL_COLOURS, validate_card

GAME = Game(
    slug="logos",
    name="LOGOS",
    rules_version="1",
    seats=duel.SEATS,
    new_match=duel.new_match,
    legal_actions=duel.legal_actions,
    apply=duel.apply,
    outcome=duel.outcome,
    validate_card=validate_card,
    public_action=duel.public_action,
    authority=duel.authority,
    default_config=duel.DEFAULT_CONFIG,
)

__all__ = ["CLASSES", "COLOURS", "EFFECTS", "GAME", "PANEL_COLOURS", "validate_card"]
