"""Evons: a 7x7 board of arrowed cards, conflicts, flips, chains of activations and credits."""

from ..engine import Game
from . import turns
from .cards import ABILITIES, ELEMENTS, validate_card

GAME = Game.of(
    turns, slug="evons", name="Evons", rules_version="1",
    validate_card=validate_card,
)

__all__ = ["ABILITIES", "ELEMENTS", "GAME", "validate_card"]
