"""Card Crush: 5-card decks locked in secret, 5 head-to-head rounds, first to 3 wins."""

from ..engine import Game
from . import battle
from .affinity import AFFINITIES, affinity_bonus, wheel_value
from .cards import RARITIES, validate_card

GAME = Game.of(
    battle, slug="card-crush", name="Card Crush", rules_version="1",
    validate_card=validate_card, deck_size=lambda state: battle.DECK_SIZE,
)

__all__ = ["AFFINITIES", "GAME", "RARITIES", "affinity_bonus", "validate_card", "wheel_value"]
