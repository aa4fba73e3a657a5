"""Evons: a 7x7 board of arrowed cards, conflicts, flips, chains of activations and credits."""

from ..engine import Game
from . import turns
from .cards import ABILITIES, ELEMENTS, validate_card

GAME = Game(
    slug="evons",
    name="Evons",
    rules_version="1",
    seats=turns.SEATS,
    new_match=turns.new_match,
    legal_actions=turns.legal_actions,
    apply=turns.apply,
    outcome=turns.outcome,
    validate_card=validate_card,
    public_action=turns.public_action,
    authority=turns.authority,
    default_config=turns.DEFAULT_CONFIG,
)

__all__ = ["ABILITIES", "ELEMENTS", "GAME", "validate_card"]
