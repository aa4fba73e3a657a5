"""LOGOS: two players, 100,000 HP each, secret card commits, the class triangle, effects and combos.

Modules, by game concept: `cards` (a datacard and its validation), `combo` (the combo
counter and indicator), `direction` (who attacks), `effects` (the fourteen effects),
`duel` (the round, the actions and every decision the rulebook leaves open).
"""

from ..engine import Game
from . import duel
from .cards import CLASSES, COLOURS, EFFECTS, PANEL_COLOURS, validate_card

GAME = Game.of(
    duel, slug="logos", name="LOGOS", rules_version="1",
    validate_card=validate_card, deck_size=None,  # no action takes a deck
)

__all__ = ["CLASSES", "COLOURS", "EFFECTS", "GAME", "PANEL_COLOURS", "validate_card"]
